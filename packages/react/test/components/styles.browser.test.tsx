import { type BlockState, createStreamError } from '@message-stream/core';
import specThinking from '@message-stream/mock/fixtures/spec-thinking.sse?raw';
import webSearch from '@message-stream/mock/fixtures/spec-web-search.sse?raw';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContentBlockView } from '../../src/components/content-block-view.js';
import { CopyButton } from '../../src/components/copy-button.js';
import { MessageActions } from '../../src/components/message-actions.js';
import { ResumeControl } from '../../src/components/resume-control.js';
import { StreamErrorNotice } from '../../src/components/stream-error-notice.js';
import { TextBlockView } from '../../src/components/text-block-view.js';
import { ThinkingBlockView } from '../../src/components/thinking-block-view.js';
import { ToolCallCard } from '../../src/components/tool-call-card.js';
import type { ToolCallStatus } from '../../src/components/tool-status.js';
import { UsageBadge } from '../../src/components/usage-badge.js';
import { withDefaultStyles } from '../browser-styles.js';
import {
  axeViolations,
  blockAt,
  blocksOf,
  endedStream,
  finalState,
  layoutReads,
} from './support.js';

// Real layout, focus and cascade: these run in Chromium only.

withDefaultStyles();
afterEach(cleanup);

describe('default stylesheet', () => {
  it('defines light colours by default and dark ones under data-theme="dark"', () => {
    const { container } = render(
      <div>
        <div data-theme="light">
          <p className="ms-usage">light</p>
        </div>
        <div data-theme="dark">
          <p className="ms-usage">dark</p>
        </div>
      </div>,
    );
    const [light, dark] = [...container.querySelectorAll('.ms-usage')].map((e) =>
      getComputedStyle(e).getPropertyValue('--ms-bg').trim(),
    );
    expect(light).toBe('#ffffff');
    expect(dark).toBe('#1b1a18');
  });

  it('offers Resume quietly after a stop by the user, and urges it after an interruption', () => {
    const noop = () => {};
    const background = (status: 'aborted' | 'interrupted') => {
      render(
        <ResumeControl
          stream={endedStream(status, { text: 'Part' })}
          onResume={noop}
          onRetry={noop}
        />,
      );
      const resume = screen.getByRole('button', { name: 'Resume' });
      const { backgroundColor } = getComputedStyle(resume);
      cleanup();
      return backgroundColor;
    };
    const accent = background('interrupted');
    const stopped = background('aborted');
    expect(stopped).not.toBe(accent);
    // The quiet one is the ordinary button's face.
    render(
      <button type="button" className="ms-button">
        Plain
      </button>,
    );
    expect(stopped).toBe(getComputedStyle(screen.getByRole('button')).backgroundColor);
  });

  it('shows a focus ring on keyboard focus', async () => {
    const user = userEvent.setup();
    const block = blockAt(await finalState(specThinking), 0);
    render(<ThinkingBlockView block={block} />);
    await user.tab();
    const button = screen.getByRole('button');
    expect(document.activeElement).toBe(button);
    expect(getComputedStyle(button).outlineStyle).toBe('solid');
  });

  it('keeps the streaming thinking tail scrolled to its newest line, reading no layout in a commit', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => `Step ${i + 1}: reasoning.`);
    const block = (count: number): BlockState => ({
      index: 0,
      status: 'streaming',
      block: { type: 'thinking', thinking: lines.slice(0, count).join('\n'), signature: '' },
    });
    const layout = layoutReads('scrollHeight', 'ms-thinking__panel');
    try {
      const { container, rerender } = render(<ThinkingBlockView block={block(10)} />);
      // Each rerender commits and runs its layout effects before it returns.
      for (let count = 11; count <= 60; count++)
        rerender(<ThinkingBlockView block={block(count)} />);
      layout.settled();
      const panel = container.querySelector('.ms-thinking__panel') as HTMLElement;
      expect(panel.scrollHeight).toBeGreaterThan(panel.clientHeight);
      await expect
        .poll(() => panel.scrollTop + panel.clientHeight)
        .toBeGreaterThanOrEqual(panel.scrollHeight - 2);
      expect(layout.reads).not.toContain('commit');
      // Scrollable, so reachable from the keyboard.
      expect(panel.tabIndex).toBe(0);
    } finally {
      layout.restore();
    }
  });

  it('shows the tool status badge as text with a border, not colour alone', async () => {
    const block = blockAt(
      await finalState(
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}}\n\n',
      ),
      0,
    );
    const { container } = render(<ToolCallCard block={block} />);
    const badge = container.querySelector('.ms-tool__badge') as HTMLElement;
    expect(badge.textContent).toBe('Interrupted');
    expect(getComputedStyle(badge).borderTopStyle).toBe('solid');
  });
});

