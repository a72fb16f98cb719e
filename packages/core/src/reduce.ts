import {
  type Blocks,
  blocksOf,
  fieldsOf,
  inserted,
  messageOf,
  replaced,
  withFields,
} from './content.js';
import { errorFromEvent } from './errors.js';
import { emptyMessage } from './message.js';
import { isNonEmptyString, isPlainObject, setOwn } from './object.js';
import { type JsonSyntaxError, PartialJsonParser, parsePartialJson } from './partial-json.js';
import type {
  ContentBlock,
  ContentBlockDelta,
  ContentBlockDeltaEvent,
  ContentBlockStartEvent,
  ContentBlockStopEvent,
  Message,
  MessageDeltaEvent,
  MessageFields,
  StreamEvent,
  UnknownEvent,
  Usage,
} from './protocol.js';
import {
  type BlockState,
  type Diagnostic,
  type DiagnosticCode,
  isFinalStatus,
  type LiveMessage,
  type StreamState,
} from './state.js';

/**
 * Applies one event to a state. Pure and total: any event, in any order, gives a state and
 * nothing throws. An event that changes nothing (ping) returns the very same state; any
 * other returns new objects only along the path it changed (state → message → content →
 * that block), so a UI memoized on block objects re-renders only the block that changed.
 */
export function reduceStream(state: StreamState, event: StreamEvent): StreamState {
  try {
    return reduceEvent(state, event);
  } catch (cause) {
    // Defence in depth: the reducer is written not to throw, but a stream must never take
    // the page down with it. The event is kept in the diagnostic.
    return diagnose(state, 'internal_error', `Could not apply event: ${String(cause)}`, event);
  }
}

/**
 * Applies `events` in order: the same final state as folding `reduceStream` over them. A run
 * of `input_json_delta` fragments for one tool block is applied as one joined fragment when
 * the block takes them (the states in between, which nobody sees here, are skipped), so a
 * streamed tool input costs about what decoding it costs. Used where only the end state is
 * read (`accumulate`); a UI that shows every state reduces event by event.
 */
export function reduceStreamEvents(
  state: StreamState,
  events: readonly StreamEvent[],
): StreamState {
  let next = state;
  let i = 0;
  while (i < events.length) {
    const event = events[i] as StreamEvent;
    const index = inputFragmentIndex(event);
    let end = i + 1;
    if (index !== undefined) {
      while (end < events.length && inputFragmentIndex(events[end] as StreamEvent) === index) end++;
    }
    if (end - i > 1 && takesInputFragments(next, index as number)) {
      let json = '';
      for (let k = i; k < end; k++) json += fragmentOf(events[k] as StreamEvent);
      next = reduceStream(next, {
        type: 'content_block_delta',
        index: index as number,
        delta: { type: 'input_json_delta', partial_json: json },
      });
    } else {
      for (let k = i; k < end; k++) next = reduceStream(next, events[k] as StreamEvent);
    }
    i = end;
  }
  return next;
}

/** The block index of an `input_json_delta` with a string fragment, else undefined. */
function inputFragmentIndex(event: StreamEvent): number | undefined {
  if (event === null || typeof event !== 'object' || event.type !== 'content_block_delta') {
    return undefined;
  }
  const delta = event.delta as { type?: unknown; partial_json?: unknown } | null;
  return delta !== null &&
    typeof delta === 'object' &&
    delta.type === 'input_json_delta' &&
    typeof delta.partial_json === 'string' &&
    typeof event.index === 'number'
    ? event.index
    : undefined;
}

const fragmentOf = (event: StreamEvent): string =>
  ((event as ContentBlockDeltaEvent).delta as { partial_json: string }).partial_json;

/**
 * Whether each fragment of a run would simply be appended to block `index`'s input: the
 * stream is open, the block exists and has an input. Anything else (a diagnostic per
 * fragment) goes event by event, so diagnostics stay exactly those of the fold.
 */
