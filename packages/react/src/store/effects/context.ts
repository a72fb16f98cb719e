import type { MessageParam, StreamState } from '@message-stream/core';
import type { ChatAction, ChatModel } from '../reducer.js';
import type { ChatStoreOptions, Turn } from '../types.js';

/**
 * What an effect may touch: it reads the model and the options, and changes anything only
 * by dispatching an action to the reducer.
 */
export interface EffectContext {
  dispatch(action: ChatAction): void;
  model(): ChatModel;
  options(): ChatStoreOptions;
  newId(prefix: string): string;
  /** The request messages for these turns, each turn as it was first sent. */
  history(turns: readonly Turn[]): MessageParam[];
  /**
   * Builds, over several tasks, the request form of those of `turns` whose form is not built
   * yet, so `history` then finds them ready: null when few are missing (the send goes on in
   * its own task, as it always did).
   */
  prepareHistory(turns: readonly Turn[]): Promise<void> | null;
  /** Forget how `turnId` was sent: it changes in place (resume, continue). */
  forgetSent(turnId: string): void;
  /** The one request (or tool run) in flight; starting another aborts it. */
  readonly flight: Flight;
  /**
   * Starts a new answer under `parentId`, and what follows it (tools, paused turns); in the
   * place of the answer `replacing` (a failed one nothing arrived of), when given.
   */
  answer(parentId: string, roundtrip: number, replacing?: string): Promise<void>;
  /** Runs what follows a finished answer: its tool calls, or a paused turn's continuation. */
  afterAnswer(id: string, streamed: StreamedAnswer, roundtrip: number): Promise<void>;
}

/**
 * What runs for a conversation: one stream, or tool calls. `begin` aborts everything that
 * runs (a new request replaces the old); `join` runs beside it (a second approved tool);
 * `abort` is `stop()`.
 */
export class Flight {
  private readonly running = new Set<AbortController>();
  /** Set by `close()`, once the store is disposed: what begins now is stopped before it starts. */
  closed = false;

  begin(): AbortController {
    this.abort();
    return this.join();
  }

  join(): AbortController {
    const controller = new AbortController();
    if (this.closed) controller.abort();
    else this.running.add(controller);
    return controller;
  }

  /**
   * Aborts what runs and everything begun later: an action that was waiting as the store was
   * disposed (a regenerate settling the answer it stops) sends nothing when it goes on.
   */
  close(): void {
    this.closed = true;
    this.abort();
  }

  end(controller: AbortController): void {
    this.running.delete(controller);
  }

  get busy(): boolean {
    return this.running.size > 0;
  }

  abort(): void {
    for (const controller of this.running) controller.abort();
    this.running.clear();
  }
}

/** What one request streamed into an answer: its final state, and when content first came. */
export interface StreamedAnswer {
  readonly final: StreamState;
  readonly firstContentAt: number | undefined;
}