describe('default stylesheet: a copy button', () => {
  it('stays where it was pressed when its outcome shows beside it', async () => {
    render(
      <div style={{ display: 'flex', width: 400 }}>
        <span>python</span>
        <CopyButton text="print(1)" ariaLabel="Copy python code" />
      </div>,
    );
    const button = screen.getByRole('button', { name: 'Copy python code' });
    const before = button.getBoundingClientRect().left;
    await userEvent.setup().click(button);
    // Copied, or Copy failed where the page may not write the clipboard: either shows.
    await expect
      .poll(() => screen.getByRole('status').textContent)
      .toMatch(/^(Copied|Copy failed)$/);
    expect(button.getBoundingClientRect().left).toBe(before);
  });
});

describe("default stylesheet: an answer's Copy", () => {
  it('shows a copy that worked as the check in the button, the word said only to screen readers', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    try {
      render(<MessageActions copyText="Hello" onFeedback={() => {}} />);
      const copy = screen.getByRole('button', { name: 'Copy' });
      await userEvent.setup().click(copy);
      const status = await screen.findByText('Copied');
      expect(copy.querySelector('svg')?.closest('[data-action="check"]')).toBe(copy);
      // Nothing shows after the row's last button.
      expect(status.getBoundingClientRect().width).toBeLessThanOrEqual(1);
    } finally {
      writeText.mockRestore();
    }
  });
});

describe('default stylesheet: the streaming caret', () => {
  const caretOf = (element: Element | null) =>
    element === null ? null : getComputedStyle(element, '::after').content;

  it('draws the caret after the last paragraph while the text streams, and not after', () => {
    const { container, rerender } = render(
      <TextBlockView text={'First paragraph.\n\nSecond'} streaming />,
    );
    const [first, second] = container.querySelectorAll('p');
    expect(caretOf(second ?? null)).toBe('""');
    expect(caretOf(first ?? null)).toBe('none');
    rerender(<TextBlockView text={'First paragraph.\n\nSecond paragraph.'} />);
    expect(caretOf(container.querySelectorAll('p')[1] ?? null)).toBe('none');
  });

  it('draws it after plain text too, on its last piece', () => {
    const { container, rerender } = render(<TextBlockView text="as is" mode="plain" streaming />);
    const last = () => container.querySelector('.ms-text__plain > .ms-segment:last-child');
    expect(caretOf(last())).toBe('""');
    expect(last()?.textContent).toBe('as is');
    rerender(<TextBlockView text="as is" mode="plain" />);
    expect(caretOf(last())).toBe('none');
  });

  it('pulses the thinking label while the thinking streams, and stops when it ends', () => {
    const block = (status: 'streaming' | 'complete'): BlockState => ({
      index: 0,
      status,
      block: { type: 'thinking', thinking: 'Weighing it up.', signature: '' },
    });
    const { container, rerender } = render(<ThinkingBlockView block={block('streaming')} />);
    const label = () => container.querySelector('.ms-thinking__label') as HTMLElement;
    expect(getComputedStyle(label()).animationName).toBe('ms-pulse');
    rerender(<ThinkingBlockView block={block('complete')} />);
    expect(getComputedStyle(label()).animationName).toBe('none');
  });

  it('hangs no rule below a streaming block, whose class changes when the block ends', () => {
    // A rule like `.ms-text--streaming .x` makes the browser walk everything under the block
    // when the class goes: an 18 ms style pass at the end of a 5,000-line code answer.
    const selectors: string[] = [];
    const collect = (rules: CSSRuleList) => {
      for (const rule of rules) {
        if (rule instanceof CSSStyleRule) selectors.push(rule.selectorText);
        if (rule instanceof CSSGroupingRule) collect(rule.cssRules);
      }
    };
    for (const sheet of document.styleSheets) collect(sheet.cssRules);
    expect(selectors.some((s) => s.includes('.ms-text__caret'))).toBe(true);
    expect(selectors.some((s) => s.includes('.ms-thinking__label--streaming'))).toBe(true);
    const below = selectors.filter((s) => /--streaming\b[^,]*[\s>+~]/.test(s));
    expect(below).toEqual([]);
  });
});

