import {
  createStreamState,
  emptyMessage,
  type StreamError,
  type StreamState,
  type StreamStatus,
} from '@message-stream/core';
import axe from 'axe-core';

export {
  blockAt,
  blockState,
  blocksOf,
  everyStateOf as everyState,
  finalStateOf as finalState,
} from '@message-stream/mock/testing';

/**
 * A stream that ended with `status`: with `text`, some of the answer arrived (so Resume, where
 * the stream can be continued); without, nothing did (so Retry).
 */
export function endedStream(
  status: StreamStatus,
  { text, error = null }: { text?: string; error?: StreamError | null } = {},
): StreamState {
  return {
    ...createStreamState(),
    status,
    error,
    message:
      text === undefined
        ? null
        : {
            ...emptyMessage(),
            content: [{ index: 0, status: 'streaming', block: { type: 'text', text } }],
          },
  };
}

/**
 * axe-core on a rendered fragment. `region` is off: these are components tested on their own,
 * outside any page landmarks, and that rule is about the page around them, not the component.
 */
export async function axeViolations(container: Element): Promise<string[]> {
  const result = await axe.run(container, { rules: { region: { enabled: false } } });
  return result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}

/**
 * Records each read of a layout property (`scrollWidth`, `scrollHeight`) on elements with
 * `className`, as the phase the test is in when it happens: `'commit'` until `settled()` is
 * called, `'after'` from then on. A read in a commit forces a layout of what it just changed.
 * `restore()` puts the property back.
 */
export function layoutReads(property: 'scrollWidth' | 'scrollHeight', className: string) {
  const original = Object.getOwnPropertyDescriptor(Element.prototype, property);
  const reads: ('commit' | 'after')[] = [];
  let phase: 'commit' | 'after' = 'commit';
  Object.defineProperty(Element.prototype, property, {
    configurable: true,
    get(this: Element) {
      if (this.classList.contains(className)) reads.push(phase);
      return original?.get?.call(this);
    },
  });
  return {
    reads,
    settled: () => {
      phase = 'after';
    },
    restore: () => {
      if (original) Object.defineProperty(Element.prototype, property, original);
    },
  };
}
