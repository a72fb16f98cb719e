import { act, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupTurns, TURNS_PER_GROUP } from '../../src/chat/turn-group.js';
import type { BlockRendererProps } from '../../src/components/content-block-view.js';
import { ChatStream, createChatStore } from '../../src/index.js';
import type { Turn } from '../../src/store/types.js';

// The windowed log in jsdom: an IntersectionObserver stand-in the test drives by hand.

const targets = new Set<Element>();
let report: ((entries: { target: Element; isIntersecting: boolean }[]) => void) | null = null;

class FakeIntersectionObserver {
  constructor(callback: (entries: { target: Element; isIntersecting: boolean }[]) => void) {
    report = callback;
  }
  observe(element: Element) {
    targets.add(element);
  }
  unobserve(element: Element) {
    targets.delete(element);
  }
  disconnect() {
    targets.clear();
  }
}

const original = globalThis.IntersectionObserver;
beforeAll(() => {
  globalThis.IntersectionObserver =
    FakeIntersectionObserver as unknown as typeof IntersectionObserver;
});
afterAll(() => {
  globalThis.IntersectionObserver = original;
});

/** The browser says `group` came within (or went beyond) two screens of the viewport. */
const near = (group: Element, isIntersecting: boolean) =>
  act(() => report?.([{ target: group, isIntersecting }]));

/** 40 questions and answers: 80 turns, ten groups of eight (windowed past eight). */
const history = Array.from({ length: 40 }, (_, i) => [
  { role: 'user' as const, content: `Question ${i + 1}` },
  { role: 'assistant' as const, content: `Answer **${i + 1}**` },
]).flat();

let textRenders = 0;
function CountingText({ block }: BlockRendererProps): ReactElement {
  textRenders++;
  return <p>{String((block.block as { text?: string }).text)}</p>;
}
const renderers = { byType: { text: CountingText } };

function setup() {
  const store = createChatStore({
    request: { model: 'claude-opus-5', max_tokens: 1024 },
    initialMessages: history,
  });
  render(<ChatStream store={store} renderers={renderers} />);
  const log = screen.getByRole('log', { name: 'Conversation' });
  const groups = () => [...log.querySelectorAll('.ms-chat__turns')];
  return { store, log, groups };
}

describe('groupTurns', () => {
  it('cuts turns into groups by index, the last one partial', () => {
    const { store } = setup();
    const turns = [...store.getState().turns, ...store.getState().turns.slice(0, 3)];
    const groups = groupTurns(turns);
    expect(groups.map((g) => g.length)).toEqual([8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 3]);
    expect(groups[1]?.[0]).toBe(turns[TURNS_PER_GROUP]);
  });

  it('keeps the arrays of groups whose turns did not change', () => {
    const { store } = setup();
    const turns = store.getState().turns;
    const before = groupTurns(turns);
    const last = turns.at(-1) as Turn;
    const streamed = [...turns.slice(0, -1), { ...last }];
    const after = groupTurns(streamed, before);
    expect(after.slice(0, -1).every((group, g) => group === before[g])).toBe(true);
    expect(after.at(-1)).not.toBe(before.at(-1));
    expect(after.at(-1)?.at(-1)).toBe(streamed.at(-1));
    // A turn added starts a group; one changed mid-thread replaces only its group.
    const grown = groupTurns([...streamed, last], after);
    expect(grown).toHaveLength(after.length + 1);
    expect(grown[0]).toBe(after[0]);
    const edited = [...streamed];
    edited[9] = { ...(edited[9] as Turn) };
    const again = groupTurns(edited, after);
    expect(again[1]).not.toBe(after[1]);
    expect(again[1]?.[1]).toBe(edited[9]);
    expect(again.filter((group, g) => group !== after[g])).toHaveLength(1);
  });
});

describe('the windowed log', () => {
  it('mounts the newest groups, and shows the text of the others in labelled articles', () => {
    const { log, groups } = setup();
    expect(groups()).toHaveLength(10);
    // The two newest groups are mounted: their answers rendered, with their actions.
    expect(
      within(groups()[9] as HTMLElement).getAllByRole('button', { name: 'Copy' }),
    ).toHaveLength(8);
    expect(groups()[8]?.hasAttribute('data-windowed')).toBe(false);
    expect(groups()[8]?.querySelectorAll('.ms-chat__stand-in')).toHaveLength(0);
    // The older ones are their turns' text: readable and findable, no controls.
    const old = groups()[0] as HTMLElement;
    expect(old.hasAttribute('data-windowed')).toBe(true);
    expect(within(old).queryAllByRole('button')).toHaveLength(0);
    expect(within(old).getAllByRole('article', { name: 'Assistant' })).toHaveLength(4);
    expect(within(old).getAllByRole('article', { name: 'You said' })).toHaveLength(4);
    expect(old.textContent).toContain('Answer **1**');
    expect(log.textContent).toContain('Question 1');
    // A stand-in keeps a size for its group until the browser has laid it out.
    expect(old.style.containIntrinsicSize).toMatch(/^auto \d+px$/);
  });

  it('mounts a group as it comes near the viewport and lets it go past that', async () => {
    const { groups } = setup();
    const first = groups()[0] as HTMLElement;
    await near(first, true);
    expect(first.hasAttribute('data-windowed')).toBe(false);
    expect(within(first).getAllByRole('button', { name: 'Copy' })).toHaveLength(8);
    // The answers went through their renderers, not the stand-in.
    expect(within(first).getByText('Answer **1**').classList.contains('ms-chat__stand-in')).toBe(
      false,
    );
    await near(first, false);
    expect(first.hasAttribute('data-windowed')).toBe(true);
    expect(within(first).queryAllByRole('button')).toHaveLength(0);
  });

  it('keeps a group holding the focus mounted when it goes far away', async () => {
    const { groups } = setup();
    const first = groups()[0] as HTMLElement;
    await near(first, true);
    const copy = within(first).getAllByRole('button', { name: 'Copy' })[0] as HTMLElement;
    copy.focus();
    await near(first, false);
    expect(copy.isConnected).toBe(true);
    expect(document.activeElement).toBe(copy);
    // Once the focus has left, the next report lets it go.
    copy.blur();
    await near(first, false);
    expect(first.hasAttribute('data-windowed')).toBe(true);
  });

  it('never windows the newest group, and watches only the others', () => {
    const { groups } = setup();
    const last = groups()[9] as Element;
    expect(targets.has(last)).toBe(false);
    expect(targets.has(groups()[0] as Element)).toBe(true);
  });

  it('keeps every group mounted, and watches none, in a thread of eight groups or fewer', () => {
    const store = createChatStore({
      request: { model: 'claude-opus-5', max_tokens: 1024 },
      initialMessages: history.slice(0, 64),
    });
    render(<ChatStream store={store} renderers={renderers} />);
    const log = screen.getAllByRole('log', { name: 'Conversation' }).at(-1) as HTMLElement;
    const groups = [...log.querySelectorAll('.ms-chat__turns')];
    expect(groups).toHaveLength(8);
    expect(log.querySelectorAll('[data-windowed]')).toHaveLength(0);
    expect(groups.filter((group) => targets.has(group))).toHaveLength(0);
    // The oldest group is there as its messages (each with its Copy), not as their text.
    expect(within(groups[0] as HTMLElement).getAllByRole('button', { name: 'Copy' })).toHaveLength(
      8,
    );
  });

  it('does not re-render a turn while the composer is typed into', async () => {
    setup();
    const user = userEvent.setup();
    const before = textRenders;
    expect(before).toBeGreaterThan(0);
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'A new question');
    expect(textRenders).toBe(before);
  });
});