describe('default stylesheet: a call awaiting approval', () => {
  it('keeps its reason field a line of words wide on a wide card, and whole on a phone', () => {
    const tool: BlockState = {
      index: 0,
      status: 'complete',
      block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
    };
    render(
      <div>
        {[1200, 360].map((width) => (
          <div key={width} style={{ width }}>
            <ToolCallCard
              block={tool}
              status="awaiting-approval"
              onApprove={() => {}}
              onDeny={() => {}}
            />
          </div>
        ))}
      </div>,
    );
    const [wide, narrow] = screen
      .getAllByRole('textbox', { name: 'Reason (optional)' })
      .map((field) => field.getBoundingClientRect().width);
    const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
    expect(wide).toBeLessThanOrEqual(24 * rem);
    expect(narrow).toBeGreaterThanOrEqual(10 * rem);
  });
});

describe('default stylesheet: a declined tool call', () => {
  it.each(['light', 'dark'])(
    'is not in the danger colours, and its reason is body text (%s)',
    async (theme) => {
      const tool: BlockState = {
        index: 0,
        status: 'complete',
        block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      };
      const { container } = render(
        <div data-theme={theme}>
          <ToolCallCard
            block={tool}
            defaultOpen
            result={{
              content: 'I already know',
              isError: true,
              declined: 'denied',
              reason: 'I already know',
            }}
          />
          <ToolCallCard
            block={tool}
            result={{ content: 'Moved on', isError: true, declined: 'skipped' }}
          />
          <ToolCallCard block={tool} result={{ content: 'Broke', isError: true }} />
          <p className="ms-usage">reference</p>
        </div>,
      );
      const vars = getComputedStyle(container.querySelector('.ms-usage') as HTMLElement);
      const colour = (value: string) => {
        const probe = document.createElement('span');
        probe.style.color = value;
        container.append(probe);
        const rgb = getComputedStyle(probe).color;
        probe.remove();
        return rgb;
      };
      const danger = colour(vars.getPropertyValue('--ms-danger-fg'));
      const fg = colour(vars.getPropertyValue('--ms-fg'));
      const [denied, skipped, failed] = [...container.querySelectorAll('.ms-tool__badge')].map(
        (badge) => getComputedStyle(badge).color,
      );
      expect(failed).toBe(danger);
      expect(denied).not.toBe(danger);
      expect(skipped).not.toBe(danger);
      const note = container.querySelector('.ms-tool__note') as HTMLElement;
      expect(note.textContent).toBe('Your reason: I already know');
      expect(getComputedStyle(note).color).toBe(fg);
      expect(getComputedStyle(note).fontFamily).toBe(
        getComputedStyle(container.querySelector('.ms-tool') as HTMLElement).fontFamily,
      );
      const label = container.querySelector('.ms-tool__result-label') as HTMLElement;
      expect(getComputedStyle(label).color).not.toBe(danger);
    },
  );
});

