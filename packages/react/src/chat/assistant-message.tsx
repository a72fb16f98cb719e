import { isFinalStatus, type Usage } from '@message-stream/core';
import { memo, type ReactElement, useCallback, useEffect, useLayoutEffect, useState } from 'react';
import { partialUsage, tokenCount } from '../components/answer-info.js';
import { AnswerScope } from '../components/answer-scope.js';
import { BranchPicker } from '../components/branch-picker.js';
import { AnswerSources } from '../components/citations.js';
import { type BlockRenderers, ContentBlockView } from '../components/content-block-view.js';
import { type Feedback, MessageActions } from '../components/message-actions.js';
import { recoveryFor } from '../components/recovery.js';
import { ResumeControl } from '../components/resume-control.js';
import { StopReasonNotice } from '../components/stop-reason-notice.js';
import { StreamDetails, type StreamDownload } from '../components/stream-details.js';
import { StreamErrorNotice } from '../components/stream-error-notice.js';
import { UsageBadge } from '../components/usage-badge.js';
import { publishWithStore } from '../highlight/publish.js';
import {
  createDisplayProgress,
  type DisplayProgress,
  DisplayProgressContext,
  useDisplayProgressSteps,
} from '../markdown/display-progress.js';
import { isSettledResult } from '../store/conversation.js';
import type { ChatStore } from '../store/create-chat-store.js';
import { PAGE_LEFT_MID_ANSWER } from '../store/page-left.js';
import type { AssistantTurn } from '../store/types.js';
import { answerGoesOn, answerParts } from './answer-round.js';
import type { StreamRecorder } from './stream-recorder.js';
import { answerMarkdown, blockText } from './turn-text.js';

/**
 * What an answer's controls do. One object for the whole log, kept stable by the shell, so a
 * finished answer does not re-render while the next one streams.
 */
export interface AssistantMessageActions {
  /** Continue the interrupted last answer in place. */
  readonly resume?: () => void;
  /** Ask again for the last answer, from scratch. */
  readonly retry?: () => void;
  /** Continue an answer cut off by `max_tokens`. */
  readonly continueAnswer?: (turnId: string) => void;
  /** Another answer in this one's place. */
  readonly regenerate?: (turnId: string) => void;
  readonly feedback?: (turnId: string, value: Feedback | null) => void;
  /** Run a tool call that waits for the user's approval. */
  readonly approveTool?: (toolUseId: string) => void;
  /** Answer a tool call that waits for approval as denied, with the user's reason. */
  readonly denyTool?: (toolUseId: string, reason?: string) => void;
}

export interface AssistantMessageProps {
  /** The turn to show, from the store. */
  readonly turn: AssistantTurn;
  /** Custom views per block type and per tool name, tried before the built-in ones. */
  readonly renderers?: BlockRenderers;
  /** Answer text as GitHub-flavoured markdown (default) or as plain text. */
  readonly textMode?: 'markdown' | 'plain';
  /** Typeset math in the answer's text (KaTeX, loaded on first use). */
  readonly math?: boolean;
  /**
   * The newest answer: it alone offers Resume and Retry, and its error is announced. Earlier
   * answers keep their notes and marks as history.
   */
  readonly last?: boolean;
  /** A request is under way in the conversation: actions that would start one are disabled. */
  readonly busy?: boolean;
  /** Without it the message shows its content, notes and error, and no controls. */
  readonly actions?: AssistantMessageActions;
  /** The thumbs given to this answer, if any: shown pressed. */
  readonly feedback?: Feedback | null;
  /** When the answer's first content showed (epoch ms), for the details' time to first token. */
  readonly firstTokenAt?: number;
  /** Offer this answer's recorded raw stream in its details. */
  readonly recorder?: StreamRecorder;
  /** Show the token usage line under the answer. Default: on the last answer only. */
  readonly showUsage?: boolean;
  /** The store, for the version picker (‹ 2 / 3 ›) of a regenerated answer. */
  readonly branchStore?: ChatStore;
}

/**
 * Failures whose own sentence ends "then resume", said again for when nothing arrived: the
 * control beside the notice then offers Retry, not Resume.
 */
