import type { TokenizeRequest, TokenizeResult } from './protocol.js';
import { encodeLines, StylePalette } from './runs.js';
import { IncrementalCodeTokens, type LineTokenizer } from './tokens.js';

/** Longest stretch of tokenizing before results are handed over and new requests are read. */
const SLICE_MS = 8;

interface Session {
  language: string;
  /** The code while the tokenizer loads; then the tokenizer holds it (appends go to it). */
  code: string;
  tokens: IncrementalCodeTokens<unknown> | null;
  /** Finished lines already sent. */
  sent: number;
  sentTail: string | null;
  plain: boolean;
  /** The styles the block's runs have used, and how many of them were sent. */
  palette: StylePalette;
  sentStyles: number;
}

/**
 * The tokenizer's side of the protocol: one incremental tokenizer per code block, advanced in
 * slices, each slice answered with the lines it finished. The same code runs in the Worker and,
 * when there is none, on the main thread, so both tokenize each finished line exactly once.
 */
export class TokenizeSessions {
  private readonly sessions = new Map<number, Session>();
  private readonly load: (language: string) => Promise<LineTokenizer<unknown> | null>;
  private readonly post: (result: TokenizeResult) => void;
  private readonly schedule: (run: () => void) => void;
  private scheduled = false;
  private readonly now: () => number;

  constructor(options: {
    load: (language: string) => Promise<LineTokenizer<unknown> | null>;
    post: (result: TokenizeResult) => void;
    /** Runs `run` in a later task (it must let requests in between). */
    schedule: (run: () => void) => void;
    now?: () => number;
  }) {
    this.load = options.load;
    this.post = options.post;
    this.schedule = options.schedule;
    this.now = options.now ?? (() => performance.now());
  }

  receive(request: TokenizeRequest): void {
    if (request.type === 'dispose') {
      this.sessions.delete(request.id);
      return;
    }
    let session = this.sessions.get(request.id);
    if (session === undefined || session.language !== request.language) {
      session = {
        language: request.language,
        code: '',
        tokens: null,
        sent: 0,
        sentTail: null,
        plain: false,
        palette: new StylePalette(),
        sentStyles: 0,
      };
      this.sessions.set(request.id, session);
      this.startLoading(request.id, session);
    }
    if (request.mode === 'reset') {
      if (session.tokens === null) session.code = request.text;
      else session.tokens.replace(request.text);
      session.sent = 0;
      session.sentTail = null;
      // The page starts over too (it may have missed a result): its styles with it.
      session.sentStyles = 0;
    } else if (session.tokens === null) {
      session.code += request.text;
    } else {
      // Only the append is read: a growing block's whole code is never read again.
      session.tokens.append(request.text);
    }
    this.wake();
  }

  private startLoading(id: number, session: Session): void {
    void this.load(session.language).then(
      (tokenize) => this.loaded(id, session, tokenize),
      () => this.loaded(id, session, null),
    );
  }

  private loaded(id: number, session: Session, tokenize: LineTokenizer<unknown> | null): void {
    if (this.sessions.get(id) !== session) return;
    if (tokenize === null) {
      session.plain = true;
      this.post({ type: 'plain', id });
      return;
    }
    session.tokens = new IncrementalCodeTokens(tokenize);
    session.tokens.replace(session.code);
    session.code = '';
    this.wake();
  }

  private wake(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      this.run();
    });
  }

  /** One slice: every session with work advances until the slice's deadline. */
  private run(): void {
    const deadline = this.now() + SLICE_MS;
    let more = false;
    for (const [id, session] of this.sessions) {
      const tokens = session.tokens;
      if (tokens === null || session.plain) continue;
      if (this.now() >= deadline) {
        more = true;
        break;
      }
      let done: boolean;
      try {
        done = tokens.step(deadline, this.now);
      } catch {
        // A grammar that throws mid-block: what is tokenized stays, the rest is plain.
        session.plain = true;
        continue;
      }
      // Only the lines not sent yet are copied: a slice costs what it tokenized, not the block.
      const finished = tokens.finishedCount;
      if (finished < session.sent) session.sent = 0;
      const tail = tokens.tailTokens;
      if (finished > session.sent || (tail?.text ?? null) !== session.sentTail) {
        const { palette } = session;
        const lines = encodeLines(tokens.finishedFrom(session.sent), palette);
        const tailRuns = tail === null ? null : encodeLines([tail.tokens], palette);
        this.post({
          type: 'tokens',
          id,
          start: session.sent,
          lines,
          tail: tailRuns,
          stylesFrom: session.sentStyles,
          styles: palette.styles.slice(session.sentStyles),
        });
        session.sent = finished;
        session.sentTail = tail?.text ?? null;
        session.sentStyles = palette.styles.length;
      }
      if (!done) more = true;
    }
    if (more) this.wake();
  }
}
