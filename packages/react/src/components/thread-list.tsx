import type { ReactElement } from 'react';
import type { ThreadStore } from '../store/create-thread-store.js';
import { cx } from './cx.js';
import { lazyParts } from './lazy-part.js';

export interface ThreadListProps {
  /** The thread store to list and act on. */
  store: ThreadStore;
  /** The navigation landmark's name. Default "Conversations". */
  label?: string;
  /** The new-thread button's text. Default "New conversation". */
  newLabel?: string;
  /**
   * Sort the list under date headings by last activity: Today, Yesterday, Previous 7 days,
   * Previous 30 days, then one per month ("October 2026", in the reader's locale). Default
   * true; `false` is one flat list.
   */
  groupByDate?: boolean;
  /** The relative headings' text, for another language. The month headings use `Intl`. */
  sectionLabels?: Partial<Readonly<Record<RecentSection, string>>>;
  /**
   * Called with the thread's id after the list showed one (a row pressed) or started one (New
   * conversation, which shows an empty thread there is rather than making another): a phone's
   * drawer closes on it.
   */
  onOpen?: (threadId: string) => void;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * The date headings measured back from today; older threads go under their month, and
 * `older` takes a thread whose time is unknown.
 */
export type RecentSection = 'today' | 'yesterday' | 'week' | 'month' | 'older';

/**
 * The threads, most recently active first: a button to start a new one, and per thread a
 * button that shows it (`aria-current` on the shown one), Rename (an inline field: Enter
 * saves, Escape cancels) and Delete (which asks first in the row, Cancel focused, since
 * what was saved of the thread goes for good). Every control is a native button or field.
 *
 * Its code loads on demand (most pages show one conversation); until it arrives, the landmark
 * and its new-thread button are drawn, disabled, where the list will be.
 */
export const ThreadList: (props: ThreadListProps) => ReactElement = lazyParts(
  () => import('./thread-list-body.js'),
).part(
  'ThreadList',
  (parts) => parts.ThreadListBody,
  ({ label = 'Conversations', newLabel = 'New conversation', className }) => (
    <nav className={cx('ms-threads', className)} aria-label={label} aria-busy="true">
      <button type="button" className="ms-threads__new" disabled>
        {newLabel}
      </button>
    </nav>
  ),
);
