/**
 * The TypeScript code blocks of the repo's READMEs, read from the files themselves so that
 * editing an example edits what the README test runs. A block whose info string carries
 * `no-run` (```ts no-run) is an excerpt (a type, a config shape) and is only listed.
 */
import { readFileSync } from 'node:fs';

export interface ReadmeBlock {
  readonly file: string;
  /** 1-based line of the opening fence, for failure messages. */
  readonly line: number;
  readonly lang: 'ts' | 'tsx';
  readonly run: boolean;
  readonly code: string;
}

/**
 * An opening fence: three or more backticks (four around an example that holds a fence), the
 * language, then the rest of the info string.
 */
const FENCE = /^(`{3,})(\w+)?([^\n]*)$/;

/** The READMEs whose examples are run and type-checked, from the repository's root. */
export const READMES = [
  'README.md',
  'packages/core/README.md',
  'packages/react/README.md',
  'packages/mock/README.md',
] as const;

export function readmeBlocks(file: string): ReadmeBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '');
    if (!open) continue;
    const start = i;
    // Closed by a line of backticks alone, at least as many as opened it (CommonMark).
    const close = new RegExp(`^\`{${(open[1] ?? '```').length},}\\s*$`);
    const body: string[] = [];
    for (i++; i < lines.length && !close.test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
    const lang = open[2];
    if (lang !== 'ts' && lang !== 'tsx') continue;
    const info = (open[3] ?? '').trim().split(/\s+/);
    blocks.push({
      file,
      line: start + 1,
      lang,
      run: !info.includes('no-run'),
      code: body.join('\n'),
    });
  }
  return blocks;
}

/**
 * Names the README examples leave to the reader (the app's own render function, token source
 * and session check, the request and options of the example before), each as the expression a
 * reader might fill in. A block names its own with `declare const name: Type; // what it is`,
 * which a reader's `tsc` accepts and which emits nothing at run time.
 */
const PLACEHOLDERS: Record<string, string> = {
  render: '(..._args: unknown[]): void => {}',
  token: "async (): Promise<string> => 'session-token'",
  request:
    "{ model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Hi' }] }",
  options: '{}',
  state:
    'await (await import(\'@message-stream/core\')).accumulate(\'event: message_stop\\ndata: {"type":"message_stop"}\\n\\n\')',
  results: '{} as Record<string, unknown>',
  getSession: "async (_request: Request) => ({ userId: 'readme-user' })",
  userId: "async (_request: Request): Promise<string | null> => 'readme-user'",
  lookUp: 'async (_input: unknown) => ({ temperature: 21 })',
  response:
    "await fetch('/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'Hi' }] }) })",
  message:
    "(await (await import('@message-stream/core')).accumulate(await (await import('@message-stream/mock')).loadFixture('spec-basic-text'))).message!",
  recording:
    "(await import('node:module')).createRequire(import.meta.url).resolve('@message-stream/mock/fixtures/spec-basic-text.sse')",
};

/** Names too common in other code (`state.message`) to guess at: filled in only where declared. */
const ONLY_WHERE_DECLARED: ReadonlySet<string> = new Set(['message', 'recording']);

/** `declare const name: Type;` on a line of its own, a comment after it or not. */
const DECLARE = /^declare const (\w+)(\s*:.*?)?;\s*(?:\/\/.*)?$/gm;

/**
 * The block as a module. A `declare const` line of a name with a placeholder becomes that
 * placeholder under the block's own type (`const render: Type = …;`), so the run has a value
 * and the type check still holds the README's type against its use and against a real value;
 * the placeholders of names the block uses without declaring come first.
 */
export function blockModule(block: ReadmeBlock): string {
  const code = block.code.replace(DECLARE, (line, name: string, type: string | undefined) => {
    const value = PLACEHOLDERS[name];
    return value === undefined ? line : `const ${name}${type ?? ''} = ${value};`;
  });
  const prelude = Object.entries(PLACEHOLDERS)
    .filter(([name]) => !ONLY_WHERE_DECLARED.has(name))
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(block.code))
    .filter(
      ([name]) => !new RegExp(`\\b(const|let|var|function|import)\\s+${name}\\b`).test(block.code),
    )
    .filter(([name]) => !new RegExp(`import[^;]*\\b${name}\\b[^;]*from`).test(block.code))
    .map(([name, value]) => `const ${name} = ${value};`);
  return `${prelude.join('\n')}\n${code}\nexport {};\n`;
}