const BEFORE_ANYTHING: Readonly<Record<string, string>> = {
  network_error:
    'The network connection failed before the answer started. Check your connection, then try again.',
  stream_interrupted: 'The answer was cut off before any of it arrived. Try again.',
  idle_timeout: 'No answer arrived for too long. Try again.',
};

/**
 * The notice's words where the error's own would not fit what is offered beside it: a rate
 * limit with a wait (counted down beside Retry when it retries by itself, so the notice does
 * not repeat a number that would go stale; else the wait the service asked for, as a fact),
 * and a failure before anything arrived (Retry, not Resume).
 */
function noticeDescription(
  stream: AssistantTurn['stream'],
  retriesItself: boolean,
): string | undefined {
  const error = stream.error;
  if (error?.retryAfterMs !== undefined && error.retryable) {
    return retriesItself
      ? 'Too many requests: the service asked to wait before trying again.'
      : `Too many requests: the service asked to wait ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s before trying again.`;
  }
  if (!error || recoveryFor(stream) !== 'retry') return undefined;
  // Read back from storage it is a copy: known by its words.
  if (error.message === PAGE_LEFT_MID_ANSWER.message) {
    return 'The page was closed or reloaded before the answer started. Try again.';
  }
  return Object.hasOwn(BEFORE_ANYTHING, error.type) ? BEFORE_ANYTHING[error.type] : undefined;
}

/**
 * Answers asked again, by the user or by themselves (by id: a retry in place keeps it). A rate
 * limit retries an answer by itself once: the retry's own rate limit is a new error, which
 * would otherwise be waited out and retried again, and again, with nobody asking.
 */
const retriedAnswers = new Set<string>();

/**
 * Whether the answer's rate limit may be retried by itself: it was not retried yet, and it is
 * the conversation's last request, no answer begun since it ended on any branch. An older
 * version shown again, or an answer under an earlier version of the question, is history: a
 * retry by itself there would be a request (and a version) nobody asked for.
 */
function mayRetryByItself(store: ChatStore | undefined, turn: AssistantTurn): boolean {
  if (retriedAnswers.has(turn.id)) return false;
  if (!store) return true;
  const ended = turn.finishedAt;
  return (
    ended !== null &&
    !Object.values(store.getState().tree.nodes).some(
      (node) => node.role === 'assistant' && node.id !== turn.id && node.startedAt >= ended,
    )
  );
}

/** What the usage of an answer's parts leaves out: `UsageBadge`'s `partial`. */
function partialOf(parts: readonly AssistantTurn[]): boolean | 'earlier-attempt' {
  const reasons = parts.map((part) => partialUsage(part.stream));
  if (reasons.includes('unfinished')) return true;
  return reasons.includes('earlier-attempt') ? 'earlier-attempt' : false;
}

/** What the parts of one answer were billed together: each request's tokens, added up. */
function usageOf(parts: readonly AssistantTurn[]): Usage {
  const total: Record<string, number> = {};
  for (const part of parts) {
    for (const [name, value] of Object.entries(part.stream.message?.usage ?? {})) {
      const count = tokenCount(value);
      if (count !== undefined) total[name] = (total[name] ?? 0) + count;
    }
  }
  return total as unknown as Usage;
}

function downloadsOf(turn: AssistantTurn, recorder: StreamRecorder | undefined): StreamDownload[] {
  if (!recorder) return [];
  const ids = turn.stream.attempts?.map((a) => a.messageId) ?? [turn.stream.message?.id];
  return ids.flatMap((messageId, i) => {
    const recorded = messageId ? recorder.get(messageId) : undefined;
    if (!recorded) return [];
    const suffix = ids.length > 1 ? `-request-${i + 1}` : '';
    return [{ name: `${messageId}${suffix}.sse`, text: recorded.text }];
  });
}

/**
 * One answer. It re-renders when its turn changes, but each block is memoized on its own
 * state object, so a delta to one block re-renders only that block. Under the content: why it
 * ended (length limit with Continue, refusal, a Stopped / Interrupted mark), its error said
 * once, Resume or Retry, and the action row with usage and stream details.
 */
