import '@message-stream/react/styles.css';
import './demo.css';
import { createStreamRecorder, preloadParts } from '@message-stream/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, type FixtureChoice, initialScenario } from './App.js';
import { createDemoThreads } from './threads.js';

const live = import.meta.env.VITE_LIVE_API === 'true';

async function start() {
  let fixtures: FixtureChoice[] = [];
  if (!live) {
    // The built-in mock: a service worker answers POST /v1/messages from recorded fixtures.
    // Loaded only here, so a live build carries none of it.
    const [{ setupWorker }, mock] = await Promise.all([
      import('msw/browser'),
      import('@message-stream/mock'),
    ]);
    await setupWorker(...mock.createMockHandlers()).start({
      onUnhandledRequest: 'bypass',
      quiet: true,
    });
    fixtures = mock.fixtures.map(({ name, description }) => ({ name, description }));
  }
  const scenarioHolder = { current: initialScenario(fixtures) };
  const recorder = createStreamRecorder();
  // The saved conversations are read before the first render, so the page opens on them.
  // The thread list is always on screen: its chunk loads with the rest, so it does not pop
  // in after the first paint.
  const [{ threads, problems }] = await Promise.all([
    createDemoThreads({ live, recorder, scenario: () => scenarioHolder.current }),
    preloadParts(),
  ]);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App
        live={live}
        fixtures={fixtures}
        threads={threads}
        problems={problems}
        recorder={recorder}
        scenarioHolder={scenarioHolder}
      />
    </StrictMode>,
  );
}

void start();
