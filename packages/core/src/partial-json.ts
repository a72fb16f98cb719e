/**
 * Incremental partial-JSON parsing for streamed tool inputs.
 *
 * A tool's `input` arrives as many tiny `input_json_delta` fragments, and a UI wants a
 * best-effort value after each one. Re-parsing the accumulated text every time is
 * quadratic in the size of the input, which is what makes long tool inputs (a file being
 * written, a big table) stutter. This parser is a character-level state machine with an
 * explicit stack of open containers: every fragment is scanned exactly once, and a read
 * only copies the open containers on the path to the cursor that changed since the
 * previous read.
 */

/** A syntax error located in the whole text, not in the fragment that carried it. */
export interface JsonSyntaxError {
  message: string;
  /** Offset of the offending character from the start of the whole text. */
  position: number;
}

// This module imports nothing and starts with its constants, and must stay so: esbuild
// inlines top-level constants only when they precede every other statement of a module
// (imports included), and the parser's states spelled as names cost the reducer path about
// 0.1 kB min+gzip. So `setOwn` lives here rather than in object.ts, which re-exports it.

// Parser states. Plain numeric constants keep the hot `switch` a jump table on small ints.
/** A value must start here: top level, after `:`, or after `,` in an array. */
const S_VALUE = 0;
/** Just after `[`: a value or `]`. */
const S_ARRAY_FIRST = 1;
/** Just after `{`: a key or `}`. */
const S_OBJECT_FIRST = 2;
/** After `,` in an object: only a key may follow. */
const S_KEY = 3;
const S_COLON = 4;
/** After a value inside a container: `,` or the matching closer. */
const S_AFTER = 5;
/** After the top-level value: only whitespace may follow. */
const S_END = 6;
const S_STRING = 7;
const S_ESCAPE = 8;
const S_UNICODE = 9;
const S_NUMBER = 10;
const S_LITERAL = 11;

// Number sub-states, following the JSON number grammar.
const N_START = 0;
const N_MINUS = 1;
const N_ZERO = 2;
const N_INT = 3;
const N_DOT = 4;
const N_FRAC = 5;
const N_EXP = 6;
const N_EXP_SIGN = 7;
const N_EXP_DIGITS = 8;
/** Sub-states in which the text so far is a complete JSON number. */
const N_END_MASK = (1 << N_ZERO) | (1 << N_INT) | (1 << N_FRAC) | (1 << N_EXP_DIGITS);

type JsonObject = Record<string, unknown>;

/**
 * `target[key] = value` as `JSON.parse` would set it: `__proto__` becomes an own data
 * property instead of calling the inherited setter (which would swap the prototype).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}

/**
 * One open container. The live `value` holds only completed children, so it can be
 * handed out as-is (and never touched again) the moment the container closes; the child
 * still in progress lives in the next frame or in the parser's scalar fields.
 */
class Frame {
  readonly isArray: boolean;
  readonly value: unknown[] | JsonObject;
  /** The key whose value is being (or will next be) parsed; objects only. */
  key = '';
  /** The copy handed out at the last read; reused while nothing below it changed. */
  snapshot: unknown = undefined;
  /** Set when this container's own contents or its in-progress scalar changed. */
  dirty = true;
  /** Whether a completed key is `__proto__`, which rules out the fast copy. */
  hasProtoKey = false;

  constructor(isArray: boolean) {
    this.isArray = isArray;
    this.value = isArray ? [] : {};
  }
}

/**
 * How deep containers may nest before the parser stops with an error. A read copies the
 * open containers on the path to the cursor, so without a limit a pathological input
 * (`[[[[…` a million deep) would make every read cost its depth and hold that many frames.
 * Real tool inputs stay far below this; past it, `error` says so, the value stays what it
 * was, and the raw text is still all there (a block's `inputJson`).
 */
export const DEFAULT_MAX_JSON_DEPTH = 256;

export interface PartialJsonOptions {
  /** Containers nested deeper than this are a syntax error. Default `DEFAULT_MAX_JSON_DEPTH`. */
  readonly maxDepth?: number;
}

/**
 * Parses JSON text that arrives in pieces, exposing the best-effort value after each one.
 *
 * What a read shows is always a prefix-consistent view of the final value: partial
 * strings, but never partial keys, literals, escapes, or half of a surrogate pair, so a
 * UI never renders something it later has to take back.
 */
