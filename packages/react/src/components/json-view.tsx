import { memo, type ReactElement, type ReactNode, useState } from 'react';
import { CopyButton } from './copy-button.js';
import { isPlainObject, toJson, toText } from './format.js';
import { ScrollablePre } from './scrollable.js';

/** How much of a value is drawn before "Show all": a streaming 1 MB input stays one cheap frame. */
export const JSON_VIEW_LIMITS = { lines: 400, chars: 40_000 } as const;

export interface JsonViewProps {
  /** The value to show, formatted with colours (a tool's input, possibly still partial). */
  value: unknown;
  /** The exact JSON text received, for the Raw view and its Copy; without it there is no Raw. */
  raw?: string | undefined;
  /** The value is still arriving: the view is `aria-busy`. */
  busy?: boolean | undefined;
  /** Names the view for assistive technology ("search input"). */
  label: string;
  /** What to say when there is nothing to show yet. */
  emptyText?: string | undefined;
  /** Extra class names on the root element, for your own styles. */
  className?: string | undefined;
}

type Mode = 'formatted' | 'raw';

/**
 * JSON, readable: indented, keys, strings, numbers and literals in their own colours, a string
 * with line breaks (a file's content) shown on real lines, and a Raw view of the exact text.
 * Copy gives valid JSON: the formatted value (escapes intact) or the raw text, built only when
 * pressed. Only the first `JSON_VIEW_LIMITS` of a large value are drawn, each render costing
 * that much at most however large the value grows; "Show all" draws the rest.
 */
export const JsonView = memo(function JsonView({
  value,
  raw,
  busy,
  label,
  emptyText = 'No input',
  className,
}: JsonViewProps): ReactElement {
  const [mode, setMode] = useState<Mode>('formatted');
  const [all, setAll] = useState(false);
  const limits = all
    ? { lines: Number.POSITIVE_INFINITY, chars: Number.POSITIVE_INFINITY }
    : JSON_VIEW_LIMITS;
  const showRaw = mode === 'raw' && typeof raw === 'string';
  const empty = showRaw ? raw === '' : value === undefined;

  let body: ReactNode;
  let truncated = false;
  if (showRaw) {
    truncated = raw.length > limits.chars;
    body = truncated ? raw.slice(0, limits.chars) : raw;
  } else {
    const drawn = drawJson(value, limits);
    truncated = drawn.truncated;
    body = drawn.lines;
  }

  return (
    <div className={className ? `ms-json ${className}` : 'ms-json'}>
      <div className="ms-json__toolbar">
        {typeof raw === 'string' ? (
          // biome-ignore lint/a11y/useSemanticElements: two toggle buttons, not a form's fieldset.
          <div className="ms-tool__views" role="group" aria-label={`${label} view`}>
            <button
              type="button"
              className="ms-tool__view"
              aria-pressed={mode === 'formatted'}
              onClick={() => setMode('formatted')}
            >
              Formatted
            </button>
            <button
              type="button"
              className="ms-tool__view"
              aria-pressed={mode === 'raw'}
              onClick={() => setMode('raw')}
            >
              Raw
            </button>
          </div>
        ) : null}
        <CopyButton
          text={() => (showRaw ? raw : toJson(value))}
          ariaLabel={`Copy ${label}`}
          className="ms-tool__copy"
        />
      </div>
      {empty ? (
        <p className="ms-tool__empty">{emptyText}</p>
      ) : (
        <ScrollablePre
          className="ms-tool__code ms-json__code"
          aria-label={label}
          aria-busy={busy || undefined}
        >
          <code>{body}</code>
        </ScrollablePre>
      )}
      {truncated ? (
        <p className="ms-json__more">
          Showing the start of a large value.{' '}
          <button type="button" className="ms-tool__action" onClick={() => setAll(true)}>
            Show all
          </button>
        </p>
      ) : null}
    </div>
  );
});

interface Limits {
  lines: number;
  chars: number;
}

/**
 * Draws `value` as indented JSON lines of coloured spans, stopping at `limits`. The walk never
 * visits more of the value than it draws, so its cost is bounded by the limits.
 */
