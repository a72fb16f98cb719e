import { createStreamState, endStream, type StreamState } from '@message-stream/core';
import { describe, expect, it } from 'vitest';
import {
  type ChatAction,
  type ChatModel,
  chatReducer,
  initialModel,
} from '../../src/store/reducer.js';
import { activePath, linearTree } from '../../src/store/tree.js';
import type { AssistantTurn, ConversationTree, UserTurn } from '../../src/store/types.js';

const user = (id: string, content = id): UserTurn => ({ id, role: 'user', content });
const answer = (id: string, stream: StreamState = createStreamState()): AssistantTurn => ({
  id,
  role: 'assistant',
  request: { model: 'claude-opus-5', max_tokens: 64 },
  stream,
  toolResults: {},
  startedAt: 0,
  finishedAt: null,
});
const streaming: StreamState = { ...createStreamState(), status: 'streaming' };
const complete: StreamState = { ...createStreamState(), status: 'complete', stopReceived: true };
const apply = (actions: ChatAction[], model = initialModel()) => actions.reduce(chatReducer, model);

describe('chatReducer', () => {
  it('walks the path again after a damaged (cyclic) tree, whose path repeats turns', () => {
    const tree: ConversationTree = {
      nodes: { u: user('u'), a: answer('a') },
      parents: { u: '', a: 'u' },
      // a → u: a cycle, as a damaged saved tree may have.
      children: { '': ['u'], u: ['a'], a: ['u'] },
      selected: {},
    };
    const model = initialModel(tree);
    expect(model.turns.map((turn) => turn.id)).toEqual(['u', 'a', 'u']);
    const next = chatReducer(model, { type: 'user-turn-added', turn: user('n'), parentId: 'u' });
    expect(next.turns).toEqual(activePath(next.tree));
    // An id the tree has already is not appended blindly either.
    const again = chatReducer(next, { type: 'user-turn-added', turn: user('a'), parentId: 'n' });
    expect(again.turns).toEqual(activePath(again.tree));
  });

  it('shows an added turn as the path of its tree, under the last turn or elsewhere', () => {
    let model = initialModel(linearTree([user('u1'), answer('a1')]));
    const steps: ChatAction[] = [
      { type: 'user-turn-added', turn: user('u2'), parentId: 'a1' },
      { type: 'answer-started', turn: answer('a2'), parentId: 'u2' },
      // An edit: a sibling of u2, under a turn that is not the last one.
      { type: 'user-turn-added', turn: user('u2b'), parentId: 'a1' },
      { type: 'answer-started', turn: answer('a2b'), parentId: 'u2b' },
      // A first message of another branch at the root.
      { type: 'user-turn-added', turn: user('u0'), parentId: '' },
    ];
    const paths: string[][] = [];
    for (const step of steps) {
      model = chatReducer(model, step);
      expect(model.turns).toEqual(activePath(model.tree));
      paths.push(model.turns.map((turn) => turn.id));
    }
    expect(paths).toEqual([
      ['u1', 'a1', 'u2'],
      ['u1', 'a1', 'u2', 'a2'],
      ['u1', 'a1', 'u2b'],
      ['u1', 'a1', 'u2b', 'a2b'],
      ['u0'],
    ]);
    // The earlier turns are the same objects: memoized messages do not render again.
    const start = initialModel(linearTree([user('u1'), answer('a1')]));
    const sent = chatReducer(start, steps[0] as ChatAction);
    expect(sent.turns.slice(0, 2)).toEqual(start.turns);
    for (const [i, turn] of start.turns.entries()) expect(sent.turns[i]).toBe(turn);
  });

  it('walks a send through submitted, streaming and complete', () => {
    const statuses: string[] = [];
    let model = initialModel();
    for (const action of [
      { type: 'user-turn-added', turn: user('u1'), parentId: '' },
      { type: 'answer-started', turn: answer('a1'), parentId: 'u1' },
      { type: 'stream-updated', id: 'a1', stream: streaming },
      { type: 'stream-updated', id: 'a1', stream: streaming },
      { type: 'answer-ended', id: 'a1', stream: complete, finishedAt: 5, toolsFollow: false },
    ] satisfies ChatAction[]) {
      model = chatReducer(model, action);
      statuses.push(model.status);
    }
    expect(statuses).toEqual(['submitted', 'submitted', 'streaming', 'streaming', 'complete']);
    expect(model.turns.map((turn) => turn.id)).toEqual(['u1', 'a1']);
    expect(model.live).toBeNull();
    expect((model.turns[1] as AssistantTurn).finishedAt).toBe(5);
  });

  it('leaves the status to the newer answer when an older one ends late', () => {
    const model = apply([
      { type: 'user-turn-added', turn: user('u1'), parentId: '' },
      { type: 'answer-started', turn: answer('a1'), parentId: 'u1' },
      { type: 'user-turn-added', turn: user('u2'), parentId: 'a1' },
      { type: 'answer-started', turn: answer('a2'), parentId: 'u2' },
      {
        type: 'answer-ended',
        id: 'a1',
        stream: endStream(streaming, { type: 'abort' }),
        finishedAt: 1,
        toolsFollow: false,
      },
    ]);
    expect(model.status).toBe('submitted');
    expect(model.live).toBe('a2');
    expect((model.tree.nodes.a1 as AssistantTurn).stream.status).toBe('aborted');
  });

  it('tracks tool calls: running, awaiting approval, stopped, limited', () => {
    const base = apply([
      { type: 'user-turn-added', turn: user('u1'), parentId: '' },
      { type: 'answer-started', turn: answer('a1'), parentId: 'u1' },
      { type: 'answer-ended', id: 'a1', stream: complete, finishedAt: 1, toolsFollow: true },
    ]);
    expect(base.status).toBe('running-tools');
    const asking = chatReducer(base, {
      type: 'tool-results-updated',
      id: 'a1',
      results: { t1: { status: 'awaiting-approval' }, t2: { status: 'running' } },
    });
    expect(asking.status).toBe('running-tools');
    const waiting = chatReducer(asking, {
      type: 'tool-results-updated',
      id: 'a1',
      results: { t2: { status: 'complete', content: 'ok' } },
    });
    expect(waiting.status).toBe('awaiting-approval');
    const stopped = chatReducer(asking, {
      type: 'tools-stopped',
      id: 'a1',
      results: { t2: { status: 'error', content: 'Stopped', isError: true } },
    });
    expect(stopped.status).toBe('aborted');
    const limited = chatReducer(base, {
      type: 'tool-loop-limited',
      id: 'a1',
      error: { type: 'tool_loop_limit', message: 'x', description: 'x', retryable: false },
    });
    expect(limited.status).toBe('complete');
    expect(limited.error?.type).toBe('tool_loop_limit');
  });

  it('adds siblings, shows the newest, and switches branches with the status of the shown one', () => {
    const done = { ...complete };
    const model = apply([
      { type: 'user-turn-added', turn: user('u1'), parentId: '' },
      { type: 'answer-started', turn: answer('a1'), parentId: 'u1' },
      { type: 'answer-ended', id: 'a1', stream: done, finishedAt: 1, toolsFollow: false },
      { type: 'answer-started', turn: answer('a2'), parentId: 'u1' },
      { type: 'stream-updated', id: 'a2', stream: streaming },
    ]);
    expect(model.turns.map((turn) => turn.id)).toEqual(['u1', 'a2']);
    expect(model.tree.children.u1).toEqual(['a1', 'a2']);
    const back = chatReducer(model, { type: 'branch-selected', turnId: 'a2', index: 0 });
    expect(back.turns.map((turn) => turn.id)).toEqual(['u1', 'a1']);
    expect(back.status).toBe('complete');
    const again = chatReducer(back, { type: 'branch-selected', turnId: 'a1', index: 1 });
    expect(again.status).toBe('streaming');
    // Out of range: nothing changes, the same object comes back.
    expect(chatReducer(again, { type: 'branch-selected', turnId: 'a1', index: 7 })).toBe(again);
  });

  it('replaces the conversation and reads status from the shown last answer', () => {
    const interrupted = endStream(streaming, { type: 'network', message: 'reload' });
    const model = chatReducer(initialModel(), {
      type: 'replaced',
      tree: linearTree([user('u1'), answer('a1', interrupted)]),
    });
    expect(model.status).toBe('interrupted');
    expect(model.error?.type).toBe('network_error');
    expect(chatReducer(model, { type: 'replaced', tree: linearTree([]) }).status).toBe('idle');
  });

  it('keeps a refused send out of the turns, with its error', () => {
    const error = { type: 'attachment_error', message: 'x', description: 'x', retryable: false };
    const model = chatReducer(initialModel(), { type: 'send-refused', error });
    expect(model.turns).toEqual([]);
    expect(model.status).toBe('idle');
    expect(model.error).toBe(error);
  });

  it('streams into the last answer of a long conversation without walking its turns', () => {
    const history = Array.from({ length: 1000 }, (_, i) =>
      i % 2 === 0 ? user(`u${i}`) : answer(`a${i}`, complete),
    );
    const start = initialModel(linearTree([...history, user('q'), answer('live')]));
    let walks = 0;
    const nodes = new Proxy(start.tree.nodes, {
      ownKeys(target) {
        walks++;
        return Reflect.ownKeys(target);
      },
    });
    let model: ChatModel = { ...start, tree: { ...start.tree, nodes }, live: 'live' };
    for (let i = 0; i < 50; i++) {
      model = chatReducer(model, { type: 'stream-updated', id: 'live', stream: { ...streaming } });
    }
    model = chatReducer(model, {
      type: 'answer-ended',
      id: 'live',
      stream: complete,
      finishedAt: 9,
      toolsFollow: false,
    });
    expect(walks).toBe(0);
    expect(model.status).toBe('complete');
    expect(model.turns.at(-1)).toMatchObject({ id: 'live', stream: complete, finishedAt: 9 });
    expect(model.tree.nodes.live).toBe(model.turns.at(-1));
    expect(model.turns[0]).toBe(start.turns[0]);
  });

  it('changes only the updated answer object on a stream update', () => {
    const model = apply([
      { type: 'user-turn-added', turn: user('u1'), parentId: '' },
      { type: 'answer-started', turn: answer('a1'), parentId: 'u1' },
    ]);
    const next = chatReducer(model, { type: 'stream-updated', id: 'a1', stream: streaming });
    expect(next.turns[0]).toBe(model.turns[0]);
    expect(next.turns[1]).not.toBe(model.turns[1]);
    expect(next.tree.children).toBe(model.tree.children);
  });
});
