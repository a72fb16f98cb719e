import { createMessagesProxy, toNodeHandler } from '@message-stream/core/proxy';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { sourceAliases } from '../../scripts/source-aliases.js';

/**
 * With ANTHROPIC_API_KEY set, the dev server answers /v1/messages through the core's proxy
 * handler (the key stays in this process) and the page talks to the real API. Without it,
 * the page answers from the built-in mock in a service worker.
 *
 * The proxy's defaults guard the key: only this page's own origin, JSON bodies under 32 MiB,
 * the fields the kit sends, no server tools or MCP servers, redirects never followed. The
 * dev server has no users, so there is no `authorize` here; a deployed app needs one.
 */
function messagesProxy(apiKey: string | undefined): Plugin {
  return {
    name: 'message-stream-proxy',
    configureServer(server) {
      if (!apiKey) return;
      const handler = toNodeHandler(
        createMessagesProxy({
          apiKey,
          baseURL: process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com',
          maxTokens: 8192,
        }),
      );
      server.middlewares.use('/v1/messages', (req, res) => {
        // connect strips the mount path; the handler only needs the method, headers and body.
        handler(req, res);
      });
    },
  };
}

export default defineConfig(() => {
  const apiKey = process.env.ANTHROPIC_API_KEY;
  return {
    plugins: [react(), messagesProxy(apiKey)],
    // The page imports `@message-stream/*` from source: an edit shows without a build.
    resolve: { alias: sourceAliases() },
    define: {
      // Only whether a key exists reaches the page, never the key.
      'import.meta.env.VITE_LIVE_API': JSON.stringify(apiKey ? 'true' : ''),
    },
    server: { port: Number(process.env.PORT ?? 5173), host: process.env.HOST ?? 'localhost' },
  };
});