describe('default stylesheet: contrast', () => {
  it.each(['light', 'dark'])(
    'passes axe, colour contrast included, in the %s theme',
    async (theme) => {
      const state = await finalState(webSearch);
      const thinking = blockAt(await finalState(specThinking), 0);
      const tool: BlockState = {
        index: 9,
        status: 'complete',
        block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      };
      const statuses: ToolCallStatus[] = [
        'input-streaming',
        'input-complete',
        'running',
        'interrupted',
      ];
      const { container } = render(
        <div data-theme={theme} style={{ background: 'var(--ms-bg)', padding: 8 }}>
          <ThinkingBlockView block={thinking} defaultOpen />
          {blocksOf(state).map((block) => (
            <ContentBlockView key={block.index} block={block} />
          ))}
          {statuses.map((status) => (
            <ToolCallCard key={status} block={tool} status={status} />
          ))}
          <ToolCallCard block={tool} result={{ content: 'Sunny' }} />
          <ToolCallCard block={tool} result={{ content: 'Nope', isError: true }} />
          <ToolCallCard
            block={tool}
            defaultOpen
            result={{ content: 'No', isError: true, declined: 'denied', reason: 'No' }}
          />
          <ToolCallCard
            block={tool}
            defaultOpen
            result={{ content: 'Moved on', isError: true, declined: 'skipped' }}
          />
          <ResumeControl
            stream={endedStream('interrupted', { text: 'Part' })}
            onResume={() => {}}
            onRetry={() => {}}
          />
          <StreamErrorNotice
            error={createStreamError({
              type: 'overloaded_error',
              message: 'x',
              requestId: 'req_1',
            })}
          />
          <UsageBadge
            usage={{ input_tokens: 1234, output_tokens: 56, cache_read_input_tokens: 7 }}
          />
        </div>,
      );
      expect(await axeViolations(container)).toEqual([]);
    },
  );
});

describe('less motion', () => {
  /** Every style rule of the page's sheets, with the media conditions around it, in order. */
  function rulesInOrder(): { rule: CSSStyleRule; media: string[] }[] {
    const found: { rule: CSSStyleRule; media: string[] }[] = [];
    const walk = (rules: CSSRuleList, media: string[]) => {
      for (const rule of rules) {
        if (rule instanceof CSSStyleRule) found.push({ rule, media });
        else if (rule instanceof CSSMediaRule)
          walk(rule.cssRules, [...media, rule.media.mediaText]);
      }
    };
    for (const sheet of document.styleSheets) walk(sheet.cssRules, []);
    return found;
  }

  // The page cannot be switched to prefers-reduced-motion here; the cascade is read instead. An
  // animation set with no condition must be switched off by a later rule under `reduce` for
  // each of its selectors (a `none` earlier in the sheet loses to it: the typing dots did).
  it('switches off, under prefers-reduced-motion, every animation the sheets start', () => {
    const rules = rulesInOrder();
    const unconditional = rules.filter(
      ({ rule, media }) =>
        media.length === 0 &&
        rule.style.animationName !== '' &&
        rule.style.animationName !== 'none',
    );
    expect(unconditional.length).toBeGreaterThan(0);
    const left = unconditional.flatMap(({ rule }) => {
      const at = rules.findIndex((r) => r.rule === rule);
      return rule.selectorText
        .split(/\s*,\s*/)
        .filter(
          (selector) =>
            !rules.some(
              ({ rule: later, media }, i) =>
                i > at &&
                media.some((m) => m.includes('prefers-reduced-motion: reduce')) &&
                later.selectorText.split(/\s*,\s*/).includes(selector) &&
                later.style.animationName === 'none',
            ),
        );
    });
    expect(left).toEqual([]);
  });
});
