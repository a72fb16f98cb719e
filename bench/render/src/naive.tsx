/**
 * The baseline: what a hand-rolled useState chat does. fetch, split the body on blank lines,
 * JSON.parse each `data:` line, append each delta to the message kept in state, and render
 * the whole message again on every delta: the full text through react-markdown + remark-gfm,
 * the thinking text and the tool's JSON as plain text.
 */
import { type ReactElement, useEffect, useState } from 'react';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { requestAnswer } from './net.js';

interface NaiveMessage {
  readonly thinking: string;
  readonly text: string;
  readonly toolName: string;
  readonly toolJson: string;
  /** content_block_stop events seen: blocks 0..stopped-1 are finished. */
  readonly stopped: number;
  readonly done: boolean;
}

const EMPTY: NaiveMessage = {
  thinking: '',
  text: '',
  toolName: '',
  toolJson: '',
  stopped: 0,
  done: false,
};

interface SseEvent {
  type: string;
  index?: number;
  content_block?: { type: string; name?: string };
  delta?: { type: string; text?: string; thinking?: string; partial_json?: string };
}

export interface NaiveChatProps {
  readonly fetch: typeof fetch;
  /** Hands the parent the function that sends the question. */
  readonly onReady: (start: () => void) => void;
}

export function NaiveChat({ fetch: fetchImpl, onReady }: NaiveChatProps): ReactElement {
  const [message, setMessage] = useState<NaiveMessage>(EMPTY);
  const [started, setStarted] = useState(false);

  useEffect(() => {
    const handle = (event: SseEvent) => {
      if (event.type === 'content_block_start' && event.content_block?.type === 'tool_use') {
        const name = event.content_block.name ?? 'tool';
        setMessage((m) => ({ ...m, toolName: name }));
      } else if (event.type === 'content_block_delta') {
        const delta = event.delta;
        if (delta?.type === 'text_delta') {
          setMessage((m) => ({ ...m, text: m.text + (delta.text ?? '') }));
        } else if (delta?.type === 'thinking_delta') {
          setMessage((m) => ({ ...m, thinking: m.thinking + (delta.thinking ?? '') }));
        } else if (delta?.type === 'input_json_delta') {
          setMessage((m) => ({ ...m, toolJson: m.toolJson + (delta.partial_json ?? '') }));
        }
      } else if (event.type === 'content_block_stop') {
        setMessage((m) => ({ ...m, stopped: m.stopped + 1 }));
      } else if (event.type === 'message_stop') {
        setMessage((m) => ({ ...m, done: true }));
      }
    };

    const stream = async () => {
      const response = await requestAnswer(fetchImpl);
      if (response.body === null) throw new Error('No body');
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const raw = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = raw.split('\n').find((line) => line.startsWith('data: '));
          if (data !== undefined) handle(JSON.parse(data.slice(6)) as SseEvent);
        }
      }
    };

    onReady(() => {
      setStarted(true);
      void stream();
    });
  }, [fetchImpl, onReady]);

  const status = message.done ? 'complete' : started ? 'streaming' : 'idle';
  return (
    <article className="naive" aria-label="Assistant" data-status={status}>
      {message.thinking !== '' ? (
        <details
          data-block="thinking"
          data-size={message.thinking.length}
          data-status={message.stopped > 0 ? 'complete' : 'streaming'}
          open={message.text === ''}
        >
          <summary>Thinking</summary>
          <p>{message.thinking}</p>
        </details>
      ) : null}
      {message.text !== '' ? (
        <div
          className="naive-markdown"
          data-block="text"
          data-size={message.text.length}
          data-status={message.stopped > 1 ? 'complete' : 'streaming'}
        >
          <ReactMarkdown remarkPlugins={[remarkGfm]}>{message.text}</ReactMarkdown>
        </div>
      ) : null}
      {message.toolName !== '' ? (
        <section
          data-block="tool_use"
          data-size={message.toolJson.length}
          data-status={message.stopped > 2 ? 'complete' : 'streaming'}
        >
          <h3>Tool: {message.toolName}</h3>
          <pre>{message.toolJson}</pre>
        </section>
      ) : null}
    </article>
  );
}
