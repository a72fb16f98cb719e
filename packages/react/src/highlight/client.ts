import { appendedSince, startsWithText } from '../text-growth.js';
import { loadLineTokenizer } from './load.js';
import type { TokenizeRequest, TokenizeResult } from './protocol.js';
import { schedulePublish } from './publish.js';
import { type CodeRunsLine, decodeLines, type StyleView, styleViews } from './runs.js';

/** What a code view renders: the runs of each line it has, by line index. */
export interface CodeRunsSnapshot {
  /** Runs of the finished lines, in order. Each entry keeps its identity across snapshots. */
  readonly finished: readonly CodeRunsLine[];
  /** The unfinished last line's runs, and the text they were made from. */
  readonly tail: { readonly text: string; readonly tokens: CodeRunsLine } | null;
}

/**
 * The page's side of highlighting: one source per code block, fed the block's code as it grows,
 * giving back the tokens so far. The tokenizing itself runs in a module Worker, so compiling a
 * grammar (hundreds of milliseconds for a line at first) and tokenizing a 5,000-line block never
 * hold up a frame. Where no Worker starts (no `Worker`, a CSP, a bundler that does not emit it)
 * the same sessions run on the main thread, in slices of a few milliseconds between tasks.
 */

interface Transport {
  send(request: TokenizeRequest): void;
}

const sources = new Map<number, CodeTokensSource>();
let nextId = 1;
let transport: Transport | null = null;

function deliver(result: TokenizeResult): void {
  sources.get(result.id)?.receive(result);
}

/**
 * The sessions on the main thread, loaded on first use (a page whose Worker starts never loads
 * them); requests made meanwhile wait, in order.
 */
function mainThreadTransport(): Transport {
  let waiting: TokenizeRequest[] | null = [];
  let send: (request: TokenizeRequest) => void = (request) => {
    waiting?.push(request);
  };
  import('./session.js').then(
    ({ TokenizeSessions }) => {
      const sessions = new TokenizeSessions({
        load: loadLineTokenizer,
        post: deliver,
        schedule: (run) => setTimeout(run, 0),
      });
      send = (request) => sessions.receive(request);
      for (const request of waiting ?? []) sessions.receive(request);
      waiting = null;
    },
    () => {
      // The chunk did not load (offline, a deploy swapped it): code stays plain text, and
      // nothing piles up waiting for it.
      waiting = null;
      send = () => {};
    },
  );
  return { send: (request) => send(request) };
}

