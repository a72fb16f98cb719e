import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeBlock, CodeBlockPlaceholder } from '../../src/components/code-block.js';
import { withDefaultStyles } from '../browser-styles.js';

afterEach(cleanup);
withDefaultStyles();

const CODE = 'const answer = 42;\nfunction ask() {\n  return answer;\n}';

describe('CodeBlock before its chunk arrives', () => {
  it('is the same frame, label, text and size as the block that replaces it', () => {
    render(
      <div style={{ width: '480px' }}>
        <div data-testid="placeholder">
          <CodeBlockPlaceholder code={CODE} language="ts" />
        </div>
        <div data-testid="block">
          <CodeBlock code={CODE} language="ts" highlight={false} />
        </div>
      </div>,
    );
    const placeholder = within(screen.getByTestId('placeholder')).getByRole('group', {
      name: 'ts code',
    });
    const block = within(screen.getByTestId('block')).getByRole('group', { name: 'ts code' });
    expect(placeholder.getAttribute('aria-busy')).toBe('true');
    expect(block.hasAttribute('aria-busy')).toBe(false);
    expect(placeholder.querySelector('.ms-code__lang')?.textContent).toBe('ts');
    expect(placeholder.querySelector('pre')?.textContent).toBe(CODE);
    // Nothing to copy yet: the buttons come with the block.
    expect(within(placeholder).queryByRole('button')).toBeNull();
    expect(within(block).getByRole('button', { name: 'Copy ts code' })).toBeTruthy();
    const before = placeholder.getBoundingClientRect();
    const after = block.getBoundingClientRect();
    expect(after.height).toBeGreaterThan(50);
    expect(Math.abs(after.height - before.height)).toBeLessThan(1);
    expect(after.width).toBe(before.width);
  });
});