export class PartialJsonParser {
  readonly #maxDepth: number;

  constructor(options: PartialJsonOptions = {}) {
    this.#maxDepth = options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
  }

  #state = S_VALUE;
  #total = 0;
  #failure: JsonSyntaxError | null = null;

  readonly #stack: Frame[] = [];
  /** The innermost open container, or null at top level. */
  #top: Frame | null = null;
  #root: unknown = undefined;
  #hasRoot = false;

  // The string (value or key) being parsed. Runs of plain characters are appended as
  // slices so V8 builds a rope instead of copying the string on every fragment.
  #str = '';
  #strIsKey = false;
  /**
   * A trailing high surrogate held back from `str` (or '') until the next code unit shows
   * whether it starts a pair. Kept outside `str` so that a read never has to slice (and
   * thereby flatten) a long rope: that would make every read O(length) again.
   */
  #pendingHigh = '';
  #unicode = 0;
  #unicodeDigits = 0;

  #numText = '';
  #numState = N_START;
  /** Length of the longest prefix of `numText` that is a complete JSON number. */
  #numValid = 0;

  #literal = '';
  #literalIndex = 0;
  #literalValue: unknown = null;

  /** Whether anything visible may have changed since the last read. */
  #changed = false;
  #cached: unknown = undefined;

