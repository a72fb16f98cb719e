import { whenPaintedAndIdle } from '../after-paint.js';
import { loadOnce } from '../load-once.js';

/** The specimen of an answer's faces: a chunk of its own, asked for when a chat mounts. */
const loadFaceSpecimen = loadOnce(() => import('./face-specimen.js'));

/**
 * Looks up the fonts an answer uses in an idle period after the chat has painted, so the first
 * answer's first frame does not (it looked up some fifteen faces, about 20 ms in Chromium on
 * Linux, where each is a round trip to the browser process). What looks them up stays in
 * `chat`, hidden, until the returned function is called (on unmount): the browser lets go of a
 * face no element uses, and looked it up again in the first answer when it was taken out at
 * once. Only ever an optimisation: a specimen that cannot load changes nothing.
 */
export function mountAnswerFacesWhenIdle(chat: () => HTMLElement | null): () => void {
  // Where nothing runs when idle, nothing is loaded either.
  if (typeof requestIdleCallback !== 'function') return () => {};
  let holder: HTMLElement | null = null;
  let unmounted = false;
  // Asked for now, so it has arrived by the first idle period.
  const specimen = loadFaceSpecimen().catch(() => null);
  whenPaintedAndIdle(() => {
    void specimen.then((loaded) => {
      const root = chat();
      if (loaded === null || unmounted || root === null || !root.isConnected) return;
      holder = loaded.holdAnswerFaces(root);
    });
  });
  return () => {
    unmounted = true;
    holder?.remove();
  };
}
