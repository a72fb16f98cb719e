import {
  type FormEvent,
  type ReactElement,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { Icon } from '../chat/icons.js';
import { useThreadStore } from '../hooks/use-thread-store.js';
import type { ThreadSummary } from '../store/create-thread-store.js';
import { cx } from './cx.js';
import type { RecentSection, ThreadListProps } from './thread-list.js';

const RECENT_LABELS: Readonly<Record<RecentSection, string>> = {
  today: 'Today',
  yesterday: 'Yesterday',
  week: 'Previous 7 days',
  month: 'Previous 30 days',
  older: 'Older',
};

const DAY_MS = 24 * 60 * 60 * 1000;

let monthFormat: Intl.DateTimeFormat | undefined;
/** "October 2026" in the reader's locale; built once (a format is costly to make). */
function monthOf(date: Date): string {
  monthFormat ??= new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' });
  return monthFormat.format(date);
}

/** A run of threads under one heading; the list is newest first, so each run is too. */
export interface ThreadSection {
  readonly key: string;
  readonly label: string;
  readonly threads: readonly ThreadSummary[];
}

/**
 * `threads` (newest first) under date headings, by the local calendar: since midnight today,
 * yesterday, the 7 and 30 days before today, then by month. Empty headings are left out.
 */
export function threadSections(
  threads: readonly ThreadSummary[],
  now: number,
  labels: Partial<Readonly<Record<RecentSection, string>>> = {},
): ThreadSection[] {
  const today = new Date(now);
  today.setHours(0, 0, 0, 0);
  const midnight = today.getTime();
  const sections: { key: string; label: string; threads: ThreadSummary[] }[] = [];
  for (const thread of threads) {
    const at = thread.updatedAt;
    let key: string;
    let label: string;
    const recent: RecentSection | null = !Number.isFinite(at)
      ? 'older'
      : at >= midnight
        ? 'today'
        : at >= midnight - DAY_MS
          ? 'yesterday'
          : at >= midnight - 7 * DAY_MS
            ? 'week'
            : at >= midnight - 30 * DAY_MS
              ? 'month'
              : null;
    if (recent !== null) {
      key = recent;
      label = labels[recent] ?? RECENT_LABELS[recent];
    } else {
      const date = new Date(at);
      key = `${date.getFullYear()}-${date.getMonth()}`;
      label = monthOf(date);
    }
    const last = sections.at(-1);
    if (last?.key === key) last.threads.push(thread);
    else sections.push({ key, label, threads: [thread] });
  }
  return sections;
}

/** What `ThreadList` draws once its code has loaded (see there). */
export function ThreadListBody({
  store,
  label = 'Conversations',
  newLabel = 'New conversation',
  groupByDate = true,
  sectionLabels,
  onOpen,
  className,
}: ThreadListProps): ReactElement {
  const threads = useThreadStore(store, (state) => state.threads);
  const activeId = useThreadStore(store, (state) => state.activeId);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const root = useRef<HTMLElement>(null);
  // Closing the confirm or the rename field unmounts what had focus: after that render, focus
  // goes here.
  const focusNext = useRef<((nav: HTMLElement) => HTMLElement | null | undefined) | null>(null);
  useLayoutEffect(() => {
    const find = focusNext.current;
    focusNext.current = null;
    if (find && root.current) find(root.current)?.focus();
  });
  const id = useId();
  const row = (thread: ThreadSummary): ReactElement => (
    <li key={thread.id} className={cx('ms-thread', thread.id === activeId && 'ms-thread--active')}>
      {renaming === thread.id ? (
        <RenameField
          thread={thread}
          onDone={(title, refocus) => {
            if (title !== null) store.getState().renameThread(thread.id, title);
            setRenaming(null);
            // Saved or cancelled, the field is gone: focus goes back to the row's Rename,
            // unless the user put it somewhere else (clicking away saves).
            if (refocus) {
              focusNext.current = (nav) =>
                [...nav.querySelectorAll<HTMLElement>('[data-rename]')].find(
                  (button) => button.dataset.rename === thread.id,
                );
            }
          }}
        />
      ) : deleting === thread.id ? (
        <DeleteConfirm
          thread={thread}
          onDone={(confirmed) => {
            setDeleting(null);
            // Deleted, the row is gone: the conversation shown instead; else the row's Delete.
            focusNext.current = confirmed
              ? (nav) => nav.querySelector<HTMLElement>('[aria-current="page"]')
              : (nav) =>
                  [...nav.querySelectorAll<HTMLElement>('[data-delete]')].find(
                    (button) => button.dataset.delete === thread.id,
                  );
            if (confirmed) store.getState().deleteThread(thread.id);
          }}
        />
      ) : (
        <>
          <button
            type="button"
            className="ms-thread__open"
            aria-current={thread.id === activeId ? 'page' : undefined}
            // A long title is cut to the row: the whole of it on hover.
            title={thread.title}
            aria-label={thread.answering ? `${thread.title}, answering` : undefined}
            onClick={() => {
              store.getState().switchThread(thread.id);
              onOpen?.(thread.id);
            }}
          >
            {/* An answer under way, shown or not (it goes on in a thread switched away from). */}
            {thread.answering ? <span className="ms-thread__answering" aria-hidden="true" /> : null}
            {thread.title}
          </button>
          {/* Icons, shown on hover and focus where there is hover: the title keeps the row. */}
          <span className="ms-thread__actions">
            <button
              type="button"
              className="ms-thread__action"
              aria-label={`Rename ${thread.title}`}
              title="Rename"
              data-rename={thread.id}
              onClick={() => setRenaming(thread.id)}
            >
              <Icon name="edit" />
            </button>
            <button
              type="button"
              className="ms-thread__action"
              aria-label={`Delete ${thread.title}`}
              title="Delete"
              data-delete={thread.id}
              onClick={() => setDeleting(thread.id)}
            >
              <Icon name="trash" />
            </button>
          </span>
        </>
      )}
    </li>
  );
  let lists: ReactNode;
  if (groupByDate) {
    // Read when the list renders (a thread's activity re-renders it): headings move on at
    // midnight with the next change, not on a timer.
    lists = threadSections(threads, Date.now(), sectionLabels).map((section) => (
      <div key={section.key} className="ms-threads__section">
        <p id={`${id}-${section.key}`} className="ms-threads__heading">
          {section.label}
        </p>
        <ul className="ms-threads__list" aria-labelledby={`${id}-${section.key}`}>
          {section.threads.map(row)}
        </ul>
      </div>
    ));
  } else {
    lists = <ul className="ms-threads__list">{threads.map(row)}</ul>;
  }
  return (
    <nav ref={root} className={cx('ms-threads', className)} aria-label={label}>
      <button
        type="button"
        className="ms-threads__new"
        onClick={() => {
          const id = store.getState().newThread();
          onOpen?.(id);
        }}
      >
        {newLabel}
      </button>
      {lists}
    </nav>
  );
}

/**
 * Deleting a conversation removes what was saved of it for good: the row asks first, with
 * Cancel focused (Enter on a stray Delete keeps the conversation), Escape for Cancel.
 */
function DeleteConfirm({
  thread,
  onDone,
}: {
  thread: ThreadSummary;
  onDone: (confirmed: boolean) => void;
}): ReactElement {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <fieldset
      className="ms-thread__confirm"
      aria-label={`Delete ${thread.title}?`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onDone(false);
        }
      }}
    >
      <span className="ms-thread__confirm-text">Delete “{thread.title}”?</span>
      <button
        type="button"
        className="ms-thread__action ms-thread__action--danger"
        onClick={() => onDone(true)}
      >
        Delete
      </button>
      <button
        ref={cancel}
        type="button"
        className="ms-thread__action"
        onClick={() => onDone(false)}
      >
        Cancel
      </button>
    </fieldset>
  );
}

function RenameField({
  thread,
  onDone,
}: {
  thread: ThreadSummary;
  /** `refocus`: the field had focus when it was done (Enter, Save, Escape), not when left. */
  onDone: (title: string | null, refocus: boolean) => void;
}): ReactElement {
  const [value, setValue] = useState(thread.title);
  const input = useRef<HTMLInputElement>(null);
  // Once: leaving the field after Enter or Escape (it unmounts) is not a second answer.
  const finished = useRef(false);
  const finish = (title: string | null, refocus: boolean) => {
    if (finished.current) return;
    finished.current = true;
    onDone(title, refocus);
  };
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    finish(value, true);
  };
  return (
    <form
      className="ms-thread__rename"
      onSubmit={submit}
      // Clicking away saves, as a title field does (Save is inside the form: not away).
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) finish(value, false);
      }}
    >
      <input
        ref={input}
        className="ms-thread__field"
        aria-label={`New name for ${thread.title}`}
        value={value}
        onChange={(event) => setValue(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            finish(null, true);
          }
        }}
      />
      <button type="submit" className="ms-thread__action">
        Save
      </button>
    </form>
  );
}
