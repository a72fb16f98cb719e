import type { StreamMessageOptions } from '@message-stream/core';
import {
  createContext,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { BlockRenderers } from '../components/content-block-view.js';
import { EmptyState, type Suggestion } from '../components/empty-state.js';
import { preloadPartsWhenIdle } from '../components/lazy-part.js';
import type { Feedback } from '../components/message-actions.js';
import { StreamErrorNotice } from '../components/stream-error-notice.js';
import { useAnnouncement } from '../hooks/use-announcement.js';
import { useAttachments } from '../hooks/use-attachments.js';
import { useFollowScroll } from '../hooks/use-follow-scroll.js';
import { useMessageStream } from '../hooks/use-message-stream.js';
import { isToolResultsTurn } from '../store/conversation.js';
import type { ChatStore } from '../store/create-chat-store.js';
import type { AssistantTurn, ChatStoreOptions, EditOptions, Turn } from '../store/types.js';
import type { AssistantMessageActions, AssistantMessageProps } from './assistant-message.js';
import { Composer } from './composer.js';
import { mountAnswerFacesWhenIdle } from './font-warm-up.js';
import { Icon } from './icons.js';
import { AssistantMessage, messageParts, UserMessage } from './message-parts.js';
import { createStreamRecorder, type StreamRecorder } from './stream-recorder.js';
import {
  EAGER_GROUPS,
  groupTurns,
  TURNS_PER_GROUP,
  TurnGroup,
  WINDOW_FROM_GROUPS,
} from './turn-group.js';
import type { UserMessageProps } from './user-message.js';

/**
 * How requests are sent: core's `streamMessage` options (endpoint, headers, fetch, retry,
 * idle timeout, which transport). ChatStream passes them to its store untouched.
 */
export type ChatTransport = Omit<StreamMessageOptions, 'signal' | 'onEvent' | 'onState'>;

type TransportKey = keyof ChatTransport;

/** The flat transport props of earlier versions, still accepted. */
interface DeprecatedTransportProps {
  /** @deprecated Use `transport={{ endpoint }}`. */
  readonly endpoint?: ChatTransport['endpoint'];
  /** @deprecated Use `transport={{ headers }}`. */
  readonly headers?: ChatTransport['headers'];
  /** @deprecated Use `transport={{ fetch }}`. */
  readonly fetch?: ChatTransport['fetch'];
  /** @deprecated Use `transport={{ retry }}`. */
  readonly retry?: ChatTransport['retry'];
  /** @deprecated Use `transport={{ idleTimeoutMs }}`. */
  readonly idleTimeoutMs?: ChatTransport['idleTimeoutMs'];
  /** @deprecated Use `transport={{ onRetry }}`. */
  readonly onRetry?: ChatTransport['onRetry'];
  /** @deprecated Use `transport={{ random }}`. */
  readonly random?: ChatTransport['random'];
}

export interface ChatStreamProps
  extends Partial<Omit<ChatStoreOptions, TransportKey>>,
    DeprecatedTransportProps {
  /**
   * A store to share the conversation with other components. Without one, ChatStream
   * creates its own from the other props (read once, on first render, except callbacks).
   */
  readonly store?: ChatStore;
  /**
   * How requests are sent, for the store ChatStream creates: `{ endpoint, headers, fetch,
   * retry, idleTimeoutMs, transport }`.
   */
  readonly transport?: ChatTransport;
  /** Custom renderers per block type and per tool name. */
  readonly renderers?: BlockRenderers;
  /** Render answer text as GitHub-flavoured markdown (default) or as plain text. */
  readonly textMode?: 'markdown' | 'plain';
  /** Typeset `$…$` and `$$…$$` in answers with KaTeX (loaded on first use). Default off. */
  readonly math?: boolean;
  /** `light`, `dark`, or follow the system (default). */
  readonly theme?: 'light' | 'dark' | 'system';
  /** The accessible name of the conversation log. */
  readonly label?: string;
  /** The message field's placeholder text. */
  readonly placeholder?: string;
  /** The empty conversation's welcome line. */
  readonly welcome?: ReactNode;
  /** A line under the welcome. */
  readonly welcomeDescription?: ReactNode;
  /** Prompts offered as chips in an empty conversation; a click sends one. */
  readonly suggestions?: readonly Suggestion[];
  /** Adds thumbs up / down under each answer; `null` when a thumb given is taken back. */
  readonly onFeedback?: (turn: AssistantTurn, value: Feedback | null) => void;
  /**
   * Record each answer's raw stream, offered as an `.sse` file in its details. `true`
   * records through the store ChatStream creates; with a shared `store`, pass the recorder
   * whose `fetch` that store uses. Off by default: it keeps the bytes in memory.
   */
  readonly record?: boolean | StreamRecorder;
  /**
   * Let the composer take images, PDFs and text files (a button, paste, drag-and-drop), sent
   * as content blocks with the message. Default true.
   */
  readonly attachments?: boolean;
  /** Controls in the composer's bar, and above its field. */
  readonly composerAccessory?: ReactNode;
  /** Shown above the message field, inside the composer (a notice, a context chip). */
  readonly composerHeader?: ReactNode;
  /** Extra class names on the root element, for your own styles. */
  readonly className?: string;
}

const noop = () => {};

/**
 * What changes at every send and every finish: whether a request is under way, and which
 * answer is the newest. The log's messages read it here, not through `renderTurn`, so a send
 * re-renders the messages on the page and not every group of the log (250 of them in a
 * thread of 1,000 answers, each comparing its turns).
 */
interface LogState {
  readonly busy: boolean;
  readonly lastAnswerIndex: number;
}
const LogStateContext = createContext<LogState>({ busy: false, lastAnswerIndex: -1 });

function UserMessageInLog(props: Omit<UserMessageProps, 'busy'>): ReactElement {
  const { busy } = useContext(LogStateContext);
  return <UserMessage {...props} busy={busy} />;
}

function AssistantMessageInLog({
  index,
  ...props
}: Omit<AssistantMessageProps, 'busy' | 'last'> & { readonly index: number }): ReactElement {
  const { busy, lastAnswerIndex } = useContext(LogStateContext);
  return <AssistantMessage {...props} busy={busy} last={index === lastAnswerIndex} />;
}

const BUSY = new Set(['submitted', 'streaming', 'running-tools']);

/**
 * The store options from the props: the grouped transport over the deprecated flat props
 * (which are store options of the same names, so they reach the store as they are).
 */
function storeOptions(
  props: Partial<Omit<ChatStoreOptions, TransportKey>> & DeprecatedTransportProps,
  transport: ChatStreamProps['transport'],
  recorder: StreamRecorder | null,
  fetchRef: { current: typeof fetch | undefined },
): ChatStoreOptions {
  const options: Partial<ChatStoreOptions> = {
    ...props,
    ...transport,
  };
  fetchRef.current = options.fetch;
  return {
    ...options,
    ...(recorder ? { fetch: recorder.fetch } : {}),
    request: options.request ?? { model: 'claude-opus-5', max_tokens: 4096 },
  };
}

/**
 * The drop-in chat: a conversation log that follows the answer (and lets go when the
 * reader scrolls up), an empty state with suggestions, a composer with Stop (and Escape),
 * per-answer actions, stop reasons, errors with Resume or Retry on the failed answer, usage
 * and stream details. Everything it renders is exported on its own for custom layouts.
 */
export function ChatStream({
  store: sharedStore,
  transport,
  renderers,
  textMode,
  math = false,
  theme = 'system',
  label = 'Conversation',
  placeholder,
  welcome,
  welcomeDescription,
  suggestions,
  onFeedback,
  record = false,
  composerAccessory,
  composerHeader,
  attachments: takesFiles = true,
  className,
  ...options
}: ChatStreamProps): ReactElement {
  const fetchRef = useRef<typeof fetch | undefined>(undefined);
  const [ownRecorder] = useState(() =>
    record === true
      ? createStreamRecorder({
          fetch: (input, init) => (fetchRef.current ?? globalThis.fetch)(input, init),
        })
      : null,
  );
  const recorder = typeof record === 'object' ? record : ownRecorder;
  const source =
    sharedStore ?? storeOptions(options, transport, sharedStore ? null : ownRecorder, fetchRef);
  const chat = useMessageStream(source);
  const { turns, status, error, store } = chat;
  const busy = BUSY.has(status);
  const root = useRef<HTMLElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const follow = useFollowScroll(log, turns);
  const announcement = useAnnouncement(status, store);
  const [feedback, setFeedback] = useState<Readonly<Record<string, Feedback | null>>>({});
  const [startedEmpty] = useState(() => turns.length === 0);

  // The messages' code is asked for as soon as the shell has painted: every conversation
  // shows some, and a restored one at once. Then the first answer's first frame should not
  // wait for the code of a part it shows, compile the markdown parser, nor look up the fonts
  // it uses. In that order: idle callbacks run first come, first served; asking for the parts'
  // chunks costs nothing, and a chunk that arrived mid-answer made a commit of its own in a
  // frame that had one.
  useEffect(() => {
    // A chunk that fails to load is asked for again by the parts that need it.
    messageParts.preload().then((parts) => {
      if (textMode !== 'plain') parts.warmUpMarkdownWhenIdle();
    }, noop);
    preloadPartsWhenIdle();
    return mountAnswerFacesWhenIdle(() => root.current);
  }, [textMode]);

  const focusComposer = useCallback(() => field.current?.focus(), []);
  // A decided call's Approve and Deny go away: focus moves on to the next call waiting for a
  // decision (parallel calls), else to the composer.
  const focusAfterDecision = useCallback(() => {
    const waiting = [...(root.current?.querySelectorAll('.ms-tool__approval') ?? [])].find(
      (approval) => !approval.contains(document.activeElement),
    );
    const next = waiting?.querySelector<HTMLElement>('button:not(:disabled)');
    if (next) next.focus();
    else focusComposer();
  }, [focusComposer]);
  const { jumpToLatest } = follow;
  // The button goes away once the log follows again: focus moves to the log it scrolled (not
  // the page, and not the composer, whose focus would open a phone's keyboard over the answer).
  const jumpAndFocus = useCallback(() => {
    log.current?.focus({ preventScroll: true });
    jumpToLatest();
  }, [jumpToLatest]);
  // What is typed and attached but not sent stays with the conversation (its store) when
  // another thread is shown and this one again.
  const files = useAttachments(store);
  const { attachments: pending, clear: clearFiles } = files;
  const send = useCallback(
    // A suggestion goes alone (`files` empty): the files staged, like the words typed, are
    // for the user's own message, and stay in the composer.
    (text: string, files = pending) => {
      // Sending always brings the new message into view, even when scrolled up.
      jumpToLatest();
      const sent = store.getState().send(text, { attachments: files });
      if (files === pending) clearFiles();
      // A refused file (its type, its size) is reported by the store; nothing was sent.
      sent.catch(() => {});
    },
    [jumpToLatest, store, pending, clearFiles],
  );
  const feedbackRef = useRef(onFeedback);
  feedbackRef.current = onFeedback;
  const hasFeedback = onFeedback !== undefined;

  // Stable across renders, so finished answers do not re-render while the next one streams.
  // Focus goes to the composer first: the button pressed is about to disappear.
  const actions = useMemo((): AssistantMessageActions => {
    const state = store.getState;
    return {
      resume: () => {
        focusComposer();
        void state().resume();
      },
      retry: () => {
        focusComposer();
        void state().retry();
      },
      continueAnswer: (turnId) => {
        focusComposer();
        void state().continueAnswer(turnId);
      },
      regenerate: (turnId) => {
        focusComposer();
        jumpToLatest();
        void state().regenerate(turnId);
      },
      approveTool: (toolUseId) => {
        focusAfterDecision();
        void state().approveToolCall(toolUseId);
      },
      denyTool: (toolUseId, reason) => {
        focusAfterDecision();
        void state().denyToolCall(toolUseId, reason);
      },
      feedback: hasFeedback
        ? (turnId, value) => {
            setFeedback((current) => ({ ...current, [turnId]: value }));
            const turn = state().turns.find(
              (t): t is AssistantTurn => t.id === turnId && t.role === 'assistant',
            );
            if (turn) feedbackRef.current?.(turn, value);
          }
        : undefined,
    };
  }, [store, focusComposer, focusAfterDecision, jumpToLatest, hasFeedback]);

  const edit = useCallback(
    (...edited: [turnId: string, content: string, options?: EditOptions]) => {
      // The edited message is replaced by its new version: focus must not fall to the page.
      focusComposer();
      jumpToLatest();
      void store.getState().edit(...edited);
    },
    [store, focusComposer, jumpToLatest],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || !busy || event.defaultPrevented) return;
    // An open popover or dialog (a file opened) takes its own Escape: stopping the answer
    // there would also cancel the dialog's close.
    if ((event.target as Element).closest?.('[popover], dialog')) return;
    event.preventDefault();
    chat.stop();
  };

  const lastAnswerIndex = turns.findLastIndex((turn) => turn.role === 'assistant');
  // Against the groups last committed: unchanged groups keep their arrays (and bail out by
  // identity), whatever renders React started and dropped meanwhile.
  const committedGroups = useRef<readonly (readonly Turn[])[]>([]);
  const groups = useMemo(() => groupTurns(turns, committedGroups.current), [turns]);
  useLayoutEffect(() => {
    committedGroups.current = groups;
  }, [groups]);
  // Stable while an answer streams and across a send (only the turns change then; whether a
  // request is under way and which answer is the newest come from `LogStateContext`), so the
  // groups that do not hold a changed turn bail out: a frame renders one group, not the log.
  const renderTurn = useCallback(
    (turn: Turn, index: number): ReactNode =>
      turn.role === 'user' ? (
        isToolResultsTurn(turn) ? null : (
          <UserMessageInLog key={turn.id} turn={turn} onEdit={edit} branchStore={store} />
        )
      ) : (
        <AssistantMessageInLog
          key={turn.id}
          index={index}
          turn={turn}
          renderers={renderers}
          textMode={textMode}
          math={math}
          actions={actions}
          feedback={feedback[turn.id] ?? null}
          recorder={recorder ?? undefined}
          branchStore={store}
        />
      ),
    [edit, store, renderers, textMode, math, actions, feedback, recorder],
  );
  const logState = useMemo(() => ({ busy, lastAnswerIndex }), [busy, lastAnswerIndex]);
  const lastAnswer = lastAnswerIndex >= 0 ? (turns[lastAnswerIndex] as AssistantTurn) : null;
  // A failure the store reports beyond the answer's own (the tool round-trip limit).
  const strayError = error && lastAnswer?.stream.error !== error ? error : null;

  return (
    <section
      ref={root}
      className={['ms-chat', className].filter(Boolean).join(' ')}
      data-theme={theme === 'system' ? undefined : theme}
      aria-label={label}
      onKeyDown={onKeyDown}
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
        <div className="ms-chat__thread">
          <LogStateContext.Provider value={logState}>
            {turns.length === 0 ? (
              <EmptyState
                title={welcome}
                description={welcomeDescription}
                suggestions={suggestions}
                // The chip is gone once pressed: focus goes to the composer, not the page.
                onSuggestion={(text) => {
                  focusComposer();
                  send(text, []);
                }}
              />
            ) : null}
            {groups.map((group, g) => (
              // Groups are by index (a turn never moves), so the index is a stable key.
              <TurnGroup
                // biome-ignore lint/suspicious/noArrayIndexKey: see above.
                key={g}
                turns={group}
                start={g * TURNS_PER_GROUP}
                live={g === groups.length - 1}
                eager={g >= groups.length - EAGER_GROUPS}
                windowed={groups.length > WINDOW_FROM_GROUPS}
                renderTurn={renderTurn}
              />
            ))}
            {strayError ? <StreamErrorNotice error={strayError} /> : null}
          </LogStateContext.Provider>
        </div>
      </div>
      <div className="ms-chat__rail">
        {follow.following ? null : (
          <button type="button" className="ms-chat__jump" onClick={jumpAndFocus}>
            <Icon name="arrow-down" />
            Jump to latest
          </button>
        )}
      </div>
      <div className="ms-visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>
      <div className="ms-chat__composer">
        <Composer
          busy={busy}
          onSend={send}
          onStop={chat.stop}
          placeholder={placeholder}
          inputRef={field}
          autoFocus={startedEmpty}
          accessory={composerAccessory}
          header={composerHeader}
          attachments={takesFiles ? files : undefined}
          draftKey={store}
          saveDraftAs={store.persistName}
        />
      </div>
    </section>
  );
}
