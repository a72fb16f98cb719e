import '@message-stream/react/styles.css';
import { createMockHandlers } from '@message-stream/mock';
import { preloadParts } from '@message-stream/react';
import type { Decorator, Preview } from '@storybook/react-vite';
import { setupWorker } from 'msw/browser';
import { mswLoader } from 'msw-storybook-addon/csf3';

/**
 * The mock API for every story: MSW's service worker answers `POST …/v1/messages` from the
 * recorded fixtures (the scenario comes from each request's `x-mock-scenario` header). These are
 * the worker's initial handlers, so they survive the addon's reset between stories; a story adds
 * its own with `parameters.msw`. Anything else (Vite modules, the fixtures' own files) passes.
 */
const startWorker = async () => {
  const worker = setupWorker(...createMockHandlers());
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
  return worker;
};

/** Light or dark, through the stylesheet's `data-theme`, on a frame painted with its colours. */
const withTheme: Decorator = (Story, { globals }) => {
  const theme = globals.theme === 'dark' ? 'dark' : 'light';
  return (
    <div
      data-theme={theme}
      style={{
        background: 'var(--ms-bg)',
        color: 'var(--ms-fg)',
        fontFamily: 'var(--ms-font)',
        padding: '1rem',
        minHeight: '100vh',
        boxSizing: 'border-box',
      }}
    >
      <Story />
    </div>
  );
};

const preview: Preview = {
  // A docs page per story file: its component's props table (from the types) and its stories.
  tags: ['autodocs'],
  // The parts @message-stream/react loads on demand (the open tool card, the server tool
  // results, the thread list) are loaded before a story renders: the stories show the parts,
  // and their play functions read them on the first render.
  loaders: [mswLoader(startWorker), () => preloadParts()],
  decorators: [withTheme],
  initialGlobals: { theme: 'light' },
  globalTypes: {
    theme: {
      description: 'Colour theme (data-theme)',
      toolbar: {
        title: 'Theme',
        icon: 'mirror',
        items: [
          { value: 'light', title: 'Light', icon: 'sun' },
          { value: 'dark', title: 'Dark', icon: 'moon' },
        ],
        dynamicTitle: true,
      },
    },
  },
  parameters: {
    layout: 'fullscreen',
    // Any axe violation fails the story's test (and shows as an error in the a11y panel).
    a11y: { test: 'error' },
    controls: { disable: true },
  },
};

export default preview;
