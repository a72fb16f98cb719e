import {
  type ChangeEvent,
  type ClipboardEvent,
  type DragEvent,
  useCallback,
  useMemo,
  useRef,
  useState,
} from 'react';
import { loadAttachments } from '../store/attachments-loader.js';
import type { Attachment } from '../store/types.js';
import { useKeyedDraft } from './use-keyed-draft.js';

/** What `useAttachments` hands the composer. */
export interface AttachmentsController {
  /** The files read so far, in the order they were added. */
  readonly attachments: readonly Attachment[];
  /**
   * What was refused, naming each file and the limit (files refused for their type share one
   * message); cleared by the next add.
   */
  readonly errors: readonly string[];
  /** Clears the refusals (the notice's Dismiss). */
  dismissErrors(): void;
  /** Whether files are still being read. */
  readonly reading: boolean;
  /** Adds files from anywhere (a file list, an array of `File`s). */
  add(files: Iterable<File> | ArrayLike<File>): Promise<void>;
  remove(id: string): void;
  /** Empties the list (after sending). */
  clear(): void;
  /** For `<input type="file" multiple onChange={…}>`; resets the input so a file can be picked again. */
  onInputChange(event: ChangeEvent<HTMLInputElement>): void;
  /** For the composer's `onPaste`: takes pasted files, lets pasted text through. */
  onPaste(event: ClipboardEvent<HTMLElement>): void;
  /** Spread on the drop zone: `onDragOver` and `onDrop`. */
  readonly dropProps: {
    onDragOver(event: DragEvent<HTMLElement>): void;
    onDrop(event: DragEvent<HTMLElement>): void;
  };
  /** Whether files are dragged over the drop zone (to show it). */
  readonly dragging: boolean;
  /** The `accept` attribute for the file input. */
  readonly accept: string;
}

export const ATTACHMENT_ACCEPT =
  'image/png,image/jpeg,image/gif,image/webp,application/pdf,text/*,application/json,.md,.csv,.json,.yaml,.yml,.ts,.tsx,.js,.jsx,.py';

/** Files not sent yet, by draft key; let go with the key (a conversation that is gone). */
const staged = new WeakMap<object, readonly Attachment[]>();
const NONE: readonly Attachment[] = [];

const hasFiles = (types: readonly string[] | DOMStringList | undefined): boolean =>
  types !== undefined && Array.from(types as ArrayLike<string>).includes('Files');

/**
 * The composer's attachments: handlers for a file input, paste and drag-and-drop, the list
 * of read files with remove, and the refusals. Files are checked against the API's limits
 * as they are added, so a refusal shows before anything is sent.
 *
 * ```tsx
 * const files = useAttachments();
 * <div {...files.dropProps} onPaste={files.onPaste}>
 *   <input type="file" multiple accept={files.accept} onChange={files.onInputChange} />
 *   <AttachmentList attachments={files.attachments} onRemove={files.remove} />
 * </div>
 * send(text, { attachments: files.attachments }).then(files.clear);
 * ```
 */
export function useAttachments(draftKey?: object): AttachmentsController {
  // A file read after the key changed goes to the conversation it was attached in.
  const [attachments, update, keyNow] = useKeyedDraft(staged, draftKey, NONE);
  const [errors, setErrors] = useState<readonly string[]>([]);
  const [pending, setPending] = useState(0);
  const [dragging, setDragging] = useState(false);
  const dragTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const add = useCallback(
    async (files: Iterable<File> | ArrayLike<File>) => {
      const list = Array.from(files as ArrayLike<File>);
      if (list.length === 0) return;
      const target = keyNow();
      setErrors([]);
      setPending((n) => n + 1);
      const unreadable = (file: File | undefined) =>
        `${file?.name ?? 'A file'} could not be read. Try attaching it again.`;
      let helpers: Awaited<ReturnType<typeof loadAttachments>>;
      try {
        helpers = await loadAttachments();
      } catch {
        // The reading code did not load (offline): every file is refused; the next add asks again.
        setPending((n) => n - 1);
        setErrors(list.map(unreadable));
        return;
      }
      const { readAttachment, refusals } = helpers;
      const results = await Promise.allSettled(list.map((file) => readAttachment(file)));
      setPending((n) => n - 1);
      const read = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const refused = refusals(results, list, unreadable);
      if (read.length > 0) update((current) => [...current, ...read], target);
      if (refused.length > 0) setErrors(refused);
    },
    [update, keyNow],
  );

  const remove = useCallback(
    (id: string) => {
      update((current) => current.filter((attachment) => attachment.id !== id));
    },
    [update],
  );
  const clear = useCallback(() => {
    update(() => NONE);
    setErrors([]);
  }, [update]);

  return useMemo(
    (): AttachmentsController => ({
      attachments,
      errors,
      reading: pending > 0,
      add,
      remove,
      clear,
      dismissErrors: () => setErrors([]),
      accept: ATTACHMENT_ACCEPT,
      dragging,
      onInputChange(event) {
        const input = event.currentTarget;
        void add(Array.from(input.files ?? []));
        input.value = '';
      },
      onPaste(event) {
        const files = Array.from(event.clipboardData?.files ?? []);
        if (files.length === 0) return;
        // Pasted files are attachments, not text to insert.
        event.preventDefault();
        void add(files);
      },
      dropProps: {
        onDragOver(event) {
          if (!hasFiles(event.dataTransfer?.types)) return;
          // Without this the browser would open the file instead of dropping it here.
          event.preventDefault();
          setDragging(true);
          clearTimeout(dragTimer.current);
          dragTimer.current = setTimeout(() => setDragging(false), 150);
        },
        onDrop(event) {
          const files = Array.from(event.dataTransfer?.files ?? []);
          setDragging(false);
          if (files.length === 0) return;
          event.preventDefault();
          void add(files);
        },
      },
    }),
    [attachments, errors, pending, dragging, add, remove, clear],
  );
}
