import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageBadge } from '../../src/components/usage-badge.js';

afterEach(() => vi.restoreAllMocks());

describe('UsageBadge in a page', () => {
  it("has the reader's number format ready before the first answer shows its usage", async () => {
    // Idle time after the module loaded: where the formatter is built.
    await new Promise((resolve) => requestIdleCallback(resolve, { timeout: 3000 }));
    const built = vi.spyOn(Intl, 'NumberFormat');
    render(<UsageBadge usage={{ input_tokens: 1234, output_tokens: 56 }} />);
    expect(screen.getAllByText(/1,234|1.234|1 234/).length).toBeGreaterThan(0);
    expect(built).not.toHaveBeenCalled();
  });
});
