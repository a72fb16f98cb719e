import type { ReactElement } from 'react';
import { isPlainObject, readKey, toText } from './format.js';
import { toolParts } from './tool-parts-loader.js';

export interface JsonViewProps {
  /** The value to show, formatted with colours (a tool's input, possibly still partial). */
  value: unknown;
  /** The exact JSON text received, for the Raw view and its Copy; without it there is no Raw. */
  raw?: string | undefined;
  /** The value is still arriving: the view is `aria-busy`, and stays bounded (no "Show all"). */
  busy?: boolean | undefined;
  /** Names the view for assistive technology ("search input"). */
  label: string;
  /** What to say when there is nothing to show yet. */
  emptyText?: string | undefined;
  /** Extra class names on the root element, for your own styles. */
  className?: string | undefined;
}

/**
 * JSON, readable: indented, keys, strings, numbers and literals in their own colours, a string
 * with line breaks (a file's content) shown on real lines, and a Raw view of the exact text.
 * Copy gives valid JSON: the formatted value (escapes intact) or the raw text, built only when
 * pressed. Only the first `JSON_VIEW_LIMITS` of a large value are drawn, each render costing
 * that much at most however large the value grows; once the value is complete, "Show all"
 * draws the rest.
 *
 * Its code loads on demand with the other tool parts (`ToolCallCard` asks for it when a call
 * appears); until then it shows a one-line placeholder in the same frame.
 */
export const JsonView: (props: JsonViewProps) => ReactElement = toolParts.part(
  'JsonView',
  (parts) => parts.JsonViewBody,
  ({ className, label, busy }) => (
    // biome-ignore lint/a11y/useSemanticElements: a named group standing in for the view, not a form's fieldset.
    <div role="group" aria-label={label} className={className ? `ms-json ${className}` : 'ms-json'}>
      <p className="ms-tool__empty" aria-busy={busy || undefined}>
        Loading…
      </p>
    </div>
  ),
);

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
