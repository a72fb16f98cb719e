// A server component: ChatStream is a client component ('use client' in the package), so
// it can be rendered from here directly. Only the model name is passed down; the key stays
// in the route handler.
import { ChatStream } from '@message-stream/react';
import { MODEL } from './model';

export default function Page() {
  return (
    <main style={{ height: '100dvh', display: 'flex', flexDirection: 'column' }}>
      <ChatStream
        endpoint="/api/messages"
        label="Chat"
        request={{ model: MODEL, max_tokens: 4096 }}
      />
    </main>
  );
}