export const AssistantMessage = memo(function AssistantMessage(
  props: AssistantMessageProps,
): ReactElement {
  const { turn, renderers, textMode, math = false, last = true, actions, branchStore } = props;
  const content = turn.stream.message?.content ?? [];
  const answerStarted = content.some((block) => blockText(block) !== '');
  const [progress] = useState(createDisplayProgress);
  // `data-status` is the answer's end's to say (it alone knows when the text is all shown);
  // the article takes it as it mounts, after that part's first layout effect ran.
  const [statusTarget] = useState<StatusTarget>(() => ({ article: null, status: 'idle' }));
  const attachArticle = useCallback(
    (element: HTMLElement | null) => {
      statusTarget.article = element;
      element?.setAttribute('data-status', statusTarget.status);
    },
    [statusTarget],
  );
  // Code colours computed off the main thread join the store's commit instead of adding one.
  useEffect(() => (branchStore ? publishWithStore(branchStore) : undefined), [branchStore]);
  // Its answer goes on in a later turn after the tool results: that part carries the actions.
  // (`last` turns false as the next part starts, so this is read again then.)
  const goesOn =
    !last &&
    branchStore !== undefined &&
    isFinalStatus(turn.stream.status) &&
    answerGoesOn(branchStore.getState().tree, turn);
  return (
    <article
      ref={attachArticle}
      className="ms-message ms-message--assistant"
      aria-label="Assistant"
      data-turn-id={turn.id}
      data-last={last || undefined}
      data-goes-on={goesOn || undefined}
      tabIndex={-1}
    >
      <DisplayProgressContext.Provider value={progress}>
        <AnswerScope blocks={content}>
          {content.map((block) => {
            const id = (block.block as { id?: unknown }).id;
            const result = typeof id === 'string' ? turn.toolResults[id] : undefined;
            return (
              <ContentBlockView
                key={block.index}
                block={block}
                renderers={renderers}
                answerStarted={answerStarted}
                textMode={textMode}
                toolResult={
                  result && result.status !== 'running' && result.status !== 'awaiting-approval'
                    ? {
                        content: result.content,
                        isError: result.isError === true,
                        declined: result.declined,
                        reason: result.reason,
                        endedBy: result.endedBy,
                      }
                    : undefined
                }
                toolStatus={
                  result?.status === 'running' || result?.status === 'awaiting-approval'
                    ? result.status
                    : undefined
                }
                math={math}
                onApproveTool={actions?.approveTool}
                onDenyTool={actions?.denyTool}
              />
            );
          })}
          <AnswerSources />
        </AnswerScope>
      </DisplayProgressContext.Provider>
      <AnswerEnd {...props} progress={progress} statusTarget={statusTarget} goesOn={goesOn} />
    </article>
  );
});

/** Where the answer's end writes the status it shows: the article, once it is attached. */
interface StatusTarget {
  article: HTMLElement | null;
  status: string;
}

/**
 * Everything under an answer's content, and its `data-status`. Rendered after the content in
 * the same pass, it reads whether the text views are all caught up (`display-progress.ts`):
 * until they are, an ended answer shows as streaming, without its end, so nothing says it is
 * finished while its last blocks are still being put on the page.
 */
