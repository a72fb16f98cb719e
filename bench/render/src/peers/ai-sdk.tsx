/**
 * The AI SDK stack (what AI Elements builds on): `useChat` with a client-side `ChatTransport`
 * whose `sendMessages` runs `streamText` on `@ai-sdk/anthropic` (its `fetch`: the same mock
 * as every contender) and returns `toUIMessageStream()`. Text parts render through
 * streamdown (AI Elements' `MessageResponse` is a memoized `<Streamdown>`); reasoning and the
 * tool call render plainly.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { useChat } from '@ai-sdk/react';
import {
  type ChatTransport,
  convertToModelMessages,
  jsonSchema,
  streamText,
  tool,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { memo, type ReactElement, useEffect, useMemo } from 'react';
import { Streamdown } from 'streamdown';
import { MAX_TOKENS, MODEL, QUESTION } from '../net.js';
import { TOOL_NAME } from '../sse.js';

class MockTransport implements ChatTransport<UIMessage> {
  readonly #fetch: typeof fetch;
  constructor(fetchImpl: typeof fetch) {
    this.#fetch = fetchImpl;
  }

  async sendMessages({
    messages,
    abortSignal,
  }: Parameters<ChatTransport<UIMessage>['sendMessages']>[0]): Promise<
    ReadableStream<UIMessageChunk>
  > {
    const anthropic = createAnthropic({ apiKey: 'bench', fetch: this.#fetch });
    const result = streamText({
      model: anthropic(MODEL),
      messages: await convertToModelMessages(messages),
      maxOutputTokens: MAX_TOKENS,
      // Declared so the call is a known tool (no execute: the answer ends with the call).
      tools: { [TOOL_NAME]: tool({ inputSchema: jsonSchema({ type: 'object' }) }) },
      ...(abortSignal ? { abortSignal } : {}),
    });
    return result.toUIMessageStream();
  }

  async reconnectToStream(): Promise<ReadableStream<UIMessageChunk> | null> {
    return null;
  }
}

/** AI Elements' `MessageResponse`: streamdown, memoized on its text. */
const MessageResponse = memo(
  function MessageResponse({ text, animating }: { text: string; animating: boolean }) {
    return <Streamdown isAnimating={animating}>{text}</Streamdown>;
  },
  (a, b) => a.text === b.text && a.animating === b.animating,
);

export interface PeerChatProps {
  readonly fetch: typeof fetch;
  /** Hands the parent the function that sends the question. */
  readonly onReady: (start: () => void) => void;
}

export function AiSdkChat({ fetch: fetchImpl, onReady }: PeerChatProps): ReactElement {
  const transport = useMemo(() => new MockTransport(fetchImpl), [fetchImpl]);
  const { messages, sendMessage, status } = useChat({ transport });
  useEffect(() => onReady(() => void sendMessage({ text: QUESTION })), [onReady, sendMessage]);

  const answer = messages.findLast((m) => m.role === 'assistant');
  const streaming = status === 'streaming' || status === 'submitted';
  const state = answer === undefined ? 'idle' : streaming ? 'streaming' : 'complete';
  return (
    <article className="peer" aria-label="Assistant" data-status={state}>
      {answer?.parts.map((part, i) => {
        const key = `${answer.id}-${i}`;
        if (part.type === 'text') {
          return (
            <div key={key} data-block="text" className="peer-markdown">
              <MessageResponse text={part.text} animating={streaming} />
            </div>
          );
        }
        if (part.type === 'reasoning') {
          return (
            <details key={key} data-block="thinking">
              <summary>Thinking</summary>
              <p>{part.text}</p>
            </details>
          );
        }
        if (part.type === `tool-${TOOL_NAME}` && 'input' in part) {
          return (
            <section key={key} data-block="tool_use">
              <h3>Tool: {TOOL_NAME}</h3>
              <pre>{JSON.stringify(part.input ?? null, null, 2)}</pre>
            </section>
          );
        }
        return null;
      })}
    </article>
  );
}
