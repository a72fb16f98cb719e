import type { StreamState } from '@message-stream/core';
import { isPlainObject, toJson, toText } from './format.js';

// What an answer's parts say, as data: why it ended, its usage figures, a tool result's text.
// Kept apart from the parts that draw them, which load on demand, so the package's entry can
// export these without carrying the parts.

/** What the notice says about an answer, or null when it ended normally. */
export interface StopReasonInfo {
  /** `length` offers Continue; `refusal` is a warning; `note` is a quiet line; `mark` a tag. */
  readonly kind: 'length' | 'refusal' | 'note' | 'mark';
  readonly reason: string;
  readonly text: string;
}

/**
 * Why an answer ended, when a reader should know: a length limit, a refusal, a stop sequence,
 * a full context window, or a stop by the user or the network. `end_turn`, `tool_use` and
 * `pause_turn` (continued by the store) say nothing, nor does an answer still streaming.
 */
export function stopReasonInfo(stream: StreamState): StopReasonInfo | null {
  if (stream.status === 'aborted') return { kind: 'mark', reason: 'aborted', text: 'Stopped' };
  if (stream.status === 'interrupted' || stream.status === 'error') {
    if (stream.stopReceived) return null;
    return stream.message === null
      ? { kind: 'mark', reason: 'failed', text: 'Failed' }
      : { kind: 'mark', reason: 'interrupted', text: 'Interrupted' };
  }
  if (stream.status !== 'complete') return null;
  const message = stream.message;
  const reason = message?.stop_reason;
  switch (reason) {
    case 'max_tokens':
      return { kind: 'length', reason, text: 'The answer reached the length limit.' };
    case 'refusal':
      return {
        kind: 'refusal',
        reason,
        text: 'The model declined to answer this request. Try rephrasing it.',
      };
    case 'stop_sequence': {
      const sequence = message?.stop_sequence;
      return {
        kind: 'note',
        reason,
        text:
          typeof sequence === 'string' && sequence !== ''
            ? `Stopped at the stop sequence “${sequence}”.`
            : 'Stopped at a stop sequence.',
      };
    }
    case 'model_context_window_exceeded':
      return {
        kind: 'note',
        reason,
        text: 'The conversation filled the model’s context window. Start a new one to go on.',
      };
    default:
      return null;
  }
}

/** What `isPartialUsage` and `partialUsage` read of an answer's stream. */
interface UsageSource {
  readonly status: string;
  readonly stopReceived: boolean;
  readonly attempts?: readonly { readonly status: string }[];
}

/**
 * Why an answer's usage leaves out output it was billed for: it did not finish
 * (`'unfinished'`), or it did, continued after an earlier request of it was cut off before
 * the API reported that request's output (`'earlier-attempt'`); null when nothing is left out.
 */
export function partialUsage(stream: UsageSource): 'unfinished' | 'earlier-attempt' | null {
  if (!stream.stopReceived && stream.status !== 'complete') return 'unfinished';
  return (stream.attempts ?? []).some((attempt) => attempt.status !== 'complete')
    ? 'earlier-attempt'
    : null;
}

/** Whether an answer's usage leaves out output it was billed for (see `partialUsage`). */
export function isPartialUsage(stream: UsageSource): boolean {
  return partialUsage(stream) !== null;
}

/** When an answer's request went out, its first content showed, and it ended (epoch ms). */
export interface StreamTimings {
  readonly startedAt?: number | null;
  readonly firstTokenAt?: number | null;
  readonly finishedAt?: number | null;
}

/** Figures for the details: tokens, time to first token, tokens per second. */
/** A token count as a figure: a finite number, else none (usage read back may be damaged). */
export const tokenCount = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

export function streamFigures(stream: StreamState, timings: StreamTimings = {}) {
  const usage = stream.message?.usage ?? {};
  const partialReason = partialUsage(stream);
  const partial = partialReason !== null;
  // Resumed: the later requests' output, at least (the cut one's was never reported).
  const output = partialReason === 'unfinished' ? undefined : tokenCount(usage.output_tokens);
  const { startedAt, firstTokenAt, finishedAt } = timings;
  const ttftMs =
    typeof startedAt === 'number' && typeof firstTokenAt === 'number' && firstTokenAt >= startedAt
      ? firstTokenAt - startedAt
      : undefined;
  const seconds =
    typeof firstTokenAt === 'number' && typeof finishedAt === 'number'
      ? (finishedAt - firstTokenAt) / 1000
      : undefined;
  const tokensPerSecond =
    !partial && output !== undefined && seconds !== undefined && seconds > 0
      ? output / seconds
      : undefined;
  return {
    input: tokenCount(usage.input_tokens),
    output,
    partial,
    partialReason,
    cacheRead: tokenCount(usage.cache_read_input_tokens),
    cacheWrite: tokenCount(usage.cache_creation_input_tokens),
    ttftMs,
    tokensPerSecond,
  };
}

/** The display text of a tool result's content. */
export function resultText(content: unknown): string {
  if (content === undefined || content === null) return '(no content)';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => {
        if (typeof part === 'string') return part;
        if (isPlainObject(part) && part.type === 'text' && typeof part.text === 'string') {
          return part.text;
        }
        if (isPlainObject(part) && typeof part.type === 'string' && part.type !== 'text') {
          return `[${part.type}]`;
        }
        return toJson(part);
      })
      .join('\n\n');
  }
  if (typeof content === 'object') return toJson(content);
  return toText(content);
}
