import { act, render, waitFor } from '@testing-library/react';
import { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { CodeBlock } from '../../src/components/code-block.js';
import { TextBlockView } from '../../src/components/text-block-view.js';

/** Shiki and a grammar load on first use: on a busy machine that takes more than a second. */
const LOAD = { timeout: 10_000 };

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 50)));

describe('blocks that did not change do not render again', () => {
  it('a text block without math commits once when it mounts (a guard: the stray commit showed only in the bench trace)', async () => {
    const commits: string[] = [];
    render(
      <Profiler id="text" onRender={(_id, phase) => commits.push(phase)}>
        <TextBlockView text={'A paragraph.\n\n- a list'} />
      </Profiler>,
    );
    await settle();
    expect(commits).toEqual(['mount']);
  });

  it('colours arriving change the code lines only, never the block around them', async () => {
    const { container } = render(<CodeBlock code={'const answer = 42;\n// done'} language="ts" />);
    const block = container.querySelector('.ms-code') as HTMLElement;
    const header = container.querySelector('.ms-code__header') as HTMLElement;
    const changed: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        const target = record.target as Element;
        if (target === block || header.contains(target)) changed.push(record.type);
      }
    });
    observer.observe(block, { attributes: true, childList: true, subtree: true });
    await waitFor(
      () => expect(container.querySelectorAll('.ms-code__tok').length).toBeGreaterThan(2),
      LOAD,
    );
    observer.disconnect();
    expect(changed).toEqual([]);
    expect(container.querySelector('code.ms-code--highlighted')).not.toBeNull();
  });
});