  /**
   * Feed the next fragment. Never throws. After an error, further input is ignored (but
   * counted in `consumed`).
   *
   * It never throws because it runs inside a stream handler, where an exception would
   * tear down the whole response for one bad tool input; the failure is kept in `error`
   * instead. Each character is looked at once, so a whole input costs time linear in its
   * length however it is split.
   */
  write(fragment: string): void {
    const base = this.#total;
    this.#total += fragment.length;
    if (this.#failure !== null) return;
    const n = fragment.length;
    let i = 0;
    while (i < n) {
      switch (this.#state) {
        case S_STRING:
          i = this.#scanString(fragment, i, base);
          break;
        case S_NUMBER:
          i = this.#scanNumber(fragment, i, base);
          break;
        case S_ESCAPE:
          i = this.#escape(fragment.charCodeAt(i), i, base);
          break;
        case S_UNICODE:
          i = this.#unicodeDigit(fragment.charCodeAt(i), i, base);
          break;
        case S_LITERAL:
          i = this.#literalChar(fragment.charCodeAt(i), i, base);
          break;
        default:
          i = this.#structural(fragment.charCodeAt(i), i, base);
          break;
      }
    }
  }

  /**
   * Total characters written so far (including after an error), so a caller can line
   * the parser up with the text it buffered itself, e.g. to re-parse a prefix one-shot.
   */
  get consumed(): number {
    return this.#total;
  }

  /**
   * The best-effort value so far; `undefined` before any value has started. Cached: two
   * reads with no write in between return the same object.
   *
   * Snapshots are immutable from the caller's view so that identity-comparing renderers
   * (React memo, signals) can skip unchanged parts: a completed sub-value keeps its
   * identity forever, and an open container on the path to the cursor is a fresh shallow
   * copy only when something inside it changed. A write that changes nothing visible
   * (whitespace, half a literal) leaves the previous snapshot in place.
   */
  value(): unknown {
    if (!this.#changed) return this.#cached;
    this.#changed = false;

    // The scalar in progress, if any, is always the innermost open child.
    let child: unknown;
    let hasChild = false;
    const st = this.#state;
    if ((st === S_STRING || st === S_ESCAPE || st === S_UNICODE) && !this.#strIsKey) {
      hasChild = true;
      child = this.#str;
    } else if (st === S_NUMBER && this.#numValid > 0) {
      hasChild = true;
      const text = this.#numText;
      child = Number(this.#numValid === text.length ? text : text.slice(0, this.#numValid));
    }

    const stack = this.#stack;
    if (stack.length === 0) {
      this.#cached = this.#hasRoot ? this.#root : child;
      return this.#cached;
    }
    // Copy only what changed, bottom-up: a changed child forces a new parent so that
    // snapshots handed out earlier are never mutated; untouched frames reuse theirs.
    let rebuilt = false;
    for (let d = stack.length - 1; d >= 0; d--) {
      const f = stack[d] as Frame;
      if (f.dirty || rebuilt) {
        // The copies are the fastest forms in V8 (bench/src/partial-json.ts measures them):
        // concat allocates the final size once, where slice + push grows; and an
        // Object.assign copy takes a new property faster than a spread copy. Object.assign
        // would call the `__proto__` setter, so an object holding that key takes the safe path.
        if (f.isArray) {
          const items = f.value as unknown[];
          f.snapshot = hasChild ? items.concat([child]) : items.slice();
        } else {
          const live = f.value as JsonObject;
          const copy = f.hasProtoKey ? { ...live } : Object.assign({}, live);
          if (hasChild) setOwn(copy, f.key, child);
          f.snapshot = copy;
        }
        f.dirty = false;
        rebuilt = true;
      }
      child = f.snapshot;
      hasChild = true;
    }
    this.#cached = child;
    return child;
  }

  /**
   * The first syntax error, or null. The value stays what it was before the bad
   * character, so a UI can keep showing what it had while it reports the problem.
   */
  get error(): JsonSyntaxError | null {
    return this.#failure;
  }

  /**
   * True once a complete top-level value has been parsed (trailing whitespace allowed;
   * any other trailing char is an error). Equivalently: JSON.parse would accept the text
   * so far, which is what a caller needs to know before trusting the value as final.
   */
  get done(): boolean {
    if (this.#failure !== null || this.#stack.length !== 0) return false;
    // A top-level number has no terminator of its own: `12` is as complete as JSON.parse
    // considers it, even though a later fragment may extend it to `123`.
    return (
      this.#state === S_END ||
      (this.#state === S_NUMBER && ((N_END_MASK >> this.#numState) & 1) === 1)
    );
  }

  #fail(what: string, position: number): number {
    this.#failure = { message: `${what} at position ${position}`, position };
    // Returning "infinity" as the next index stops the write loop without a flag check
    // per character.
    return Number.POSITIVE_INFINITY;
  }

  /** Fails at character `c`, with what was wanted there (`, expected …`) or where it was. */
  #unexpected(c: number, position: number, context: string): number {
    return this.#fail(`Unexpected ${JSON.stringify(String.fromCharCode(c))}${context}`, position);
  }

  /** Marks the in-progress scalar as changed, which invalidates every open ancestor. */
  #touch(): void {
    this.#changed = true;
    if (this.#top !== null) this.#top.dirty = true;
  }

  /** Hands a completed value to its container (or makes it the root). */
  #emit(value: unknown): void {
    this.#changed = true;
    const f = this.#top;
    if (f === null) {
      this.#root = value;
      this.#hasRoot = true;
      this.#state = S_END;
      return;
    }
    if (f.isArray) (f.value as unknown[]).push(value);
    else {
      setOwn(f.value as JsonObject, f.key, value);
      if (f.key === '__proto__') f.hasProtoKey = true;
    }
    f.dirty = true;
    this.#state = S_AFTER;
  }

  #open(isArray: boolean): void {
    const f = new Frame(isArray);
    this.#stack.push(f);
    this.#top = f;
    this.#changed = true;
    this.#state = isArray ? S_ARRAY_FIRST : S_OBJECT_FIRST;
  }

  #close(): void {
    const stack = this.#stack;
    const f = stack.pop() as Frame;
    this.#top = stack.length === 0 ? null : (stack[stack.length - 1] as Frame);
    // From here on nobody mutates `f.value`, so it is the final, stable identity.
    this.#emit(f.value);
  }

