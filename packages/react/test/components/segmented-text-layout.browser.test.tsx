import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TextBlockView } from '../../src/components/text-block-view.js';
import { SEGMENT_CHARS } from '../../src/components/text-segments.js';
import { withDefaultStyles } from '../browser-styles.js';

// Real layout: these run in Chromium only.

afterEach(cleanup);
withDefaultStyles();

/** Wrapped lines, blank lines and short lines, past several piece ends. */
const TEXT = Array.from(
  { length: 120 },
  (_, i) =>
    `Step ${i}: ${'weigh the evidence and write the next line of the argument '.repeat((i % 4) + 1)}${i % 7 === 0 ? '\n' : ''}`,
).join('\n');

describe('plain text drawn in pieces', () => {
  it('draws the lines one text node draws, at any width', () => {
    expect(TEXT.length).toBeGreaterThan(SEGMENT_CHARS * 3);
    for (const width of [280, 520]) {
      const { container, unmount } = render(
        <div style={{ width: `${width}px` }}>
          <div data-testid="pieces">
            <TextBlockView text={TEXT} mode="plain" />
          </div>
          <div className="ms-text">
            <p className="ms-text__plain" data-testid="whole">
              {TEXT}
            </p>
          </div>
        </div>,
      );
      const pieces = container.querySelector('[data-testid="pieces"] p') as HTMLElement;
      const whole = container.querySelector('[data-testid="whole"]') as HTMLElement;
      expect(pieces.children.length).toBeGreaterThan(2);
      expect(pieces.textContent).toBe(TEXT);
      // Same height, so the same number of lines: no line ends early at a piece's end.
      expect(pieces.getBoundingClientRect().height).toBe(whole.getBoundingClientRect().height);
      unmount();
    }
  });
});
