import { memo, type ReactElement, type ReactNode, useLayoutEffect, useMemo, useRef } from 'react';
import type { CodeRunsSnapshot, CodeTokensSource } from '../highlight/client.js';
import type { CodeRunsLine } from '../highlight/runs.js';
import { startsWithText, tokensForLine } from '../highlight/tokens.js';
import { useCodeTokensSnapshot, useCodeTokensSource } from '../highlight/use-code-tokens.js';
import { CodeBlockFrame, type CodeBlockProps, codeBlockNames } from './code-block.js';
import { CopyButton } from './copy-button.js';
import { cx } from './cx.js';
import { ScrollablePre } from './scrollable.js';

/** Lines per memoized group: a growing block re-renders its last group, not every line. */
const GROUP = 64;

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

/** A block's lines in groups of `GROUP`, and where its last line starts. */
export interface SplitCode {
  readonly code: string;
  readonly groups: readonly (readonly string[])[];
  readonly lastLineStart: number;
}

/**
 * `code` split into lines, in groups of `GROUP`. When `code` only grew from `previous`'s code,
 * only its last line onwards is split again, and every group before the last keeps its array.
 */
export function splitLines(code: string, previous: SplitCode | null): SplitCode {
  if (previous === null || !startsWithText(code, previous.code)) {
    const groups: string[][] = [];
    const all = ownLines(code);
    for (let start = 0; start < all.length; start += GROUP) {
      groups.push(all.slice(start, start + GROUP));
    }
    return { code, groups, lastLineStart: code.lastIndexOf('\n') + 1 };
  }
  if (code.length === previous.code.length) return previous;
  const groups = previous.groups.slice(0, -1);
  // The last group again, less its last line (the one that grew), then the new lines.
  let current = (previous.groups.at(-1) as readonly string[]).slice(0, -1);
  let lastLineStart = previous.lastLineStart;
  const fresh = ownLines(code.slice(lastLineStart));
  for (let i = 0; i < fresh.length; i++) {
    const line = fresh[i] as string;
    if (current.length === GROUP) {
      groups.push(current);
      current = [];
    }
    current.push(line);
    if (i < fresh.length - 1) lastLineStart += line.length + 1;
  }
  groups.push(current);
  return { code, groups, lastLineStart };
}

/**
 * `text`'s lines, as strings of their own. A substring (`split`, `slice`) points into the
 * string it was cut from and keeps all of it alive (V8's sliced strings), and a streaming
 * block's text is each frame a new copy of the whole answer: lines cut from it kept one copy
 * of the answer per frame that split them (a 2,000-line answer kept some forty, 4 MB, which
 * minor GCs copied and promoted). Cut from `text` plus a newline, a new string the engine
 * makes flat before splitting it, the lines keep only that copy of the new text.
 */
function ownLines(text: string): string[] {
  const lines = `${text}\n`.split('\n');
  lines.pop();
  return lines;
}

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
  return (
    <span className="ms-code__group">
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
 * same text, so the layout does not change when colours arrive; each token is a child `<span>`
 * whose colours come from CSS variables, and the stylesheet picks the light or the dark one.
 *
 * A finished line shows tokens made from exactly its text, or none. The growing last line keeps
 * the tokens of its text a moment ago, with what was typed since plain after them: its tokens
 * come back a frame later, and dropping the colours meanwhile would make it flicker.
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
  const covered = tokens === null ? -1 : tokens.cover(text);
  const shown = covered === text.length || (growing && covered > 0) ? tokens : null;
  return (
    <>
      <span className="ms-code__line">
        {shown === null ? text : runs(shown, text)}
        {shown !== null && covered < text.length ? text.slice(covered) : null}
      </span>
      {'\n'}
    </>
  );
});

/**
 * A line's runs as children: text in the block's own colour as it is, every other run a span
 * whose colours come from its style (one style object per style, shared by its runs). The
 * runs' text is cut from the line's own text, which they spell.
 */
function runs(line: CodeRunsLine, text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const all = line.batch.runs;
  let at = 0;
  for (let run = line.firstRun; run < line.endRun; run++) {
    const length = all[run * 2] as number;
    const view = line.styles[all[run * 2 + 1] as number];
    const content = text.slice(at, at + length);
    at += length;
    out.push(
      view === undefined || view.plain ? (
        content
      ) : (
        // A run's position is its key (the runs of a finished line never change).
        <span key={out.length} className={view.className} style={view.style}>
          {content}
        </span>
      ),
    );
  }
  return out;
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
