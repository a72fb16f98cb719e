import {
  type CSSProperties,
  memo,
  type ReactElement,
  useLayoutEffect,
  useMemo,
  useRef,
} from 'react';
import type { CodeRunsSnapshot, CodeTokensSource } from '../highlight/client.js';
import type { CodeRunsLine, StyleView } from '../highlight/runs.js';
import { tokensForLine } from '../highlight/tokens.js';
import { useCodeTokensSnapshot, useCodeTokensSource } from '../highlight/use-code-tokens.js';
import { CodeBlockFrame, type CodeBlockProps, codeBlockNames } from './code-block.js';
import { GROUP, type SplitCode, splitLines } from './code-lines.js';
import { CopyButton } from './copy-button.js';
import { cx } from './cx.js';
import { ScrollablePre } from './scrollable.js';

/** `CodeBlock` once its chunk has loaded (code-block.tsx draws the block until then). */
export const CodeBlockBody = memo(function CodeBlockBody({
  code,
  language,
  highlight = true,
  download,
  className,
}: CodeBlockProps): ReactElement {
  const { lang, label } = codeBlockNames(language);
  const source = useCodeTokensSource(code, lang, highlight);
  return (
    <CodeBlockFrame
      language={lang}
      className={className}
      busy={false}
      actions={
        <>
          {download ? <DownloadButton code={code} fileName={fileNameFor(download, lang)} /> : null}
          <CopyButton text={code} ariaLabel={`Copy ${label.toLowerCase()}`} />
        </>
      }
    >
      <ScrollablePre className="ms-code__pre" aria-label={label}>
        <CodeBody code={code} lang={lang} source={source} />
      </ScrollablePre>
    </CodeBlockFrame>
  );
});

/**
 * The lines, in memoized groups. Its own component, subscribed to the tokens: when colours
 * arrive (after the block has finished, say) this re-renders, and the groups whose tokens
 * changed, while the block's frame and header do not.
 */
function CodeBody({
  code,
  lang,
  source,
}: {
  code: string;
  lang: string | undefined;
  source: CodeTokensSource | null;
}): ReactElement {
  const snapshot = useCodeTokensSnapshot(source);
  // Against what was last committed, so a frame of a growing block splits only its last line
  // and keeps every other group's arrays (splitting 2,000 lines each frame was work and
  // garbage that grew with the block).
  const committed = useRef<{ lines: SplitCode; tokens: (readonly TokenOrNull[])[] } | null>(null);
  const lines = useMemo(() => splitLines(code, committed.current?.lines ?? null), [code]);
  const tokens = lines.groups.map((group, g) =>
    groupTokens(snapshot, g * GROUP, g * GROUP + group.length, committed.current?.tokens[g]),
  );
  useLayoutEffect(() => {
    committed.current = { lines, tokens };
  });
  const groups = lines.groups.map((texts, g) => (
    <CodeLines
      // biome-ignore lint/suspicious/noArrayIndexKey: a group's position is its identity.
      key={g}
      texts={texts}
      tokens={tokens[g] as readonly TokenOrNull[]}
      lastLine={g === lines.groups.length - 1}
    />
  ));
  return (
    <code
      className={cx(
        'ms-code__code',
        lang && `language-${lang}`,
        snapshot !== null && 'ms-code--highlighted',
      )}
    >
      {groups}
    </code>
  );
}

type TokenOrNull = CodeRunsLine | null;

/** A group's tokens; `previous` itself when every line has the same tokens as in it. */
function groupTokens(
  snapshot: CodeRunsSnapshot | null,
  start: number,
  end: number,
  previous: readonly TokenOrNull[] | undefined,
): readonly TokenOrNull[] {
  if (previous !== undefined && previous.length === end - start) {
    let same = true;
    for (let i = start; i < end && same; i++)
      same = previous[i - start] === tokensForLine(snapshot, i);
    if (same) return previous;
  }
  const out: TokenOrNull[] = [];
  for (let i = start; i < end; i++) out.push(tokensForLine(snapshot, i));
  return out;
}

interface CodeLinesProps {
  texts: readonly string[];
  tokens: readonly (CodeRunsLine | null)[];
  /** The group ends with the block's last line, the one that may still be growing. */
  lastLine: boolean;
}

