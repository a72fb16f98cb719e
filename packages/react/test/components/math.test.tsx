import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TextBlockView } from '../../src/components/text-block-view.js';
import { axeViolations } from './support.js';

afterEach(cleanup);

describe('TextBlockView math', () => {
  it('typesets inline and display math with KaTeX when math is on', async () => {
    const { container } = render(
      <TextBlockView
        text={'Euler: $e^{i\\pi} + 1 = 0$.\n\n$$\n\\int_0^1 x\\,dx = \\frac{1}{2}\n$$'}
        math
      />,
    );
    await waitFor(() => expect(container.querySelectorAll('.katex')).toHaveLength(2), {
      timeout: 10_000,
    });
    expect(container.querySelector('.katex-display')).not.toBeNull();
    // MathML for assistive technology, with the TeX source as its annotation.
    expect(container.querySelector('annotation')?.textContent).toBe('e^{i\\pi} + 1 = 0');
    expect(container.textContent).not.toContain('$');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('leaves $…$ as text when math is off (the default)', async () => {
    const { container } = render(<TextBlockView text="It costs $5 and $10." />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container.querySelector('.katex')).toBeNull();
    expect(container.textContent).toBe('It costs $5 and $10.');
  });

  it('shows an unclosed $$ block as text while it streams, and typesets it once closed', async () => {
    const open = 'Area:\n\n$$\n\\frac{a}{';
    const { container, rerender } = render(<TextBlockView text={open} math streaming />);
    await waitFor(() => expect(container.querySelector('.ms-markdown')).not.toBeNull());
    // Give the math chunk time to load, then check the open block is still text.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(container.querySelector('.katex')).toBeNull();
    expect(container.textContent).toContain('$$');
    rerender(<TextBlockView text={`${open}b}\n$$`} math streaming />);
    await waitFor(() => expect(container.querySelector('.katex-display')).not.toBeNull(), {
      timeout: 10_000,
    });
    expect(container.textContent).not.toContain('$$');
  });
});
