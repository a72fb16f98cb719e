import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { CodeBlock, TextBlockView } from './kit.js';
import { Replay } from './replay.js';

const meta = {
  title: 'Components/CodeBlock',
  component: CodeBlock,
} satisfies Meta<typeof CodeBlock>;
export default meta;
type Story = StoryObj<typeof meta>;

const TS = [
  "import { createChatStore } from '@message-stream/react';",
  '',
  '/** A store that streams answers from the API. */',
  'export function makeStore(apiKey: string) {',
  '  const store = createChatStore({ headers: { "x-api-key": apiKey } });',
  '  return store; // one per conversation',
  '}',
  '',
  'const answer = 42 as const;',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source, not a template.
  'console.log(`The answer is ${answer}`);',
].join('\n');

const highlighted = (canvasElement: HTMLElement) =>
  waitFor(() => expect(canvasElement.querySelector('.ms-code--highlighted')).not.toBeNull(), {
    timeout: 10_000,
  });

/** TypeScript, highlighted in the theme's colours, with its label and Copy. */
export const Highlighted: Story = {
  args: { code: TS, language: 'ts' },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByText('ts')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Copy ts code' })).toBeVisible();
    // The first and the last line coloured (the first slices also compile the grammar's
    // expressions). Text in the theme's default colour has no element of its own.
    await waitFor(
      () => {
        const lines = canvasElement.querySelectorAll('.ms-code__line');
        for (const line of [lines[0], lines[lines.length - 1]]) {
          expect(line?.querySelector('.ms-code__tok')).not.toBeNull();
        }
      },
      { timeout: 10_000 },
    );
  },
};

/** With Download: the file is named from the language. */
export const WithDownload: Story = {
  args: {
    code: 'print("hello")\nfor i in range(3):\n    print(i)',
    language: 'python',
    download: true,
  },
  play: async ({ canvas, canvasElement }) => {
    await highlighted(canvasElement);
    await expect(canvas.getByRole('button', { name: 'Download code.py' })).toBeVisible();
  },
};

/** A language Shiki does not know: plain text, same layout, still a label and Copy. */
export const UnknownLanguage: Story = {
  args: { code: 'GOTO 10\nPRINT "HELLO"', language: 'basic-9000' },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByText('basic-9000')).toBeVisible();
    await expect(canvasElement.querySelector('.ms-code__tok')).toBeNull();
  },
};

/** No language at all. */
export const NoLanguage: Story = {
  args: { code: 'just some preformatted text\n  indented' },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('text')).toBeVisible();
  },
};

/** A line wider than the message scrolls inside the block; the page never widens. */
export const LongLine: Story = {
  args: {
    code: `const url = "https://example.com/${'a-very-long-path-segment/'.repeat(12)}";\nshort();`,
    language: 'js',
  },
  play: async ({ canvasElement }) => {
    await highlighted(canvasElement);
    const pre = canvasElement.querySelector('pre') as HTMLElement;
    await expect(pre.scrollWidth).toBeGreaterThan(pre.clientWidth);
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(window.innerWidth);
  },
};

/** 600 lines: shown at once as plain text, coloured slice by slice without blocking. */
export const ManyLines: Story = {
  args: {
    code: Array.from(
      { length: 600 },
      (_, i) => `let value${i} = compute(${i}, "row ${i}"); // line ${i}`,
    ).join('\n'),
    language: 'js',
  },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelectorAll('.ms-code__line')).toHaveLength(600);
    await waitFor(
      () => {
        const lines = canvasElement.querySelectorAll('.ms-code__line');
        expect(lines[599]?.querySelector('.ms-code__tok')).not.toBeNull();
      },
      { timeout: 30_000 },
    );
  },
};

const STREAM = TS.split('\n').flatMap((line, i, all) => {
  const head = all.slice(0, i).join('\n');
  const prefix = i === 0 ? '' : `${head}\n`;
  return [prefix + line.slice(0, Math.ceil(line.length / 2)), prefix + line];
});

/** A code block streaming in, half a line at a time: finished lines keep their colours. */
export const Streaming: Story = {
  args: { code: '' },
  render: () => (
    <Replay steps={STREAM} intervalMs={60}>
      {(code) => (
        <TextBlockView text={`Here it is:\n\n\`\`\`ts\n${code}`} streaming={code !== TS} />
      )}
    </Replay>
  ),
  play: async ({ canvasElement }) => {
    // Once the first line is finished (a second has begun) and coloured, it never changes.
    const firstLine = () => canvasElement.querySelector('.ms-code__line');
    await waitFor(
      () => {
        expect(canvasElement.querySelectorAll('.ms-code__line').length).toBeGreaterThan(1);
        expect(firstLine()?.querySelector('.ms-code__tok')).not.toBeNull();
      },
      { timeout: 10_000 },
    );
    const first = firstLine()?.innerHTML;
    await waitFor(() => expect(canvasElement.querySelectorAll('.ms-code__line').length).toBe(10), {
      timeout: 10_000,
    });
    await expect(firstLine()?.innerHTML).toBe(first);
  },
};

/** Copy puts exactly the code on the clipboard. */
export const Copy: Story = {
  args: { code: '  two leading spaces\n\ttab\ntrailing  ', language: 'text' },
  play: async ({ canvas, args }) => {
    let copied = '';
    const clipboard = navigator.clipboard;
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: {
        writeText: async (text: string) => {
          copied = text;
        },
      },
    });
    try {
      await userEvent.click(canvas.getByRole('button', { name: 'Copy text code' }));
      await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent('Copied'));
      await expect(copied).toBe(args.code);
    } finally {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: clipboard });
    }
  },
};
