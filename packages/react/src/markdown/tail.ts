import type { OpenFence } from './split.js';

/**
 * Makes the growing end of a streaming answer display sensibly. Markdown read mid-token shows
 * its syntax for a moment (`**`, a bare `[`, half a URL, a bullet that is about to become a
 * heading) and then snaps into shape; this hides what is not settled yet instead.
 *
 * Apply it to the last chunk only, and only while the text is streaming: finished text is
 * rendered exactly as written.
 */
export function repairStreamingTail(text: string, openFence: OpenFence | null): string {
  if (openFence) return closeFence(text, openFence);
  let out = dropUnsettledLine(text);
  out = unwrapHalfLink(out);
  out = dropDanglingMarker(out);
  return out;
}

/**
 * An open fence is closed virtually, so the code renders as a code block right away. A closing
 * run still being typed is dropped (it is not code), and so is an opening line whose info
 * string (the language) is still arriving.
 */
function closeFence(text: string, fence: OpenFence): string {
  if (fence.openerIncomplete) return text.slice(0, fence.lineStart).replace(/\s+$/, '');
  let body = text;
  const lastNewline = body.lastIndexOf('\n');
  if (lastNewline >= fence.lineStart) {
    const last = body.slice(lastNewline + 1);
    const run = /^ {0,3}(`+|~+)$/.exec(last)?.[1];
    if (run !== undefined && run.charAt(0) === fence.marker.charAt(0)) {
      body = body.slice(0, lastNewline);
    }
  }
  return `${body.endsWith('\n') ? body : `${body}\n`}${fence.indent}${fence.marker}`;
}

/**
 * A last line that is nothing but block syntax (`-`, `#`, `1.`, `===`, `*`) would render as an
 * empty bullet, an empty heading or turn the line above into a heading for one frame.
 */
function dropUnsettledLine(text: string): string {
  const lastNewline = text.lastIndexOf('\n');
  const last = text.slice(lastNewline + 1);
  if (/^[ \t]*(?:[-+*=_#~`>]+|\d{1,9}[.)]?)[ \t]*$/.test(last)) {
    return lastNewline === -1 ? '' : text.slice(0, lastNewline);
  }
  return text;
}

/** `[text`, `[text]`, `[text](http://exa` and images alike show as their text until complete. */
function unwrapHalfLink(text: string): string {
  const lineStart = text.lastIndexOf('\n') + 1;
  const line = text.slice(lineStart);
  const match = /!?\[([^[\]\n]*)(\](\([^()\n]*)?)?$/.exec(line);
  if (!match) return text;
  const label = match[1] ?? '';
  // `[^1]` is a footnote reference and `[ ]` / `[x]` a task list box: both are complete.
  if (match[2] !== undefined && match[3] === undefined && /^(?:\^.*|[ xX])$/.test(label)) {
    return text;
  }
  // An odd number of backticks before it: the bracket is inside an inline code span.
  if (countOf(line.slice(0, match.index), '`') % 2 === 1) return text;
  return text.slice(0, lineStart + match.index) + label;
}

/**
 * A run of `*`, `_`, `~` or backticks at the very end is dropped when it cannot be closing
 * something: it follows whitespace (an opener with nothing after it yet), or the paragraph has
 * an odd number of that character (the run is unmatched, or half of a closing `**`).
 */
function dropDanglingMarker(text: string): string {
  const match = /(\*+|_+|~+|`+)$/.exec(text);
  if (!match) return text;
  const run = match[1] as string;
  const at = match.index;
  const before = at === 0 ? '' : text.charAt(at - 1);
  const char = run.charAt(0);
  const paragraphStart = text.lastIndexOf('\n\n') + 1;
  let paragraph = text.slice(paragraphStart);
  if (char !== '`') paragraph = paragraph.replace(/(`+)[^`]*?\1/g, '');
  const dangling = before === '' || /\s/.test(before) || countOf(paragraph, char) % 2 === 1;
  return dangling ? text.slice(0, at) : text;
}

function countOf(text: string, char: string): number {
  let count = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) count++;
  return count;
}
