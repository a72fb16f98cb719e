import { memo, type ReactElement } from 'react';
import type { BlockRenderers } from '../components/content-block-view.js';
import { isToolResultsTurn } from '../store/conversation.js';
import type { Turn } from '../store/types.js';
import { AssistantMessage } from './assistant-message.js';
import { UserMessage } from './user-message.js';

/**
 * Turns per group in the log. The log holds groups, not turns, so that a 1,000-turn thread is
 * ~60 boxes for the browser to lay out and paint each frame rather than 2,000: every group but
 * the newest skips layout and paint while off screen (`content-visibility`, styles.css), and a
 * skipped box still costs a visit per frame. A turn stays in its group for good (groups are by
 * index), so nothing is re-parented and no turn loses its state as the thread grows.
 */
export const TURNS_PER_GROUP = 32;

export interface TurnGroupProps {
  readonly turns: readonly Turn[];
  readonly renderers?: BlockRenderers | undefined;
  readonly textMode?: 'markdown' | 'plain' | undefined;
}

const sameTurns = (a: TurnGroupProps, b: TurnGroupProps): boolean =>
  a.renderers === b.renderers &&
  a.textMode === b.textMode &&
  a.turns.length === b.turns.length &&
  a.turns.every((turn, i) => turn === b.turns[i]);

/** One group of consecutive turns; re-renders only when one of its turns changed. */
export const TurnGroup = memo(function TurnGroup({
  turns,
  renderers,
  textMode,
}: TurnGroupProps): ReactElement {
  return (
    <div className="ms-chat__turns">
      {turns.map((turn) =>
        turn.role === 'user' ? (
          isToolResultsTurn(turn) ? null : (
            <UserMessage key={turn.id} turn={turn} />
          )
        ) : (
          <AssistantMessage key={turn.id} turn={turn} renderers={renderers} textMode={textMode} />
        ),
      )}
    </div>
  );
}, sameTurns);

/** `turns` cut into groups of `TURNS_PER_GROUP`, by index. */
export function groupTurns(turns: readonly Turn[]): Turn[][] {
  const groups: Turn[][] = [];
  for (let i = 0; i < turns.length; i += TURNS_PER_GROUP) {
    groups.push(turns.slice(i, i + TURNS_PER_GROUP));
  }
  return groups;
}