function AnswerEnd({
  turn,
  last = true,
  busy = false,
  actions,
  feedback,
  firstTokenAt,
  recorder,
  showUsage = last,
  branchStore,
  progress,
  statusTarget,
  goesOn,
}: AssistantMessageProps & {
  progress: DisplayProgress;
  statusTarget: StatusTarget;
  goesOn: boolean;
}): ReactElement {
  useDisplayProgressSteps(progress);
  const { stream } = turn;
  const content = stream.message?.content ?? [];
  const ended = isFinalStatus(stream.status);
  const final = ended && !progress.behind();
  // A rate limit's wait counted down, then retried by itself (see `mayRetryByItself`).
  const retriesItself =
    last &&
    final &&
    stream.error?.retryAfterMs !== undefined &&
    mayRetryByItself(branchStore, turn);
  // Ended but its text not all shown yet: it still shows as streaming.
  const status = ended && !final ? 'streaming' : stream.status;
  // Set here, not by the article: only this part knows, and only after the content rendered.
  useLayoutEffect(() => {
    statusTarget.status = status;
    statusTarget.article?.setAttribute('data-status', status);
  }, [statusTarget, status]);
  // A tool still waiting for approval or running: the answer is not over, so it offers no
  // Copy, Regenerate or feedback yet (they come with the tool's result).
  const toolPending = Object.values(turn.toolResults).some((result) => !isSettledResult(result));
  const settled = final && !(last && busy) && !toolPending && !goesOn;
  const usage = stream.message?.usage;
  // The answer this turn ends, with the parts before its tool results: Copy takes all their
  // text, Regenerate and the versions act on its first turn (also while the part after the
  // tools streams: its picker is the first turn's). Only a settled answer offers Copy:
  // joining every text block on each frame of a streaming answer (and on each display step)
  // was work that grew with the answer.
  const parts = branchStore ? answerParts(branchStore.getState().tree, turn) : [turn];
  const first = (parts[0] as AssistantTurn).id;
  const markdown = settled ? parts.map(answerMarkdown).filter(Boolean).join('\n\n') : '';
  return (
    <>
      {content.length === 0 && stream.status === 'idle' ? (
        <p className="ms-message__pending">
          <span className="ms-typing" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          <span className="ms-visually-hidden">Waiting for the answer…</span>
        </p>
      ) : null}
      {final && !(last && stream.error) ? (
        // On the last answer its error notice says what happened; earlier failed answers
        // keep only the short mark, so the log is not a column of old alerts.
        <StopReasonNotice
          stream={stream}
          busy={busy}
          onContinue={
            last && actions?.continueAnswer ? () => actions.continueAnswer?.(turn.id) : undefined
          }
        />
      ) : null}
      {last && final ? (
        <StreamErrorNotice
          error={stream.error}
          status={stream.status}
          description={noticeDescription(stream, retriesItself)}
        />
      ) : null}
      {last && final && actions?.resume && actions.retry ? (
        <ResumeControl
          stream={stream}
          onResume={actions.resume}
          onRetry={() => {
            retriedAnswers.add(turn.id);
            actions.retry?.();
          }}
          busy={busy}
          autoRetry={retriesItself}
          // The notice above says what happened; a stop by the user has its mark.
          label={null}
        />
      ) : null}
      {actions && (settled || (branchStore && !goesOn)) ? (
        // Empty (hidden by CSS) for a lone answer that failed before anything arrived; a
        // version of several keeps its picker, or there would be no way back from it. While
        // an answer streams only its picker shows: which version it is, and the way back.
        <div className="ms-message__footer">
          {branchStore ? <BranchPicker store={branchStore} turnId={first} busy={busy} /> : null}
          {branchStore && first !== turn.id ? (
            // Versions of the part after the tools, made before Regenerate took the whole answer.
            <BranchPicker
              store={branchStore}
              turnId={turn.id}
              label="Version of the last part"
              busy={busy}
            />
          ) : null}
          {settled && (markdown !== '' || stream.message !== null) ? (
            <MessageActions
              copyText={markdown === '' ? undefined : markdown}
              onRegenerate={actions.regenerate ? () => actions.regenerate?.(first) : undefined}
              onFeedback={
                actions.feedback ? (value) => actions.feedback?.(turn.id, value) : undefined
              }
              feedback={feedback}
              busy={busy}
              label="Answer actions"
            >
              {showUsage && usage ? (
                <UsageBadge
                  usage={parts.length === 1 ? usage : usageOf(parts)}
                  partial={partialOf(parts)}
                />
              ) : null}
              <StreamDetails
                stream={stream}
                total={
                  parts.length === 1
                    ? undefined
                    : {
                        requests: parts.reduce(
                          (n, part) => n + Math.max(1, part.stream.attempts?.length ?? 1),
                          0,
                        ),
                        usage: usageOf(parts),
                        partial: partialOf(parts),
                      }
                }
                timings={{
                  startedAt: turn.startedAt,
                  firstTokenAt: firstTokenAt ?? turn.firstContentAt,
                  finishedAt: turn.finishedAt,
                }}
                downloads={parts.flatMap((part) => downloadsOf(part, recorder))}
              />
            </MessageActions>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