function workerTransport(): Transport | null {
  if (typeof Worker !== 'function') return null;
  let worker: Worker;
  try {
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
  const viaWorker: Transport = { send: (request) => worker.postMessage(request) };
  worker.addEventListener('message', (event: MessageEvent<TokenizeResult>) => deliver(event.data));
  // The worker script failed to load or run, or a result could not be read: every block starts
  // over on the main thread (once, however many such events were queued).
  const fallBack = () => {
    if (transport !== viaWorker) return;
    worker.terminate();
    transport = mainThreadTransport();
    for (const source of sources.values()) source.resend();
  };
  worker.addEventListener('error', fallBack);
  worker.addEventListener('messageerror', fallBack);
  return viaWorker;
}

function getTransport(): Transport {
  transport ??= workerTransport() ?? mainThreadTransport();
  return transport;
}

/** Newly coloured lines handed to React per frame, at most. */
const LINES_PER_HANDOVER = 64;

/** The tokens of one code block, fed its code as it grows. */
export class CodeTokensSource {
  private readonly language: string;
  private id = 0;
  private sent: string | null = null;
  private code = '';
  private finished: CodeRunsLine[] = [];
  /**
   * How each style the tokenizer has named for this block is drawn. Lines hold the array they
   * were made with: it only grows, and is a new array when the tokenizer's styles start over.
   */
  private views: StyleView[] = [];
  /** How many of `finished` were handed over to React. */
  private shown = 0;
  /** Whether tokens exist (false: plain, or none yet), and changed since the last hand-over. */
  private highlighted = false;
  private changed = false;
  private tail: CodeRunsSnapshot['tail'] = null;
  private published: CodeRunsSnapshot | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(language: string) {
    this.language = language;
  }

  /** Starts tokenizing (again, after `detach`), from the code it was last given. */
  attach(): void {
    if (this.id !== 0) return;
    this.id = nextId++;
    sources.set(this.id, this);
    this.sent = null;
    this.finished = [];
    this.shown = 0;
    this.update(this.code);
  }

  /** Stops tokenizing and lets the tokenizer forget the block. */
  detach(): void {
    if (this.id === 0) return;
    getTransport().send({ type: 'dispose', id: this.id });
    sources.delete(this.id);
    this.id = 0;
  }

  /** The block's code now. Growth sends only what was appended. */
  update(code: string): void {
    this.code = code;
    if (this.id === 0 || code === this.sent) return;
    // Recorded as the code sent plus an append (text-growth.ts): only that is read.
    const appended = this.sent === null ? undefined : appendedSince(code, this.sent);
    const append =
      appended !== undefined || (this.sent !== null && startsWithText(code, this.sent));
    getTransport().send({
      type: 'update',
      id: this.id,
      language: this.language,
      mode: append ? 'append' : 'reset',
      text: appended ?? (append ? code.slice((this.sent as string).length) : code),
    });
    this.sent = code;
  }

  /** The whole code again, to a new tokenizer. */
  resend(): void {
    this.sent = null;
    this.update(this.code);
  }

  receive(result: TokenizeResult): void {
    if (result.type === 'plain') {
      this.highlighted = false;
    } else {
      if (result.start > this.finished.length) {
        // A result went missing (a transport that dropped one): ask for the whole block again.
        this.resend();
        return;
      }
      if (result.start < this.finished.length) {
        this.finished.length = result.start;
        this.shown = Math.min(this.shown, result.start);
      }
      if (result.stylesFrom !== this.views.length) {
        // Styles that went missing with a result: the whole block again (which resends them).
        if (result.stylesFrom !== 0) {
          this.resend();
          return;
        }
        this.views = [];
      }
      for (const view of styleViews(result.styles)) this.views.push(view);
      for (const line of decodeLines(result.lines, this.views)) this.finished.push(line);
      const tail = result.tail === null ? undefined : decodeLines(result.tail, this.views)[0];
      this.tail = tail === undefined ? null : { text: result.tail?.text ?? '', tokens: tail };
      this.highlighted = true;
    }
    this.changed = true;
    schedulePublish(this.emit);
  }

  // The snapshot is built here, once per hand-over (a frame), not per result: several
  // results arrive in a frame, and each copy of the finished lines grows with the block.
  private readonly emit = (): void => {
    if (!this.changed) return;
    this.changed = false;
    let next: CodeRunsSnapshot | null = null;
    if (this.highlighted) {
      // A bounded number of newly coloured lines per frame: a worker that catches up (after
      // the grammar loaded, say) hands over hundreds of lines at once, and styling all their
      // spans in one frame was a task of 30+ ms. The rest follow in the next frames.
      this.shown = Math.min(this.finished.length, this.shown + LINES_PER_HANDOVER);
      const caughtUp = this.shown === this.finished.length;
      // The tail is the line after the last finished one: shown once those all are.
      next = { finished: this.finished.slice(0, this.shown), tail: caughtUp ? this.tail : null };
      if (!caughtUp) {
        this.changed = true;
        schedulePublish(this.emit);
      }
    }
    if (next === null && this.published === null) return;
    this.published = next;
    for (const listener of this.listeners) listener();
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The tokens React shows: changed only when results are handed over (once per frame). */
  readonly getSnapshot = (): CodeRunsSnapshot | null => this.published;
}
