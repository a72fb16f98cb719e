import axe from 'axe-core';

export {
  blockAt,
  blockState,
  blocksOf,
  everyStateOf as everyState,
  finalStateOf as finalState,
} from '@message-stream/mock/testing';

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
