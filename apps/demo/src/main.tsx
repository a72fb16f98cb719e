import '@message-stream/react/styles.css';
import './demo.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';

const live = import.meta.env.VITE_LIVE_API === 'true';

async function start() {
  if (!live) {
    // The built-in mock: a service worker answers POST /v1/messages from recorded fixtures.
    const [{ setupWorker }, { createMockHandlers }] = await Promise.all([
      import('msw/browser'),
      import('@message-stream/mock'),
    ]);
    await setupWorker(...createMockHandlers()).start({
      onUnhandledRequest: 'bypass',
      quiet: true,
    });
  }
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App live={live} />
    </StrictMode>,
  );
}

void start();
