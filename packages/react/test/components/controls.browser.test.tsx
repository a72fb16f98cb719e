import { createStreamState } from '@message-stream/core';
import { createMockFetch } from '@message-stream/mock';
import { act, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { userEvent as keys } from 'vitest/browser';
import { Composer } from '../../src/chat/composer.js';
import { AttachmentList } from '../../src/components/attachment-list.js';
import { BranchPicker } from '../../src/components/branch-picker.js';
import { CodeBlock } from '../../src/components/code-block.js';
import { EmptyState } from '../../src/components/empty-state.js';
import { MessageActions } from '../../src/components/message-actions.js';
import { ResumeControl } from '../../src/components/resume-control.js';
import { StreamDetails } from '../../src/components/stream-details.js';
import { ThreadList } from '../../src/components/thread-list.js';
import { ToolCallCard } from '../../src/components/tool-call-card.js';
import { createChatStore } from '../../src/store/create-chat-store.js';
import { createThreadStore } from '../../src/store/create-thread-store.js';
import { withDefaultStyles } from '../browser-styles.js';
import { contrast, over, rgba } from './colour.js';
import { endedStream } from './support.js';

// The default stylesheet's controls, measured in Chromium: colours, sizes, states.
withDefaultStyles();

const noop = () => {};

/** A conversation list holding one new conversation. */
function threadStoreWithOne() {
  const threads = createThreadStore({
    chat: { request: { model: 'claude-opus-5', max_tokens: 256 } },
  });
  threads.getState().newThread();
  return threads;
}

/** A finished tool call, shown awaiting approval by the tests that pass that status. */
const weatherCall = {
  index: 0,
  status: 'complete' as const,
  block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
};

/** The call's card awaiting approval on the page background of `theme`, with `beside` after it. */
function renderApproval(theme: string, beside?: ReactNode) {
  return render(
    <div data-theme={theme} style={{ background: 'var(--ms-bg)' }}>
      <ToolCallCard block={weatherCall} status="awaiting-approval" onApprove={noop} onDeny={noop} />
      {beside}
    </div>,
  );
}

describe.each(['light', 'dark'])('a pressed feedback button (%s)', (theme) => {
  it('stands out by a background and a filled icon, not by hue alone', () => {
    const { container } = render(
      <div data-theme={theme} style={{ background: 'var(--ms-bg)' }}>
        <MessageActions copyText="x" onFeedback={noop} feedback="up" />
      </div>,
    );
    const root = container.firstElementChild as HTMLElement;
    const page = rgba('var(--ms-bg)', root);
    const pressed = screen.getByRole('button', { name: 'Good answer' });
    const other = screen.getByRole('button', { name: 'Bad answer' });
    const backOf = (button: HTMLElement) =>
      over(rgba(getComputedStyle(button).backgroundColor, root), page);
    // A visible tint behind the pressed one; none behind the other.
    expect(contrast(backOf(other), page)).toBe(1);
    expect(contrast(backOf(pressed), page)).toBeGreaterThan(1.15);
    // Its icon is filled: a shape that differs, whatever the colours.
    expect(getComputedStyle(pressed.querySelector('path') as SVGPathElement).fill).not.toBe('none');
    expect(getComputedStyle(other.querySelector('path') as SVGPathElement).fill).toBe('none');
  });
});

describe('the version picker in a message footer', () => {
  it('draws its arrows as the icon buttons beside it are drawn: no frame, the same size', async () => {
    const store = createChatStore({
      request: { model: 'claude-opus-5', max_tokens: 256 },
      fetch: createMockFetch({ defaultFixture: 'spec-basic-text' }),
      batch: false,
    });
    await act(() => store.getState().send('Hello'));
    await act(() => store.getState().regenerate());
    render(
      <div className="ms-message__footer">
        <BranchPicker store={store} turnId={store.getState().turns[1]?.id as string} />
        <MessageActions copyText="x" />
      </div>,
    );
    const arrow = screen.getByRole('button', { name: 'Previous version' });
    const icon = screen.getByRole('button', { name: /copy/i });
    const arrowStyle = getComputedStyle(arrow);
    const iconStyle = getComputedStyle(icon);
    expect(arrowStyle.borderTopWidth).toBe('0px');
    expect(arrowStyle.borderTopWidth).toBe(iconStyle.borderTopWidth);
    expect(arrowStyle.backgroundColor).toBe(iconStyle.backgroundColor);
    expect(arrowStyle.color).toBe(iconStyle.color);
    expect(arrow.getBoundingClientRect().height).toBe(icon.getBoundingClientRect().height);
  });
});

describe.each(['light', 'dark'])('control outlines (%s)', (theme) => {
  it('hold 3:1 against what is around them (WCAG 1.4.11), and stay calm', async () => {
    const { container } = renderApproval(
      theme,
      <>
        <input className="ms-thread__field" aria-label="Rename" />
        <div className="ms-composer" />
      </>,
    );
    const root = container.firstElementChild as HTMLElement;
    const page = rgba('var(--ms-bg)', root);
    const strong = rgba('var(--ms-border-strong)', root);
    // The token itself: 3:1 with room, not a heavy line (about 3.3–3.7).
    expect(contrast(strong, page)).toBeGreaterThanOrEqual(3.3);
    expect(contrast(strong, page)).toBeLessThanOrEqual(3.7);

    const edge = (element: Element) => rgba(getComputedStyle(element).borderTopColor, root);
    const reason = screen.getByRole('textbox', { name: 'Reason (optional)' });
    const panel = rgba(
      getComputedStyle(container.querySelector('.ms-tool__approval') as Element).backgroundColor,
      root,
    );
    // The Deny reason sits on the approval panel: 3:1 against it and against its own fill.
    expect(contrast(edge(reason), panel)).toBeGreaterThanOrEqual(3);
    expect(
      contrast(edge(reason), rgba(getComputedStyle(reason).backgroundColor, root)),
    ).toBeGreaterThanOrEqual(3);
    for (const field of [
      container.querySelector('.ms-thread__field'),
      container.querySelector('.ms-composer'),
    ]) {
      expect(contrast(edge(field as Element), page)).toBeGreaterThanOrEqual(3);
    }
  });
});

describe.each(['light', 'dark'])('the approval panel (%s)', (theme) => {
  it('is a neutral surface with a warning band at its start, and Approve the primary button', () => {
    const { container } = renderApproval(theme);
    const root = container.firstElementChild as HTMLElement;
    const panelElement = container.querySelector('.ms-tool__approval') as HTMLElement;
    const style = getComputedStyle(panelElement);
    const panel = rgba(style.backgroundColor, root);
    // Painted the warning colour whole, it read as an alarm in the dark theme (a chroma of 45).
    expect(Math.max(...panel.slice(0, 3)) - Math.min(...panel.slice(0, 3))).toBeLessThan(12);
    const band = rgba(style.borderInlineStartColor, root);
    expect(band).toEqual(rgba('var(--ms-warning-fg)', root));
    expect(Number.parseFloat(style.borderInlineStartWidth)).toBeGreaterThanOrEqual(3);
    expect(contrast(band, panel)).toBeGreaterThanOrEqual(3);

    const approve = screen.getByRole('button', { name: 'Approve' });
    // The kit's accent, as Send and Resume are filled: not a third colour.
    expect(rgba(getComputedStyle(approve).backgroundColor, root)).toEqual(
      rgba('var(--ms-accent)', root),
    );
    for (const button of [approve, screen.getByRole('button', { name: 'Deny' })]) {
      const fill = over(rgba(getComputedStyle(button).backgroundColor, root), panel);
      expect(contrast(rgba(getComputedStyle(button).color, root), fill)).toBeGreaterThanOrEqual(
        4.5,
      );
    }
  });
});

describe.each(['light', 'dark'])("an attachment chip's remove button (%s)", (theme) => {
  it('is frameless like the icon buttons, its × 3:1 or more on the chip', () => {
    const { container } = render(
      <div data-theme={theme} style={{ background: 'var(--ms-bg)' }}>
        <AttachmentList
          attachments={[
            { id: 'a', name: 'notes.txt', mediaType: 'text/plain', size: 12, data: '' },
          ]}
          onRemove={noop}
        />
        <MessageActions copyText="x" />
      </div>,
    );
    const root = container.firstElementChild as HTMLElement;
    const remove = screen.getByRole('button', { name: 'Remove notes.txt' });
    const style = getComputedStyle(remove);
    expect(rgba(style.borderTopColor, root)[3]).toBe(0);
    expect(style.backgroundColor).toBe(
      getComputedStyle(screen.getByRole('button', { name: /copy/i })).backgroundColor,
    );
    const chip = rgba(
      getComputedStyle(remove.closest('.ms-attachment') as Element).backgroundColor,
      root,
    );
    expect(contrast(rgba(style.color, root), chip)).toBeGreaterThanOrEqual(3);
  });
});

describe('control sizes', () => {
  it('come in two heights, with 12 px text or more and one small radius', async () => {
    const threads = threadStoreWithOne();
    render(
      <div style={{ width: 700 }}>
        <CodeBlock code="const a = 1;" language="ts" download />
        <ToolCallCard
          block={weatherCall}
          status="awaiting-approval"
          onApprove={noop}
          onDeny={noop}
          defaultOpen
        />
        <article className="ms-message ms-message--user" aria-label="You said">
          <MessageActions copyText="x" onEdit={noop} />
        </article>
        <MessageActions copyText="x" onRegenerate={noop} label="Answer actions" />
        <ResumeControl
          stream={endedStream('interrupted', { text: 'Part' })}
          onResume={noop}
          onRetry={noop}
        />
        <ThreadList store={threads} />
        <EmptyState suggestions={['One prompt']} onSuggestion={noop} />
        <Composer busy={false} onSend={noop} onStop={noop} />
      </div>,
    );
    const rootStyle = getComputedStyle(document.documentElement);
    const px = (name: string) => Number.parseFloat(rootStyle.getPropertyValue(name)) * 16;
    const [small, regular] = [px('--ms-control-sm'), px('--ms-control')];
    expect([small, regular]).toEqual([32, 36]);
    const height = (element: HTMLElement) => element.getBoundingClientRect().height;
    const smallOnes = [
      screen.getByRole('button', { name: 'Copy ts code' }),
      screen.getByRole('button', { name: /^Download/ }),
      screen.getByRole('button', { name: 'Approve' }),
      screen.getByRole('button', { name: 'Deny' }),
      screen.getByRole('textbox', { name: 'Reason (optional)' }),
      ...within(screen.getByRole('article', { name: 'You said' })).getAllByRole('button'),
      ...within(screen.getByRole('toolbar', { name: 'Answer actions' })).getAllByRole('button'),
      screen.getByRole('button', { name: 'Resume' }),
      screen.getByRole('button', { name: /^Rename/ }),
      screen.getByRole('button', { name: /^Delete/ }),
    ];
    await screen.findByRole('button', { name: 'Formatted' });
    const views = document.querySelector('.ms-tool__views') as HTMLElement;
    for (const element of [...smallOnes, views]) {
      expect([element.className, height(element)]).toEqual([element.className, small]);
    }
    // Icon buttons are square, the user's as the answer's.
    for (const element of smallOnes.filter((e) => e.classList.contains('ms-icon-button'))) {
      expect(element.getBoundingClientRect().width).toBe(small);
    }
    for (const element of [
      screen.getByRole('button', { name: 'One prompt' }),
      screen.getByRole('button', { name: 'Send' }),
      document.querySelector('.ms-threads__new') as HTMLElement,
      document.querySelector('.ms-thread__open') as HTMLElement,
    ]) {
      expect([element.className, height(element)]).toEqual([element.className, regular]);
    }
    // One radius for every rectangular small control, and no text under 12 px.
    const radius = rootStyle.getPropertyValue('--ms-radius-sm').trim();
    for (const element of [...smallOnes, views]) {
      expect([element.className, getComputedStyle(element).borderTopLeftRadius]).toEqual([
        element.className,
        `${Number.parseFloat(radius) * 16}px`,
      ]);
    }
    for (const element of document.querySelectorAll<HTMLElement>(
      'button, .ms-tool__badge, .ms-tool__id',
    )) {
      expect([
        element.className,
        Number.parseFloat(getComputedStyle(element).fontSize) >= 12,
      ]).toEqual([element.className, true]);
    }
  });
});

describe('panels that hold long words', () => {
  it('keeps a conversation’s rename field and Save, with its focus ring, inside a narrow list', async () => {
    const threads = threadStoreWithOne();
    render(
      <div style={{ width: 263, overflow: 'auto' }}>
        <ThreadList store={threads} />
      </div>,
    );
    const rename = screen.getAllByRole('button', { name: /^Rename / })[0] as HTMLElement;
    await act(async () => rename.click());
    const field = screen.getByRole('textbox', { name: /^New name for / });
    const save = screen.getByRole('button', { name: 'Save' });
    const list = screen.getByRole('navigation').getBoundingClientRect();
    const ring = 4; // outline 2px wide, 2px off the field
    expect(field.getBoundingClientRect().left - ring).toBeGreaterThanOrEqual(list.left);
    expect(save.getBoundingClientRect().right).toBeLessThanOrEqual(list.right);
    expect((save.parentElement as HTMLElement).scrollWidth).toBeLessThanOrEqual(
      (save.parentElement as HTMLElement).clientWidth,
    );
  });

  it('wraps the downloads of an answer of two requests inside the details panel', async () => {
    const answer = {
      ...createStreamState(),
      status: 'complete' as const,
      message: {
        id: 'msg_01ABCDEFGHIJKLMNOPQRSTUVWXYZ0123',
        type: 'message' as const,
        role: 'assistant' as const,
        model: 'claude-opus-5',
        content: [],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 86, output_tokens: 40 },
      },
    };
    const downloads = ['1', '2'].map((n) => ({
      name: `msg_01ABCDEFGHIJKLMNOPQRSTUV-request-${n}.sse`,
      text: 'event: ping\ndata: {"type":"ping"}\n\n',
    }));
    render(
      <div style={{ width: 390 }}>
        <StreamDetails stream={answer} downloads={downloads} />
      </div>,
    );
    await act(async () => screen.getByRole('button', { name: 'Stream details' }).click());
    const panel = screen.getByRole('dialog');
    const first = screen.getByRole('button', { name: 'Download request 1 of 2 (.sse)' });
    expect(screen.getByRole('button', { name: 'Download request 2 of 2 (.sse)' })).toBeDefined();
    expect(panel.scrollWidth).toBeLessThanOrEqual(panel.clientWidth);
    expect(first.getBoundingClientRect().right).toBeLessThanOrEqual(
      panel.getBoundingClientRect().right,
    );
    // An id too long to sit beside its term takes a line of its own, whole: not its last
    // characters on a second line.
    const id = screen.getByText('msg_01ABCDEFGHIJKLMNOPQRSTUVWXYZ0123');
    expect(id.getClientRects()).toHaveLength(1);
    expect(id.getBoundingClientRect().right).toBeLessThanOrEqual(
      panel.getBoundingClientRect().right,
    );
  });
});