function takesInputFragments(state: StreamState, index: number): boolean {
  if (state.status !== 'streaming' || state.stopReceived) return false;
  const [content, position] = locate(state, index);
  if (position === -1) return false;
  return hasInput(((content as Blocks).at(position) as BlockState).block);
}

/** Block types the API documents; others are kept too, with a diagnostic. */
const KNOWN_BLOCK_TYPES = new Set([
  'text',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
  'fallback',
  'compaction',
]);

function reduceEvent(state: StreamState, event: StreamEvent): StreamState {
  if (event === null || typeof event !== 'object') {
    return diagnose(state, 'malformed_event', 'Not an object.', event);
  }
  if (event.type === 'ping') return state;
  if (isFinalStatus(state.status)) {
    return diagnose(state, 'event_after_end', `${event.type} after the end: not applied.`, event);
  }
  const started: StreamState = state.status === 'idle' ? { ...state, status: 'streaming' } : state;
  switch (event.type) {
    case 'message_start':
      return startMessage(started, event.message, event);
    case 'content_block_start':
      return startBlock(afterStopCheck(started, event), event);
    case 'content_block_delta':
      return applyDelta(afterStopCheck(started, event), event);
    case 'content_block_stop':
      return stopBlock(afterStopCheck(started, event), event);
    case 'message_delta':
      return applyMessageDelta(afterStopCheck(started, event), event);
    case 'message_stop':
      if (started.stopReceived) {
        return diagnose(started, 'event_after_message_stop', 'A second message_stop.', event);
      }
      return { ...started, stopReceived: true };
    case 'error':
      return {
        ...started,
        status: 'error',
        error: errorFromEvent(event),
        message: started.message && settleBlocks(started.message),
      };
    case 'invalid_event':
      return diagnose(started, 'invalid_event', `Unreadable event: ${event.reason}`, event);
    default: {
      // An unknown_event names its type in its data or by its SSE name; any other event is
      // an object of a type this version does not know.
      const { type, event: name, data } = event as Partial<UnknownEvent>;
      const named =
        type === 'unknown_event' ? ((data as { type?: unknown } | null)?.type ?? name) : type;
      // A string is named; anything else (an object without a prototype, a symbol) is not
      // turned into text, which could throw.
      const label = typeof named === 'string' ? named : '(none)';
      return diagnose(started, 'unknown_event', `Unknown event type ${label}.`, event);
    }
  }
}

/**
 * How many diagnostics a state keeps with their events. Past this, further ones are
 * counted in `diagnosticsDropped` instead: a stream of a new event type (the API adds them)
 * must cost the same per event as any other, not a copy of an ever-growing list.
 */
export const MAX_DIAGNOSTICS = 256;

/**
 * Past this many characters of JSON, a diagnostic keeps an excerpt of its event rather than
 * the event (see `Diagnostic`).
 */
export const MAX_DIAGNOSTIC_EVENT_CHARS = 2_048;

function diagnose(
  state: StreamState,
  code: DiagnosticCode,
  message: string,
  event?: unknown,
): StreamState {
  // The placeholder's mark is kept past the cap (it is made once a stream): a late
  // message_start finds the placeholder by it, and must not take it for a second message.
  if (state.diagnostics.length >= MAX_DIAGNOSTICS && code !== 'event_before_message_start') {
    return { ...state, diagnosticsDropped: (state.diagnosticsDropped ?? 0) + 1 };
  }
  return { ...state, diagnostics: [...state.diagnostics, diagnosticFor(code, message, event)] };
}

function diagnosticFor(code: DiagnosticCode, message: string, event: unknown): Diagnostic {
  if (event === undefined) return { code, message };
  // At most MAX_DIAGNOSTICS per state reach this, so measuring each costs a bounded amount.
  let text: string | undefined;
  try {
    text = JSON.stringify(event);
  } catch {
    text = undefined; // a cycle or a BigInt cannot come from the wire; keep such an event as is
  }
  if (text === undefined || text.length <= MAX_DIAGNOSTIC_EVENT_CHARS) {
    return { code, message, event: event as StreamEvent };
  }
  return {
    code,
    message,
    excerpt: text.slice(0, MAX_DIAGNOSTIC_EVENT_CHARS),
    eventChars: text.length,
  };
}

