/**
 * What a fixture's uninterrupted stream amounts to, computed in Node with the core's
 * `accumulate` over the fixture file: the expected values the page is compared with.
 */
import { accumulate, type Message, toMessage } from '@message-stream/core';
import { loadFixture } from '@message-stream/mock';

export async function fixtureMessage(name: string): Promise<Message> {
  const state = await accumulate(await loadFixture(name));
  const message = toMessage(state);
  if (state.status !== 'complete' || message === null) {
    throw new Error(`Fixture ${name} does not accumulate to a complete message (${state.status}).`);
  }
  return message;
}

/** The raw (markdown) text of the fixture's text blocks, in order. */
export async function fixtureText(name: string): Promise<string> {
  const message = await fixtureMessage(name);
  return message.content
    .flatMap((block) => (block.type === 'text' ? [(block as { text: string }).text] : []))
    .join('\n');
}

/** The input of the fixture's first `tool_use` block. */
export async function fixtureToolInput(name: string): Promise<unknown> {
  const message = await fixtureMessage(name);
  const tool = message.content.find((block) => block.type === 'tool_use');
  if (!tool) throw new Error(`Fixture ${name} has no tool_use block.`);
  return (tool as { input: unknown }).input;
}

/**
 * Inline markdown (emphasis, strong, code spans) as a reader sees it: the markers removed,
 * whitespace collapsed. Enough for answers made of paragraphs with inline formatting.
 */
export const inlineMarkdownAsText = (markdown: string): string =>
  markdown.replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim();

/**
 * Whether `partial` is what a partial parse of `final`'s JSON can show: the same shape, every
 * string a prefix of the final one, objects with a subset of the keys, arrays no longer.
 */
export function isPartialOf(partial: unknown, final: unknown): boolean {
  if (typeof partial === 'string') return typeof final === 'string' && final.startsWith(partial);
  if (Array.isArray(partial)) {
    return (
      Array.isArray(final) &&
      partial.length <= final.length &&
      partial.every((item, index) => isPartialOf(item, final[index]))
    );
  }
  if (partial !== null && typeof partial === 'object') {
    if (final === null || typeof final !== 'object' || Array.isArray(final)) return false;
    const whole = final as Record<string, unknown>;
    return Object.entries(partial).every(
      ([key, value]) => Object.hasOwn(whole, key) && isPartialOf(value, whole[key]),
    );
  }
  // Numbers may still be growing digits; literals are whole once shown.
  if (typeof partial === 'number' && typeof final === 'number') {
    return String(final).startsWith(String(partial));
  }
  return Object.is(partial, final);
}
