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

const FENCE = /^```(\w+)?([^\n]*)$/;

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
    const body: string[] = [];
    for (i++; i < lines.length && !(lines[i] ?? '').startsWith('```'); i++)
      body.push(lines[i] ?? '');
    const lang = open[1];
    if (lang !== 'ts' && lang !== 'tsx') continue;
    const info = (open[2] ?? '').trim().split(/\s+/);
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
 * Names the README examples use without defining, as a reader fills them in: the app's own
 * render function and token source, and the request and options of the example before.
 */
const PLACEHOLDERS: Record<string, string> = {
  render: 'const render = (..._args: unknown[]): void => {};',
  token: "const token = async (): Promise<string> => 'session-token';",
  request:
    "const request = { model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Hi' }] };",
  options: 'const options = {};',
  state:
    'const state = await (await import(\'@message-stream/core\')).accumulate(\'event: message_stop\\ndata: {"type":"message_stop"}\\n\\n\');',
  results: 'const results: Record<string, unknown> = {};',
  getSession: "const getSession = async (_request: Request) => ({ user: 'readme' });",
  userId: "const userId = async (_request: Request): Promise<string | null> => 'readme-user';",
  WeatherCard: 'const WeatherCard = () => null;',
  lookUp: 'const lookUp = async (_input: unknown) => ({ temperature: 21 });',
  response:
    "const response = await fetch('/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'Hi' }] }) });",
};

/** The block as a module: the placeholders it uses but does not declare, then its code. */
export function blockModule(block: ReadmeBlock): string {
  const prelude = Object.entries(PLACEHOLDERS)
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(block.code))
    .filter(
      ([name]) => !new RegExp(`\\b(const|let|var|function|import)\\s+${name}\\b`).test(block.code),
    )
    .filter(([name]) => !new RegExp(`import[^;]*\\b${name}\\b[^;]*from`).test(block.code))
    .map(([, line]) => line);
  return `${prelude.join('\n')}\n${block.code}\nexport {};\n`;
}
