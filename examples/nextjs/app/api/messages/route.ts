import { createMessagesProxy } from '@message-stream/core/proxy';
import { createMockResponder } from '@message-stream/mock';
import { MODEL } from '../../model';

/**
 * POST /api/messages. With ANTHROPIC_API_KEY set, the proxy forwards to the Messages API: the
 * key lives in this server process and never reaches the page. Without it, the mock answers
 * from recorded streams, so `pnpm dev` works on a fresh clone with no key.
 */
const apiKey = process.env.ANTHROPIC_API_KEY;

export const POST: (request: Request) => Promise<Response> = apiKey
  ? createMessagesProxy({
      apiKey,
      ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}),
      allowedModels: [MODEL],
      maxTokens: 4096,
      // Pages are answered under localhost and IP addresses; a deployment lists its own
      // name (ALLOWED_HOSTS=chat.example.com), so a rebound DNS name cannot spend the key.
      ...(process.env.ALLOWED_HOSTS ? { allowedHosts: process.env.ALLOWED_HOSTS.split(',') } : {}),
    })
  : createMockResponder({ speed: 'realistic' });