describe('controls for a finger', () => {
  // The page here has a mouse; the rule a phone applies is read from the stylesheet itself.
  it('grows to 40 and 44 px where the main pointer is coarse, in either theme’s scope', () => {
    const rules = [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules]);
    const coarse = rules.filter(
      (rule): rule is CSSMediaRule =>
        rule instanceof CSSMediaRule && rule.media.mediaText === '(pointer: coarse)',
    );
    const declared = coarse.flatMap((media) =>
      [...media.cssRules].filter((rule): rule is CSSStyleRule => rule instanceof CSSStyleRule),
    );
    const rootFontPx = Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
    const px = (name: string) =>
      Math.max(
        0,
        ...declared.map(
          (rule) => Number.parseFloat(rule.style.getPropertyValue(name)) * rootFontPx || 0,
        ),
      );
    expect(px('--ms-control-sm')).toBeGreaterThanOrEqual(40);
    expect(px('--ms-control')).toBeGreaterThanOrEqual(44);
    // Where the sizes are set (the root and a light-theme scope), the coarse rule sets them too.
    const selectors = declared.flatMap((rule) => rule.selectorText.split(/\s*,\s*/));
    expect(selectors).toEqual(expect.arrayContaining([':root', '[data-theme="light"]']));
  });
});

describe('the stream details popover', () => {
  it('takes focus when it opens, and gives it back to its button on Escape', async () => {
    render(<StreamDetails stream={createStreamState()} />);
    const button = screen.getByRole('button', { name: 'Stream details' });
    button.focus();
    await act(async () => button.click());
    const panel = screen.getByRole('dialog', { name: 'Stream details' });
    await expect.poll(() => document.activeElement).toBe(panel);
    await keys.keyboard('{Escape}');
    await expect.poll(() => panel.matches(':popover-open')).toBe(false);
    expect(document.activeElement).toBe(button);
  });
  it('closes when keyboard focus goes on past it, not when it moves inside it', async () => {
    render(
      <>
        <StreamDetails
          stream={createStreamState()}
          downloads={[{ name: 'answer.sse', text: 'event: ping\ndata: {}\n\n' }]}
        />
        <textarea aria-label="Message" />
      </>,
    );
    const button = screen.getByRole('button', { name: 'Stream details' });
    button.focus();
    await act(async () => button.click());
    const panel = screen.getByRole('dialog', { name: 'Stream details' });
    const download = await screen.findByRole('button', { name: 'Download raw stream (.sse)' });
    await expect.poll(() => document.activeElement).toBe(panel);
    await keys.keyboard('{Tab}');
    expect(document.activeElement).toBe(download);
    expect(panel.matches(':popover-open')).toBe(true);
    await keys.keyboard('{Tab}');
    await expect.poll(() => panel.matches(':popover-open')).toBe(false);
  });
});

describe('a thread list in a panel that scrolls', () => {
  it('keeps New conversation in view over the rows', async () => {
    const threads = createThreadStore({
      chat: { request: { model: 'claude-opus-5', max_tokens: 256 } },
    });
    // Named, so none is an empty one New conversation would show again.
    for (let i = 0; i < 20; i++) {
      threads.getState().renameThread(threads.getState().newThread(), `Thread ${i + 1}`);
    }
    render(
      <div data-testid="panel" style={{ height: 200, overflowY: 'auto' }}>
        <ThreadList store={threads} />
      </div>,
    );
    const panel = screen.getByTestId('panel');
    const button = await screen.findByRole('button', { name: 'New conversation' });
    expect(panel.scrollHeight).toBeGreaterThan(panel.clientHeight);
    panel.scrollTop = panel.scrollHeight;
    await expect
      .poll(() => button.getBoundingClientRect().top)
      .toBe(panel.getBoundingClientRect().top);
    // Opaque: the rows pass under it, not through it.
    expect(getComputedStyle(button).backgroundColor).not.toBe('rgba(0, 0, 0, 0)');
  });
});
