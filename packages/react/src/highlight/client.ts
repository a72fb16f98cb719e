import { loadLineTokenizer } from './load.js';
import type { TokenizeRequest, TokenizeResult } from './protocol.js';
import { schedulePublish } from './publish.js';
import type { CodeTokenLine, CodeTokensSnapshot } from './tokens.js';

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
  void import('./session.js').then(({ TokenizeSessions }) => {
    const sessions = new TokenizeSessions({
      load: loadLineTokenizer,
      post: deliver,
      schedule: (run) => setTimeout(run, 0),
    });
    send = (request) => sessions.receive(request);
    for (const request of waiting ?? []) sessions.receive(request);
    waiting = null;
  });
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
  worker.addEventListener('message', (event: MessageEvent<TokenizeResult>) => deliver(event.data));
  // The worker script failed to load or run: every block starts over on the main thread.
  worker.addEventListener('error', () => {
    worker.terminate();
    transport = mainThreadTransport();
    for (const source of sources.values()) source.resend();
  });
  return { send: (request) => worker.postMessage(request) };
}

function getTransport(): Transport {
  transport ??= workerTransport() ?? mainThreadTransport();
  return transport;
}

/** The tokens of one code block, fed its code as it grows. */
export class CodeTokensSource {
  private readonly language: string;
  private id = 0;
  private sent: string | null = null;
  private code = '';
  private finished: CodeTokenLine[] = [];
  private latest: CodeTokensSnapshot | null = null;
  private published: CodeTokensSnapshot | null = null;
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
    const append = this.sent !== null && code.startsWith(this.sent);
    getTransport().send({
      type: 'update',
      id: this.id,
      language: this.language,
      mode: append ? 'append' : 'reset',
      text: append ? code.slice((this.sent as string).length) : code,
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
      this.latest = null;
    } else {
      if (result.start < this.finished.length) this.finished.length = result.start;
      for (const line of result.lines) this.finished.push(line);
      this.latest = { finished: this.finished.slice(), tail: result.tail };
    }
    schedulePublish(this.emit);
  }

  private readonly emit = (): void => {
    if (this.published === this.latest) return;
    this.published = this.latest;
    for (const listener of this.listeners) listener();
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The tokens React shows: changed only when results are handed over (once per frame). */
  readonly getSnapshot = (): CodeTokensSnapshot | null => this.published;
}