  #startString(isKey: boolean): void {
    this.#str = '';
    this.#strIsKey = isKey;
    this.#pendingHigh = '';
    this.#state = S_STRING;
    if (!isKey) this.#touch();
  }

  #startLiteral(text: string, value: unknown): void {
    this.#literal = text;
    this.#literalIndex = 1;
    this.#literalValue = value;
    this.#state = S_LITERAL;
  }

  #structural(c: number, i: number, base: number): number {
    // JSON whitespace is exactly these four; anything else is significant.
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return i + 1;
    switch (this.#state) {
      case S_VALUE:
        return this.#valueStart(c, i, base);
      case S_ARRAY_FIRST:
        if (c === 0x5d) {
          this.#close();
          return i + 1;
        }
        return this.#valueStart(c, i, base);
      case S_OBJECT_FIRST:
        if (c === 0x7d) {
          this.#close();
          return i + 1;
        }
        if (c === 0x22) {
          this.#startString(true);
          return i + 1;
        }
        return this.#unexpected(c, base + i, ", expected a property name or '}'");
      case S_KEY:
        if (c === 0x22) {
          this.#startString(true);
          return i + 1;
        }
        return this.#unexpected(c, base + i, ', expected a property name');
      case S_COLON:
        if (c === 0x3a) {
          this.#state = S_VALUE;
          return i + 1;
        }
        return this.#unexpected(c, base + i, ", expected ':'");
      case S_AFTER: {
        const f = this.#top as Frame;
        if (c === 0x2c) {
          this.#state = f.isArray ? S_VALUE : S_KEY;
          return i + 1;
        }
        if (c === (f.isArray ? 0x5d : 0x7d)) {
          this.#close();
          return i + 1;
        }
        return this.#unexpected(c, base + i, `, expected ',' or '${f.isArray ? ']' : '}'}'`);
      }
      default:
        return this.#unexpected(c, base + i, ', expected the end');
    }
  }

  #valueStart(c: number, i: number, base: number): number {
    switch (c) {
      case 0x7b:
      case 0x5b:
        if (this.#stack.length >= this.#maxDepth) {
          return this.#fail(`Nesting deeper than ${this.#maxDepth} levels`, base + i);
        }
        this.#open(c === 0x5b);
        return i + 1;
      case 0x22:
        this.#startString(false);
        return i + 1;
      case 0x74:
        this.#startLiteral('true', true);
        return i + 1;
      case 0x66:
        this.#startLiteral('false', false);
        return i + 1;
      case 0x6e:
        this.#startLiteral('null', null);
        return i + 1;
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          this.#numText = '';
          this.#numState = N_START;
          this.#numValid = 0;
          this.#state = S_NUMBER;
          return i; // scanNumber consumes the first character itself
        }
        return this.#unexpected(c, base + i, ', expected a value');
    }
  }

  #scanString(s: string, i: number, base: number): number {
    const n = s.length;
    let j = i;
    let c = 0;
    while (j < n) {
      c = s.charCodeAt(j);
      if (c === 0x22 || c === 0x5c || c < 0x20) break;
      j++;
    }
    if (j > i) {
      if (this.#pendingHigh !== '') {
        this.#str += this.#pendingHigh;
        this.#pendingHigh = '';
      }
      const last = s.charCodeAt(j - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        if (j - 1 > i) this.#str += s.slice(i, j - 1);
        this.#pendingHigh = s.charAt(j - 1);
      } else {
        this.#str += s.slice(i, j);
      }
      if (!this.#strIsKey) this.#touch();
    }
    if (j === n) return n;
    if (c === 0x22) {
      // Closed: a held-back high surrogate is now known to be lone, as JSON.parse keeps it.
      const text = this.#pendingHigh === '' ? this.#str : this.#str + this.#pendingHigh;
      this.#str = '';
      this.#pendingHigh = '';
      if (this.#strIsKey) {
        (this.#top as Frame).key = text;
        this.#state = S_COLON;
      } else {
        this.#emit(text);
      }
      return j + 1;
    }
    if (c === 0x5c) {
      this.#state = S_ESCAPE;
      return j + 1;
    }
    return this.#unexpected(c, base + j, ' in a string');
  }

  #escape(c: number, i: number, base: number): number {
    if (c === 0x75 /* u */) {
      this.#unicode = 0;
      this.#unicodeDigits = 0;
      this.#state = S_UNICODE;
      return i + 1;
    }
    // The characters a backslash may escape, and what each stands for, at the same place.
    const at = '"\\/bfnrt'.indexOf(String.fromCharCode(c));
    if (at < 0) return this.#unexpected(c, base + i, ' in an escape');
    this.#appendUnit('"\\/\b\f\n\r\t'.charAt(at), false);
    return i + 1;
  }

  #unicodeDigit(c: number, i: number, base: number): number {
    // NaN for anything but a hex digit.
    const h = Number.parseInt(String.fromCharCode(c), 16);
    if (Number.isNaN(h)) return this.#unexpected(c, base + i, ' in an escape');
    this.#unicode = this.#unicode * 16 + h;
    if (++this.#unicodeDigits === 4) {
      const u = this.#unicode;
      this.#appendUnit(String.fromCharCode(u), u >= 0xd800 && u <= 0xdbff);
    }
    return i + 1;
  }

  /** Escapes only become visible once complete, so they are appended whole. */
  #appendUnit(unit: string, isHigh: boolean): void {
    if (this.#pendingHigh !== '') {
      this.#str += this.#pendingHigh;
      this.#pendingHigh = '';
    }
    if (isHigh) this.#pendingHigh = unit;
    else this.#str += unit;
    this.#state = S_STRING;
    if (!this.#strIsKey) this.#touch();
  }

  #literalChar(c: number, i: number, base: number): number {
    if (c !== this.#literal.charCodeAt(this.#literalIndex)) {
      return this.#unexpected(c, base + i, ` in ${this.#literal}`);
    }
    if (++this.#literalIndex === this.#literal.length) this.#emit(this.#literalValue);
    return i + 1;
  }

  #scanNumber(s: string, i: number, base: number): number {
    const n = s.length;
    // Index in `numText` of fragment index j is `shift + j`.
    const shift = this.#numText.length - i;
    let ns = this.#numState;
    let valid = this.#numValid;
    let j = i;
    scan: while (j < n) {
      const c = s.charCodeAt(j);
      const digit = c >= 0x30 && c <= 0x39;
      switch (ns) {
        case N_START:
          if (c === 0x2d) ns = N_MINUS;
          else ns = c === 0x30 ? N_ZERO : N_INT; // valueStart only lets '-' or a digit in
          break;
        case N_MINUS:
          if (c === 0x30) ns = N_ZERO;
          else if (digit) ns = N_INT;
          else break scan;
          break;
        case N_ZERO:
          if (c === 0x2e) ns = N_DOT;
          else if (c === 0x65 || c === 0x45) ns = N_EXP;
          else break scan;
          break;
        case N_INT:
          if (c === 0x2e) ns = N_DOT;
          else if (c === 0x65 || c === 0x45) ns = N_EXP;
          else if (!digit) break scan;
          break;
        case N_DOT:
          if (digit) ns = N_FRAC;
          else break scan;
          break;
        case N_FRAC:
          if (c === 0x65 || c === 0x45) ns = N_EXP;
          else if (!digit) break scan;
          break;
        case N_EXP:
          if (c === 0x2b || c === 0x2d) ns = N_EXP_SIGN;
          else if (digit) ns = N_EXP_DIGITS;
          else break scan;
          break;
        case N_EXP_SIGN:
          if (digit) ns = N_EXP_DIGITS;
          else break scan;
          break;
        default:
          if (!digit) break scan;
          break;
      }
      j++;
      if (((N_END_MASK >> ns) & 1) === 1) valid = shift + j;
    }
    if (j > i) this.#numText += s.slice(i, j);
    this.#numState = ns;
    if (valid !== this.#numValid) {
      this.#numValid = valid;
      this.#touch();
    }
    if (j === n) return n;
    const c = s.charCodeAt(j);
    if (ns === N_ZERO && c >= 0x30 && c <= 0x39) {
      return this.#unexpected(c, base + j, ' after a leading zero');
    }
    if (((N_END_MASK >> ns) & 1) === 1) {
      const value = Number(this.#numText);
      this.#numText = '';
      this.#emit(value);
      return j; // the terminator is handled by the state the container is now in
    }
    // After a minus sign, a decimal point or an exponent's `e` or sign.
    return this.#unexpected(c, base + j, ', expected a digit');
  }
}

/**
 * One-shot convenience: parse a (possibly partial) text, for callers that already hold
 * the accumulated text (e.g. when restoring a stream) and need no incremental reads.
 */
export function parsePartialJson(
  text: string,
  options: PartialJsonOptions = {},
): {
  value: unknown;
  error: JsonSyntaxError | null;
  done: boolean;
} {
  const parser = new PartialJsonParser(options);
  parser.write(text);
  return { value: parser.value(), error: parser.error, done: parser.done };
}
