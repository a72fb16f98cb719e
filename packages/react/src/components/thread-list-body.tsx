import { type FormEvent, type ReactElement, useEffect, useRef, useState } from 'react';
import { Icon } from '../chat/icons.js';
import { useThreadStore } from '../hooks/use-thread-store.js';
import type { ThreadSummary } from '../store/create-thread-store.js';
import { cx } from './cx.js';
import type { ThreadListProps } from './thread-list.js';

/** What `ThreadList` draws once its code has loaded (see there). */
export function ThreadListBody({
  store,
  label = 'Conversations',
  newLabel = 'New conversation',
  className,
}: ThreadListProps): ReactElement {
  const threads = useThreadStore(store, (state) => state.threads);
  const activeId = useThreadStore(store, (state) => state.activeId);
  const [renaming, setRenaming] = useState<string | null>(null);
  return (
    <nav className={cx('ms-threads', className)} aria-label={label}>
      <button
        type="button"
        className="ms-threads__new"
        onClick={() => store.getState().newThread()}
      >
        {newLabel}
      </button>
      <ul className="ms-threads__list">
        {threads.map((thread) => (
          <li
            key={thread.id}
            className={cx('ms-thread', thread.id === activeId && 'ms-thread--active')}
          >
            {renaming === thread.id ? (
              <RenameField
                thread={thread}
                onDone={(title) => {
                  if (title !== null) store.getState().renameThread(thread.id, title);
                  setRenaming(null);
                }}
              />
            ) : (
              <>
                <button
                  type="button"
                  className="ms-thread__open"
                  aria-current={thread.id === activeId ? 'page' : undefined}
                  onClick={() => store.getState().switchThread(thread.id)}
                >
                  {thread.title}
                </button>
                {/* Icons, shown on hover and focus where there is hover: the title keeps the row. */}
                <span className="ms-thread__actions">
                  <button
                    type="button"
                    className="ms-thread__action"
                    aria-label={`Rename ${thread.title}`}
                    title="Rename"
                    onClick={() => setRenaming(thread.id)}
                  >
                    <Icon name="edit" />
                  </button>
                  <button
                    type="button"
                    className="ms-thread__action"
                    aria-label={`Delete ${thread.title}`}
                    title="Delete"
                    onClick={() => store.getState().deleteThread(thread.id)}
                  >
                    <Icon name="trash" />
                  </button>
                </span>
              </>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

function RenameField({
  thread,
  onDone,
}: {
  thread: ThreadSummary;
  onDone: (title: string | null) => void;
}): ReactElement {
  const [value, setValue] = useState(thread.title);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onDone(value);
  };
  return (
    <form className="ms-thread__rename" onSubmit={submit}>
      <input
        ref={input}
        className="ms-thread__field"
        aria-label={`New name for ${thread.title}`}
        value={value}
        onChange={(event) => setValue(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onDone(null);
          }
        }}
      />
      <button type="submit" className="ms-thread__action">
        Save
      </button>
    </form>
  );
}