/**
 * A group of lines in a box of its own (`display: block`, content.css): a line that changes
 * lays out its group again, not every line of the block, which at 2,000 lines was most of each
 * frame's work while a code answer streamed.
 */
const CodeLines = memo(function CodeLines({ texts, tokens, lastLine }: CodeLinesProps) {
  const group = useRef<HTMLSpanElement>(null);
  /** Per line, what its runs were last drawn from: its text, its runs (or none) and whether it grew. */
  const drawn = useRef<{ texts: string[]; runs: (CodeRunsLine | null)[]; growing: number }>({
    texts: [],
    runs: [],
    growing: -1,
  });
  // The highlighted lines' runs, drawn before the frame paints: one effect for the group, not
  // one per line (an effect, a ref and their closures per line were most of what each line
  // still kept once its runs were no longer React's).
  useLayoutEffect(() => {
    const lines = group.current?.children;
    if (lines === undefined) return;
    const last = drawn.current;
    const growing = lastLine ? texts.length - 1 : -1;
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i] as string;
      const line = tokens[i] ?? null;
      const same = last.texts[i] === text && last.runs[i] === line;
      if (same && (i === growing) === (i === last.growing)) continue;
      const shown = shownRuns(text, line, i === growing);
      const element = lines[i];
      if (shown !== null && element !== undefined) drawRuns(element as HTMLElement, shown, text);
      last.texts[i] = text;
      last.runs[i] = line;
    }
    last.texts.length = texts.length;
    last.runs.length = texts.length;
    last.growing = growing;
  });
  return (
    <span
      ref={group}
      className="ms-code__group"
      style={{ '--ms-code-lines': texts.length } as CSSProperties}
    >
      {texts.map((text, i) => (
        <CodeLine
          // biome-ignore lint/suspicious/noArrayIndexKey: a line's position is its identity.
          key={i}
          text={text}
          tokens={tokens[i] ?? null}
          growing={lastLine && i === texts.length - 1}
        />
      ))}
    </span>
  );
}, sameLines);

function sameLines(a: CodeLinesProps, b: CodeLinesProps): boolean {
  if (a.texts === b.texts && a.tokens === b.tokens) return a.lastLine === b.lastLine;
  if (a.texts.length !== b.texts.length || a.lastLine !== b.lastLine) return false;
  for (let i = 0; i < a.texts.length; i++) {
    if (a.texts[i] !== b.texts[i] || a.tokens[i] !== b.tokens[i]) return false;
  }
  return true;
}

/**
 * One line and its newline (the last line's too, as in the markdown source, so the text of the
 * block reads as the fence's content). Highlighted or plain, it is the same `<span>` with the
 * same text, so the layout does not change when colours arrive; each coloured run is a child
 * `<span>` whose colours come from CSS variables, and the stylesheet picks the light or the
 * dark one.
 *
 * A finished line shows tokens made from exactly its text, or none. The growing last line keeps
 * the tokens of its text a moment ago, with what was typed since plain after them: its tokens
 * come back a frame later, and dropping the colours meanwhile would make it flicker.
 *
 * React draws the line and its plain text; a highlighted line's runs are drawn into it by its
 * group before the frame paints (`drawRuns`), with the DOM's own methods (text nodes, never
 * HTML). As React children, every run was a fiber, a props object and its text kept for good:
 * at 5,000 highlighted lines some 86,000 fibers (8.6 MB), more than everything else the answer
 * kept, and each of them work in the frame that coloured its line.
 */
const CodeLine = memo(function CodeLine({
  text,
  tokens,
  growing,
}: {
  text: string;
  tokens: CodeRunsLine | null;
  growing: boolean;
}) {
  // With runs, React renders the line empty (clearing its text first): its group draws them.
  return (
    <>
      <span className="ms-code__line">
        {shownRuns(text, tokens, growing) === null ? text : null}
      </span>
      {'\n'}
    </>
  );
});

/**
 * The runs a line shows: made from exactly its text, or for the growing last line from the
 * start of it (the rest plain), else none.
 */