/** Content after `message_stop` is still applied (never lose what arrived), but reported. */
function afterStopCheck(state: StreamState, event: StreamEvent): StreamState {
  return state.stopReceived
    ? diagnose(state, 'event_after_message_stop', `${event.type} after message_stop.`)
    : state;
}

// ---------------------------------------------------------------------------------------
// Messages

const EMPTY_MESSAGE: LiveMessage = emptyMessage();
/** What a `message_start` fills in over: the empty message's fields, without content. */
const EMPTY_FIELDS: MessageFields = fieldsOf(EMPTY_MESSAGE);

/**
 * How many superseded messages a state keeps (the most recent ones). A gateway that splices
 * many retries into one stream must not make each further `message_start` cost more.
 */
export const MAX_SUPERSEDED = 16;

function startMessage(state: StreamState, wire: unknown, event: StreamEvent): StreamState {
  if (!isPlainObject(wire)) {
    return diagnose(state, 'malformed_event', 'message_start without a message object.', event);
  }
  const { content, ...rest } = wire as Partial<Message>;
  const fields = {
    ...EMPTY_FIELDS,
    ...rest,
    usage: isPlainObject(rest.usage) ? { ...rest.usage } : {},
  };
  const blocks = Array.isArray(content)
    ? content.map((block, index) => createBlockState(index, block, 'complete'))
    : [];
  const message = messageOf(fields, blocks);
  if (state.message === null) return { ...state, message };
  if (state.message.id === '' && placeholderOf(state)) {
    // Content came first (a proxy reordered or dropped events) and an empty message was
    // started for it: this message_start names that message, it does not replace it.
    return { ...state, message: fillPlaceholder(state.message, fields, blocks) };
  }
  const spliced = diagnose(
    state,
    'second_message_start',
    `A second message_start replaced ${state.message.id || 'the message'} (kept in superseded).`,
    event,
  );
  const superseded = [...state.superseded, settleBlocks(state.message)];
  const next: StreamState = {
    ...spliced,
    message,
    stopReceived: false,
    superseded: superseded.slice(-MAX_SUPERSEDED),
  };
  return superseded.length > MAX_SUPERSEDED
    ? { ...next, supersededDropped: (state.supersededDropped ?? 0) + 1 }
    : next;
}

/** The current message is the placeholder `withMessage` started (its diagnostic says so). */
function placeholderOf(state: StreamState): boolean {
  return state.diagnostics.some((d) => d.code === 'event_before_message_start');
}

/**
 * The placeholder with the late message_start's fields: content (and anything a
 * message_delta already set) stays; the start's non-null fields and usage fill the rest.
 */
function fillPlaceholder(
  placeholder: LiveMessage,
  started: Record<string, unknown>,
  blocks: readonly BlockState[],
): LiveMessage {
  const next: Record<string, unknown> = { ...fieldsOf(placeholder) };
  for (const key of Object.keys(started)) {
    if (key === 'usage') continue;
    const value = started[key];
    const current = next[key];
    if (
      value !== null &&
      value !== undefined &&
      (current === null || current === '' || current === undefined)
    ) {
      setOwn(next, key, value);
    }
  }
  next.usage = mergeUsage(started.usage as Usage, placeholder.usage);
  const fields = next as MessageFields;
  return blocksOf(placeholder).length === 0
    ? messageOf(fields, blocks)
    : withFields(placeholder, fields);
}

/** Content can arrive before `message_start` (a proxy that dropped it): keep it anyway. */
function withMessage(state: StreamState, event: StreamEvent): StreamState {
  if (state.message !== null) return state;
  return {
    ...diagnose(state, 'event_before_message_start', `${event.type} before message_start.`),
    message: EMPTY_MESSAGE,
  };
}

