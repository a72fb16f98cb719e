import { toMessage } from '@message-stream/core';
import { type ReactElement, useRef } from 'react';
import type { BlockRenderers } from '../components/content-block-view.js';
import { ResumeControl } from '../components/resume-control.js';
import { StreamErrorNotice } from '../components/stream-error-notice.js';
import { UsageBadge } from '../components/usage-badge.js';
import { useAnnouncement } from '../hooks/use-announcement.js';
import { useFollowScroll } from '../hooks/use-follow-scroll.js';
import { useMessageStream } from '../hooks/use-message-stream.js';
import type { ChatStore } from '../store/create-chat-store.js';
import type { ChatStoreOptions } from '../store/types.js';
import { Composer } from './composer.js';
import { groupTurns, TurnGroup } from './turn-group.js';

export interface ChatStreamProps extends Partial<ChatStoreOptions> {
  /**
   * A store to share the conversation with other components. Without one, ChatStream
   * creates its own from the other props (read once, on first render, except callbacks).
   */
  readonly store?: ChatStore;
  /** Custom renderers per block type and per tool name. */
  readonly renderers?: BlockRenderers;
  /** Render answer text as GitHub-flavoured markdown (default) or as plain text. */
  readonly textMode?: 'markdown' | 'plain';
  /** `light`, `dark`, or follow the system (default). */
  readonly theme?: 'light' | 'dark' | 'system';
  /** The accessible name of the conversation log. */
  readonly label?: string;
  readonly placeholder?: string;
  readonly className?: string;
}

const BUSY = new Set(['submitted', 'streaming', 'running-tools']);

/**
 * The drop-in chat: a conversation log that follows the answer (and lets go when the
 * reader scrolls up), a composer with Stop, resume and retry controls, error notices and
 * usage. Everything it renders is exported on its own for custom layouts.
 */
export function ChatStream({
  store: sharedStore,
  renderers,
  textMode,
  theme = 'system',
  label = 'Conversation',
  placeholder,
  className,
  ...options
}: ChatStreamProps): ReactElement {
  const source = sharedStore ?? {
    ...options,
    request: options.request ?? { model: 'claude-opus-5', max_tokens: 4096 },
  };
  const chat = useMessageStream(source);
  const { turns, answer, status, error } = chat;
  const busy = BUSY.has(status);
  const log = useRef<HTMLDivElement>(null);
  const follow = useFollowScroll(log, turns);
  const announcement = useAnnouncement(status);
  const usage = answer && !BUSY.has(status) ? toMessage(answer.stream)?.usage : undefined;

  return (
    <section
      className={['ms-chat', className].filter(Boolean).join(' ')}
      data-theme={theme === 'system' ? undefined : theme}
      aria-label={label}
    >
      <div
        ref={log}
        className="ms-chat__log"
        role="log"
        // Silent while it streams; the status region below speaks once at the end.
        aria-live="off"
        aria-busy={busy}
        aria-label={label}
        // The log scrolls: it must be reachable by keyboard to scroll it.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs focus to scroll by keyboard.
        tabIndex={0}
        onScroll={follow.onScroll}
      >
        {groupTurns(turns).map((group, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: groups are by index: a turn never moves.
          <TurnGroup key={i} turns={group} renderers={renderers} textMode={textMode} />
        ))}
      </div>
      {follow.following ? null : (
        <button type="button" className="ms-button ms-chat__jump" onClick={follow.jumpToLatest}>
          Jump to latest
        </button>
      )}
      <div className="ms-visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>
      <div className="ms-chat__footer">
        <StreamErrorNotice error={error} status={answer?.stream.status} />
        {answer ? (
          <ResumeControl
            status={answer.stream.status}
            error={answer.stream.error}
            onResume={() => void chat.resume()}
            onRetry={() => void chat.retry()}
            busy={busy}
          />
        ) : null}
        {usage ? <UsageBadge usage={usage} /> : null}
      </div>
      <Composer
        busy={busy}
        onSend={(text) => void chat.send(text)}
        onStop={chat.stop}
        placeholder={placeholder}
      />
    </section>
  );
}
