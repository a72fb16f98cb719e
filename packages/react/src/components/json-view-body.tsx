import { memo, type ReactElement, type ReactNode, useState } from 'react';
import { CopyButton } from './copy-button.js';
import { isPlainObject, readKey, toJson, toText } from './format.js';
import type { JsonViewProps } from './json-view.js';
import { JSON_VIEW_LIMITS } from './json-view-limits.js';
import { ScrollablePre } from './scrollable.js';

type Mode = 'formatted' | 'raw';
const VIEWS: readonly (readonly [Mode, string])[] = [
  ['formatted', 'Formatted'],
  ['raw', 'Raw'],
];

/** What `JsonView` draws once the tool parts have loaded (see `JsonView`). */
export const JsonViewBody = memo(function JsonViewBody({
  value,
  raw,
  busy,
  label,
  emptyText = 'No input',
  className,
}: JsonViewProps): ReactElement {
  const [mode, setMode] = useState<Mode>('formatted');
  const [all, setAll] = useState(false);
  // While the value streams, every render stays bounded, even after "Show all".
  const limits =
    all && !busy
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
            {VIEWS.map(([view, name]) => (
              <button
                key={view}
                type="button"
                className="ms-tool__view"
                aria-pressed={mode === view}
                onClick={() => setMode(view)}
              >
                {name}
              </button>
            ))}
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
          {busy ? (
            'Showing the start of a large value while it arrives.'
          ) : (
            <>
              Showing the start of a large value.{' '}
              <button type="button" className="ms-tool__action" onClick={() => setAll(true)}>
                Show all
              </button>
            </>
          )}
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

/** Control characters other than the line breaks (tabs stay tabs) as JSON escapes. */
function escapeControl(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  return text.replace(/[\u0000-\u0008\u000b-\u001f"\\]/g, (char) =>
    JSON.stringify(char).slice(1, -1),
  );
}
