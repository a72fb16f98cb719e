/**
 * assistant-ui: `useLocalRuntime` with a `ChatModelAdapter` that streams the answer through
 * `@anthropic-ai/sdk`'s `MessageStream` (its `fetch`: the same mock as every contender),
 * yielding the message so far after every event, rendered with the Thread and Message
 * primitives and `@assistant-ui/react-markdown`'s `MarkdownTextPrimitive` (remark-gfm).
 */
import Anthropic from '@anthropic-ai/sdk';
import {
  AssistantRuntimeProvider,
  type ChatModelAdapter,
  type ChatModelRunResult,
  MessagePrimitive,
  ThreadPrimitive,
  useLocalRuntime,
} from '@assistant-ui/react';
import { MarkdownTextPrimitive } from '@assistant-ui/react-markdown';
import { type ReactElement, useEffect, useMemo } from 'react';
import remarkGfm from 'remark-gfm';
import { MAX_TOKENS, MODEL, QUESTION } from '../net.js';
import type { PeerChatProps } from './ai-sdk.js';

type Content = Exclude<ChatModelRunResult['content'], undefined>;

/** The SDK's message snapshot as assistant-ui parts. */
function toParts(message: Anthropic.Message): Content {
  const parts: Content[number][] = [];
  for (const block of message.content) {
    if (block.type === 'thinking') parts.push({ type: 'reasoning', text: block.thinking });
    else if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') {
      const args = (block.input ?? {}) as Record<string, never>;
      parts.push({
        type: 'tool-call',
        toolCallId: block.id,
        toolName: block.name,
        args,
        argsText: JSON.stringify(args),
      });
    }
  }
  return parts;
}

function modelAdapter(fetchImpl: typeof fetch): ChatModelAdapter {
  return {
    async *run({ abortSignal }) {
      const client = new Anthropic({
        apiKey: 'bench',
        fetch: fetchImpl,
        maxRetries: 0,
        dangerouslyAllowBrowser: true,
      });
      const stream = client.messages.stream(
        { model: MODEL, max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: QUESTION }] },
        { signal: abortSignal },
      );
      for await (const _event of stream) {
        yield { content: toParts(stream.currentMessage as Anthropic.Message) };
      }
      yield { content: toParts(await stream.finalMessage()) };
    },
  };
}

const MarkdownText = () => <MarkdownTextPrimitive remarkPlugins={[remarkGfm]} />;

function Messages(): ReactElement {
  return (
    <ThreadPrimitive.Messages>
      {({ message }) =>
        message.role === 'assistant' ? (
          <MessagePrimitive.Root>
            <article
              className="peer"
              aria-label="Assistant"
              data-status={message.status?.type === 'running' ? 'streaming' : 'complete'}
            >
              <MessagePrimitive.Parts>
                {({ part }) => {
                  if (part.type === 'text') {
                    return (
                      <div data-block="text" className="peer-markdown">
                        <MarkdownText />
                      </div>
                    );
                  }
                  if (part.type === 'reasoning') {
                    return (
                      <details data-block="thinking">
                        <summary>Thinking</summary>
                        <p>{part.text}</p>
                      </details>
                    );
                  }
                  if (part.type === 'tool-call') {
                    return (
                      <section data-block="tool_use">
                        <h3>Tool: {part.toolName}</h3>
                        <pre>{JSON.stringify(part.args, null, 2)}</pre>
                      </section>
                    );
                  }
                  return <></>;
                }}
              </MessagePrimitive.Parts>
            </article>
          </MessagePrimitive.Root>
        ) : (
          <MessagePrimitive.Root>
            <p>
              <MessagePrimitive.Parts />
            </p>
          </MessagePrimitive.Root>
        )
      }
    </ThreadPrimitive.Messages>
  );
}

export function AssistantUiChat({ fetch: fetchImpl, onReady }: PeerChatProps): ReactElement {
  const adapter = useMemo(() => modelAdapter(fetchImpl), [fetchImpl]);
  const runtime = useLocalRuntime(adapter);
  useEffect(() => onReady(() => runtime.thread.append(QUESTION)), [onReady, runtime]);
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <ThreadPrimitive.Root className="peer-thread">
        <ThreadPrimitive.Viewport className="peer-viewport">
          <Messages />
        </ThreadPrimitive.Viewport>
      </ThreadPrimitive.Root>
    </AssistantRuntimeProvider>
  );
}
