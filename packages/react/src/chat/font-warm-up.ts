import { whenPaintedAndIdle } from '../after-paint.js';
import { loadOnce } from '../load-once.js';

/** The specimen of an answer's faces: a chunk of its own, asked for when a chat mounts. */
const loadFaceSpecimen = loadOnce(() => import('./face-specimen.js'));
let loadedSpecimen: typeof import('./face-specimen.js') | null = null;

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
  const loading = loadFaceSpecimen().then(
    (loaded) => {
      loadedSpecimen = loaded;
      return loaded;
    },
    () => null,
  );
  const hold = (loaded: typeof import('./face-specimen.js')) => {
    const root = chat();
    if (unmounted || holder !== null || root === null || !root.isConnected) return;
    try {
      holder = loaded.holdAnswerFaces(root);
    } catch {
      // Only ever an optimisation.
    }
  };
  whenPaintedAndIdle(() => {
    if (loadedSpecimen !== null) return hold(loadedSpecimen);
    // Arrived late: wait for the next idle period, not a moment in the middle of an answer.
    void loading.then((loaded) => {
      if (loaded !== null) requestIdleCallback(() => hold(loaded));
    });
  });
  return () => {
    unmounted = true;
    holder?.remove();
  };
}