function applyMessageDelta(state: StreamState, event: MessageDeltaEvent): StreamState {
  const withMsg = withMessage(state, event);
  const message = withMsg.message as LiveMessage;
  const { type: _type, delta, usage, ...extra } = event;
  const next: Record<string, unknown> = { ...fieldsOf(message) };
  // Fields a delta may set; a null never erases what an earlier delta said (the same rule
  // as usage), and the message's own structure (content, usage) is never replaced.
  copyDefined(next, extra, PROTECTED_FIELDS);
  if (isPlainObject(delta)) copyDefined(next, delta, PROTECTED_FIELDS);
  next.usage = mergeUsage(message.usage, usage);
  return { ...withMsg, message: withFields(message, next as MessageFields) };
}

const PROTECTED_FIELDS = new Set(['content', 'usage', 'id', 'type', 'role']);

/**
 * `message_delta` carries the final counts. A field it omits (or sends as null) keeps its
 * `message_start` value; fields nobody knows yet pass through.
 */
export function mergeUsage(base: Usage, update: Usage | null | undefined): Usage {
  return isPlainObject(update) ? copyDefined({ ...base }, update) : base;
}

/**
 * `target` with every field of `source` that has a value (neither null nor undefined), but
 * those in `skip`. A `__proto__` key from the wire is a field like any other, never a prototype.
 */
function copyDefined<T extends Record<string, unknown>>(
  target: T,
  source: object,
  skip?: ReadonlySet<string>,
): T {
  for (const [key, value] of Object.entries(source)) {
    if (value !== null && value !== undefined && !skip?.has(key)) setOwn(target, key, value);
  }
  return target;
}

/** Marks blocks that never received `content_block_stop` as incomplete. */
export function settleBlocks(message: LiveMessage): LiveMessage {
  if (!message.content.some((block) => block.status === 'streaming')) return message;
  return {
    ...message,
    content: message.content.map((block) =>
      block.status === 'streaming' ? { ...block, status: 'incomplete' } : block,
    ),
  };
}

// ---------------------------------------------------------------------------------------
// Blocks

/**
 * Position of the block with wire index `index`, or -1. Blocks are kept in index order, so
 * a search costs O(log blocks) when the index is not the position.
 */
