import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeOptionsContext } from '../../src/markdown/code-options.js';
import { StreamingMarkdown } from '../../src/markdown/streaming-markdown.js';
import { appendedSince, recordAppend } from '../../src/text-growth.js';

afterEach(cleanup);

const view = (text: string) => (
  <CodeOptionsContext.Provider value={{ highlight: false, download: false }}>
    <StreamingMarkdown text={text} streaming />
  </CodeOptionsContext.Provider>
);

describe('the streaming view and a growing fence', () => {
  it('grows the fence from its last read by the recorded append, and records how the code grew', () => {
    const first = '```ts\nconst a = 1;\nconst';
    const { container, rerender } = render(view(first));
    const next = `${first}${' b = 2;'}`;
    recordAppend(next, first, ' b = 2;');
    rerender(view(next));
    expect(container.querySelector('code')?.textContent).toContain('const a = 1;\nconst b = 2;');
    // Only a fence grown from its last read records its code's growth (a whole read does not),
    // and the code block reads that record instead of comparing the code.
    expect(appendedSince('const a = 1;\nconst b = 2;', 'const a = 1;\nconst')).toBe(' b = 2;');
  });
});