export function drawJson(
  value: unknown,
  limits: Limits,
): { lines: ReactNode[]; truncated: boolean } {
  const lines: ReactNode[] = [];
  let line: ReactNode[] = [];
  let chars = 0;
  let stopped = false;
  const seen = new WeakSet<object>();

  const put = (text: string, kind?: string) => {
    if (stopped) return;
    let shown = text;
    if (chars + shown.length > limits.chars) {
      shown = shown.slice(0, Math.max(0, limits.chars - chars));
      stopped = true;
    }
    chars += shown.length;
    line.push(
      kind ? (
        <span key={line.length} className={`ms-json__${kind}`}>
          {shown}
        </span>
      ) : (
        shown
      ),
    );
  };
  const endLine = () => {
    if (line.length > 0 || !stopped) {
      lines.push(
        <span key={lines.length} className="ms-json__line">
          {lines.length > 0 ? '\n' : null}
          {line}
        </span>,
      );
    }
    line = [];
    if (lines.length >= limits.lines) stopped = true;
  };

  const string = (full: string, indent: string) => {
    // Cut first: a 1 MB string costs what is drawn of it, not its length.
    const budget = Math.max(0, limits.chars - chars);
    const text = full.length > budget ? full.slice(0, budget) : full;
    const cut = text !== full;
    if (!text.includes('\n')) {
      const json = JSON.stringify(text);
      put(cut ? json.slice(0, -1) : json, 'string');
    } else {
      // A multi-line string (a file, a diff) on its real lines, indented under its key.
      const parts = text.split('\n');
      put('"', 'string');
      parts.forEach((part, i) => {
        if (stopped) return;
        if (i > 0) {
          endLine();
          put(`${indent}  `);
        }
        put(escapeControl(part), 'string');
      });
      if (!cut) put('"', 'string');
    }
    if (cut) stopped = true;
  };

  const walk = (node: unknown, indent: string) => {
    if (stopped) return;
    if (node === null) return put('null', 'literal');
    switch (typeof node) {
      case 'string':
        return string(node, indent);
      case 'number':
        return put(Number.isFinite(node) ? String(node) : 'null', 'number');
      case 'boolean':
        return put(String(node), 'literal');
      case 'bigint':
        return put(String(node), 'number');
      case 'object':
        break;
      default:
        return put(toText(node), 'literal');
    }
    const object = node as object;
    if (seen.has(object)) return put('"[Circular]"', 'string');
    seen.add(object);
    const isArray = Array.isArray(object);
    const keys = isArray ? null : isPlainObject(object) ? Object.keys(object) : [];
    const count = isArray ? (object as unknown[]).length : (keys?.length ?? 0);
    const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
    if (count === 0) return put(`${open}${close}`, 'punct');
    put(open, 'punct');
    const inner = `${indent}  `;
    for (let i = 0; i < count && !stopped; i++) {
      endLine();
      put(inner);
      const key = keys?.[i];
      if (key !== undefined) {
        put(JSON.stringify(key), 'key');
        put(': ', 'punct');
      }
      walk(
        key !== undefined
          ? readKey(object as Record<string, unknown>, key)
          : (object as unknown[])[i],
        inner,
      );
      if (i < count - 1) put(',', 'punct');
    }
    endLine();
    put(indent);
    put(close, 'punct');
    seen.delete(object);
  };

  walk(value, '');
  if (line.length > 0) endLine();
  return { lines, truncated: stopped };
}

function readKey(record: Record<string, unknown>, key: string): unknown {
  try {
    return record[key];
  } catch {
    return undefined;
  }
}

/** Control characters other than the line breaks (tabs stay tabs) as JSON escapes. */
function escapeControl(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  return text.replace(/[\u0000-\u0008\u000b-\u001f"\\]/g, (char) =>
    JSON.stringify(char).slice(1, -1),
  );
}

/**
 * A one-line summary of a tool input for its compact row: the first fields as `key: value`,
 * long and multi-line strings shortened. Reads no more of the value than it shows.
 */
export function summarizeInput(value: unknown, max = 120): string {
  if (value === undefined) return '';
  if (!isPlainObject(value)) return shorten(oneLine(value), max);
  const parts: string[] = [];
  let length = 0;
  for (const key of Object.keys(value)) {
    const part = `${key}: ${shorten(oneLine(readKey(value, key)), 60)}`;
    parts.push(part);
    length += part.length + 2;
    if (length >= max || parts.length === 3) break;
  }
  return shorten(parts.join(', '), max);
}

function oneLine(value: unknown): string {
  if (typeof value === 'string') return value.slice(0, 200).replace(/\s+/g, ' ').trim();
  if (Array.isArray(value)) return `[${value.length} item${value.length === 1 ? '' : 's'}]`;
  if (isPlainObject(value)) return '{…}';
  return toText(value);
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