function findBlock(content: Blocks, index: number): number {
  // An event without a valid index (a proxy mangled it) matches no block.
  if (!Number.isInteger(index)) return -1;
  if (content.at(index)?.index === index) return index;
  let low = 0;
  let high = content.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const found = (content.at(middle) as BlockState).index;
    if (found === index) return middle;
    if (found < index) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** The content of the state's message, and the position of block `index` in it (or -1). */
function locate(state: StreamState, index: number): [Blocks | null, number] {
  const content = state.message && blocksOf(state.message);
  return [content, content ? findBlock(content, index) : -1];
}

function replaceBlock(state: StreamState, position: number, block: BlockState): StreamState {
  // This runs for every delta: a literal of the usual shape is V8's fastest copy.
  const message = replaced(state.message as LiveMessage, position, block);
  if (
    state.attempts !== undefined ||
    state.diagnosticsDropped !== undefined ||
    state.supersededDropped !== undefined
  ) {
    return { ...state, message };
  }
  return {
    status: state.status,
    message,
    superseded: state.superseded,
    stopReceived: state.stopReceived,
    error: state.error,
    diagnostics: state.diagnostics,
  };
}

/** A block state whose block is `block` (a delta's result); see replaceBlock. */
function withBlock(current: BlockState, block: ContentBlock): BlockState {
  if (
    current.inputJson === undefined &&
    current.inputError === undefined &&
    current.otherDeltas === undefined
  ) {
    return { index: current.index, status: current.status, block };
  }
  const next: { -readonly [K in keyof BlockState]: BlockState[K] } = { ...current };
  next.block = block;
  return next;
}

const hasInput = (block: ContentBlock): boolean => 'input' in block;

function createBlockState(index: number, wire: unknown, status: BlockState['status']): BlockState {
  const block: ContentBlock =
    wire !== null && typeof wire === 'object' && typeof (wire as ContentBlock).type === 'string'
      ? { ...(wire as ContentBlock) }
      : { type: 'unknown', value: wire };
  return { index, status, block };
}

function startBlock(state: StreamState, event: ContentBlockStartEvent): StreamState {
  if (!Number.isInteger(event.index) || event.index < 0) {
    return diagnose(state, 'malformed_event', 'content_block_start without a valid index.', event);
  }
  let next = withMessage(state, event);
  const block = createBlockState(event.index, event.content_block, 'streaming');
  if (!KNOWN_BLOCK_TYPES.has(block.block.type)) {
    next = diagnose(next, 'unknown_block_type', `Unknown block type ${block.block.type}.`);
  }
  const message = next.message as LiveMessage;
  const content = blocksOf(message);
  if (findBlock(content, event.index) !== -1) {
    // A repeated start would otherwise erase what the first one collected: keep the first.
    return diagnose(
      next,
      'duplicate_block_index',
      `Block ${event.index} started again; the first kept.`,
      event,
    );
  }
  let position = content.length;
  while (position > 0 && (content.at(position - 1) as BlockState).index > event.index) position--;
  const added = inserted(message, position, block);
  const serving = block.block.type === 'fallback' ? fallbackModel(block.block) : undefined;
  return {
    ...next,
    message:
      serving === undefined ? added : withFields(added, { ...fieldsOf(added), model: serving }),
  };
}

/**
 * The model that serves the rest of the answer after a server-side fallback: the block's
 * `to` (`{ model }` on the wire; a bare string or `to_model` from older recordings).
 * `message.model` follows it, as the SDK's accumulator does.
 */
function fallbackModel(block: ContentBlock): string | undefined {
  const { to, to_model } = block as { to?: { model?: unknown }; to_model?: unknown };
  return [to?.model, to, to_model].find(isNonEmptyString) as string | undefined;
}

/** An event for a block that never started. */
const unknownIndex = (state: StreamState, event: ContentBlockDeltaEvent | ContentBlockStopEvent) =>
  diagnose(
    state,
    'unknown_block_index',
    `${event.type} for unknown block ${String(event.index)}.`,
    event,
  );

function stopBlock(state: StreamState, event: ContentBlockStopEvent): StreamState {
  const index = event.index;
  const [content, position] = locate(state, index);
  if (position === -1) return unknownIndex(state, event);
  const block = (content as Blocks).at(position) as BlockState;
  if (block.status === 'complete') return state;
  let next = replaceBlock(state, position, { ...block, status: 'complete' });
  if (block.inputError) {
    next = diagnose(
      next,
      'invalid_tool_input',
      `Block ${index} input is not JSON: ${block.inputError.message}`,
    );
  }
  return next;
}

function applyDelta(state: StreamState, event: ContentBlockDeltaEvent): StreamState {
  const [content, position] = locate(state, event.index);
  if (position === -1) return unknownIndex(state, event);
  const current = (content as Blocks).at(position) as BlockState;
  const delta = event.delta;
  const updated = deltaApplier(current, delta);
  if (updated) return replaceBlock(state, position, updated);
  // null: a delta of a known type that does not fit this block.
  const known = updated === null;
  const others = current.otherDeltas ?? [];
  // Bounded like diagnostics, for the same reason; the count says how many were not kept.
  const kept = replaceBlock(
    state,
    position,
    others.length < MAX_DIAGNOSTICS
      ? { ...current, otherDeltas: [...others, delta] }
      : { ...current, otherDeltasDropped: (current.otherDeltasDropped ?? 0) + 1 },
  );
  return known
    ? diagnose(
        kept,
        'delta_type_mismatch',
        `${delta.type} does not fit block ${event.index} (${current.block.type}).`,
        event,
      )
    : diagnose(
        kept,
        'unknown_delta_type',
        `Unknown delta type ${String(delta?.type)} for block ${event.index}.`,
        event,
      );
}

/**
 * The new block state; null when a delta of a known type does not fit the block, undefined
 * for a delta of a type this version does not know. Deltas apply by the field they extend
 * rather than by block type, so a newer block that has `text` or `input` keeps working
 * before this kit knows its name.
 */
function deltaApplier(
  current: BlockState,
  delta: ContentBlockDelta,
): BlockState | null | undefined {
  if (delta === null || typeof delta !== 'object') return undefined;
  const block = current.block as Record<string, unknown> & ContentBlock;
  switch (delta.type) {
    case 'text_delta': {
      if (typeof block.text !== 'string' || typeof delta.text !== 'string') return null;
      const next = { ...block };
      next.text = block.text + delta.text;
      return withBlock(current, next);
    }
    case 'thinking_delta': {
      if (typeof block.thinking !== 'string' || typeof delta.thinking !== 'string') return null;
      const next = { ...block };
      next.thinking = block.thinking + delta.thinking;
      return withBlock(current, next);
    }
    case 'signature_delta':
      if (block.type !== 'thinking' && typeof block.signature !== 'string') return null;
      if (typeof delta.signature !== 'string') return null;
      return {
        ...current,
        block: {
          ...block,
          signature: (typeof block.signature === 'string' ? block.signature : '') + delta.signature,
        },
      };
    case 'citations_delta':
      if (typeof block.text !== 'string' || delta.citation === undefined) return null;
      return {
        ...current,
        block: {
          ...block,
          citations: [...(Array.isArray(block.citations) ? block.citations : []), delta.citation],
        },
      };
    case 'input_json_delta':
      if (!hasInput(block) || typeof delta.partial_json !== 'string') return null;
      return InputBlock.append(current, delta.partial_json as string);
    case 'compaction_delta': {
      // Beta: a compaction block's summary streams into its `content`; `encrypted_content`
      // is opaque and must go back verbatim, so the latest one sent is kept.
      if (block.type !== 'compaction') return null;
      const { content, encrypted_content: encrypted } = delta as {
        content?: unknown;
        encrypted_content?: unknown;
      };
      if (typeof content !== 'string' && typeof encrypted !== 'string') return null;
      const next = { ...block };
      if (typeof content === 'string') {
        next.content = (typeof block.content === 'string' ? block.content : '') + content;
      }
      if (typeof encrypted === 'string') next.encrypted_content = encrypted;
      return withBlock(current, next);
    }
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------
// Tool input

/**
 * The fragments of one block's input and the parser that reads them, shared (mutable)
 * between successive states of that block. Fragments are only queued as they arrive; the
 * parser catches up when somebody reads `input` (or `inputError`), from where the last read
 * stopped, so an input nobody reads costs a push per fragment, and one read at every frame
 * costs each character once.
 */
class InputLineage {
  readonly parser = new PartialJsonParser();
  /** Fragments appended but not yet written to the parser. */
  pending: string[] = [];
  /** How many fragments the parser has seen. */
  parsed = 0;
  /** How many fragments were appended. */
  total = 0;
}

/** What a read of a block's input gives: the value so far, and the first syntax error. */
interface InputRead {
  readonly value: unknown;
  readonly error: JsonSyntaxError | null;
}

/**
 * A block whose `input` is read on demand from the first `#count` fragments of a lineage
 * (the text `#json`). Reading a state the lineage has moved past (an older state, or a
 * branch reduced again from one) parses its own text once instead of trusting the shared
 * parser: that keeps the reducer pure for callers who branch, at no cost to those who do
 * not. A class so that what it reads from rides along in private fields (invisible to
 * spreads, equality and JSON) and every instance can share one getter; both make a delta
 * cheaper than a closure and a side table (the tool-input rows of `pnpm bench`,
 * bench/src/pipeline.ts). `input` is still an own enumerable property, so spreading,
 * comparing and serializing the block see the value, like on any plain block.
 */
class InputBlock {
  readonly #lineage: InputLineage;
  readonly #count: number;
  readonly #json: string;
  /** The `input` of `content_block_start`, shown until the JSON yields a value. */
  readonly #initial: unknown;
  #read: InputRead | undefined;

  constructor(fields: ContentBlock, lineage: InputLineage, json: string, initial: unknown) {
    const self = this as unknown as Record<string, unknown>;
    // Every field but `input`, without reading it (that would parse the previous text); a
    // `__proto__` field stays a field (assigning it would swap this block's prototype).
    for (const key of Object.keys(fields)) if (key !== 'input') setOwn(self, key, fields[key]);
    this.#lineage = lineage;
    this.#count = lineage.total;
    this.#json = json;
    this.#initial = initial;
    Object.defineProperty(this, 'input', INPUT_PROPERTY);
  }

  /** The input of `block`, parsed as far as this state's text; undefined for other blocks. */
  static read(block: unknown): InputRead | undefined {
    return block instanceof InputBlock ? block.#parsed() : undefined;
  }

  #parsed(): InputRead {
    if (this.#read !== undefined) return this.#read;
    const lineage = this.#lineage;
    let value: unknown;
    let error: JsonSyntaxError | null;
    if (lineage.parsed <= this.#count) {
      const behind = this.#count - lineage.parsed;
      for (let i = 0; i < behind; i++) lineage.parser.write(lineage.pending[i] as string);
      if (behind > 0) {
        lineage.pending = behind === lineage.pending.length ? [] : lineage.pending.slice(behind);
        lineage.parsed = this.#count;
      }
      value = lineage.parser.value();
      error = lineage.parser.error;
    } else {
      ({ value, error } = parsePartialJson(this.#json));
    }
    this.#read = { value: value === undefined ? (this.#initial ?? {}) : value, error };
    return this.#read;
  }

  /** The block state with `fragment` appended to its input. */
  static append(current: BlockState, fragment: string): BlockState {
    const previous = current.block instanceof InputBlock ? current.block : undefined;
    const before = current.inputJson ?? '';
    let lineage: InputLineage;
    if (previous && previous.#lineage.total === previous.#count && previous.#json === before) {
      lineage = previous.#lineage;
    } else {
      // The first fragment, or a state the shared lineage has moved past (a branch).
      lineage = new InputLineage();
      if (before !== '') {
        lineage.pending.push(before);
        lineage.total = 1;
      }
    }
    lineage.pending.push(fragment);
    lineage.total++;
    const json = before + fragment;
    const block = new InputBlock(
      current.block,
      lineage,
      json,
      previous ? previous.#initial : (current.block as { input?: unknown }).input,
    ) as unknown as ContentBlock;
    // A literal of the usual shape (see replaceBlock): V8 adds and overwrites fields of a
    // spread clone on a slow path, and this runs for every fragment.
    const next: BlockState =
      current.otherDeltas === undefined && current.otherDeltasDropped === undefined
        ? { index: current.index, status: current.status, block, inputJson: json }
        : { ...withoutInputError(current), block, inputJson: json };
    return Object.defineProperty(next, 'inputError', INPUT_ERROR_PROPERTY);
  }
}

const INPUT_PROPERTY: PropertyDescriptor = {
  get(this: InputBlock) {
    return InputBlock.read(this)?.value;
  },
  enumerable: true,
  configurable: true,
};

/** `inputError` of a block state, read (and so parsed) only when asked, like `input`. */
const INPUT_ERROR_PROPERTY: PropertyDescriptor = {
  get(this: BlockState) {
    return InputBlock.read(this.block)?.error ?? null;
  },
  enumerable: true,
  configurable: true,
};

/** A copy of a block state without its `inputError` (not read: reading it would parse). */
function withoutInputError(entry: BlockState): BlockState {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(entry)) {
    if (key !== 'inputError') copy[key] = (entry as unknown as Record<string, unknown>)[key];
  }
  return copy as unknown as BlockState;
}