function shownRuns(
  text: string,
  tokens: CodeRunsLine | null,
  growing: boolean,
): CodeRunsLine | null {
  const covered = tokens === null ? -1 : tokens.cover(text);
  return covered === text.length || (growing && covered > 0) ? tokens : null;
}

/**
 * Draws a line's runs into `line`: text in the block's own colour as a text node, every other
 * run a span with its style's class and colours, then the rest of `text` (typed since the runs
 * were made) plain. What is there already is kept where it still fits, node for node, as React
 * kept its elements: a line that stops growing keeps the same spans.
 */
export function drawRuns(line: HTMLElement, runs: CodeRunsLine, text: string): void {
  const all = runs.batch.runs;
  let next: ChildNode | null = line.firstChild;
  let at = 0;
  for (let run = runs.firstRun; run < runs.endRun; run++) {
    const length = all[run * 2] as number;
    const view = runs.styles[all[run * 2 + 1] as number];
    const content = text.slice(at, at + length);
    at += length;
    next =
      view === undefined || view.plain
        ? drawText(line, next, content)
        : drawSpan(line, next, view, content);
  }
  if (at < text.length) next = drawText(line, next, text.slice(at));
  while (next !== null) {
    const after: ChildNode | null = next.nextSibling;
    next.remove();
    next = after;
  }
}

/** A text node with `content` at `next` (an empty run has none); returns what follows it. */
function drawText(line: HTMLElement, next: ChildNode | null, content: string): ChildNode | null {
  if (content === '') return next;
  if (next !== null && next.nodeType === Node.TEXT_NODE) {
    if (next.nodeValue !== content) next.nodeValue = content;
    return next.nextSibling;
  }
  line.insertBefore(document.createTextNode(content), next);
  return next;
}

/** A run's span at `next`; returns what follows it. */
function drawSpan(
  line: HTMLElement,
  next: ChildNode | null,
  view: StyleView,
  content: string,
): ChildNode | null {
  if (next !== null && next.nodeName === 'SPAN') {
    const span = next as HTMLElement;
    if (span.className !== view.className) span.className = view.className;
    setColour(span, '--ms-tok-light', view.light);
    setColour(span, '--ms-tok-dark', view.dark);
    if (span.textContent !== content) span.textContent = content;
    return span.nextSibling;
  }
  const span = document.createElement('span');
  span.className = view.className;
  if (view.light !== undefined) span.style.setProperty('--ms-tok-light', view.light);
  if (view.dark !== undefined) span.style.setProperty('--ms-tok-dark', view.dark);
  span.textContent = content;
  line.insertBefore(span, next);
  return next;
}

function setColour(span: HTMLElement, name: string, colour: string | undefined): void {
  const now = span.style.getPropertyValue(name);
  if (colour === undefined) {
    if (now !== '') span.style.removeProperty(name);
  } else if (now !== colour) {
    span.style.setProperty(name, colour);
  }
}

function DownloadButton({ code, fileName }: { code: string; fileName: string }): ReactElement {
  const save = () => {
    if (typeof URL.createObjectURL !== 'function') return;
    const url = URL.createObjectURL(new Blob([code], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    // After the click has been handled: revoking at once can cancel the download in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <button
      type="button"
      className="ms-code__download"
      onClick={save}
      aria-label={`Download ${fileName}`}
    >
      Download
    </button>
  );
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  bash: 'sh',
  javascript: 'js',
  js: 'js',
  jsx: 'jsx',
  markdown: 'md',
  python: 'py',
  py: 'py',
  ruby: 'rb',
  rust: 'rs',
  shell: 'sh',
  sh: 'sh',
  typescript: 'ts',
  ts: 'ts',
  tsx: 'tsx',
  yaml: 'yml',
  zsh: 'sh',
};

/** The file name Download uses: the given name, or `code.<extension>` from the language. */
export function fileNameFor(download: true | string, language: string | undefined): string {
  if (typeof download === 'string' && download.trim() !== '') return download.trim();
  const lang = language?.toLowerCase() ?? '';
  const ext = Object.hasOwn(EXTENSIONS, lang)
    ? EXTENSIONS[lang]
    : /^[a-z0-9]{1,8}$/.test(lang)
      ? lang
      : 'txt';
  return `code.${ext}`;
}
