// Generated from fixtures/catalog.json by test/support/generate-catalog.mjs; do not edit.
import type { MessageRequest } from '@message-stream/core';

/** Every fixture shipped in `fixtures/`, in catalog order. */
export const fixtureNames = [
  'spec-basic-text',
  'spec-tool-use',
  'spec-thinking',
  'spec-web-search',
  'gateway-text',
  'gateway-tool-use',
  'reference-example',
  'text-pings',
  'redacted-thinking',
  'parallel-tool-calls',
  'tool-no-input',
  'mcp-tool-use',
  'max-tokens',
  'stop-sequence',
  'refusal',
  'pause-turn',
  'unknown-events',
  'no-event-lines',
  'second-message-start',
  'fallback-block',
  'in-stream-error',
  'truncated-mid-tool',
  'invalid-data',
  'long-markdown',
  'large-tool-input',
] as const;

/** The name of a fixture shipped with this package. */
export type FixtureName = (typeof fixtureNames)[number];

/** Metadata of each fixture (its text is loaded lazily, see `loadFixture`). */
export const catalogData: Record<FixtureName, { description: string; request: MessageRequest }> = {
  'spec-basic-text': {
    description:
      'The "Basic streaming request" response from the streaming guide, verbatim: one text block ("Hello!") with a ping.',
    request: {
      model: 'claude-opus-5',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
    } as MessageRequest,
  },
  'spec-tool-use': {
    description:
      "The streaming guide's tool-use response, verbatim: a text preamble, then a get_weather tool_use whose input arrives as input_json_delta fragments (first one empty), stop_reason tool_use.",
    request: {
      model: 'claude-opus-5',
      max_tokens: 1024,
      tools: [
        {
          name: 'get_weather',
          description: 'Get the current weather in a given location',
          input_schema: {
            type: 'object',
            properties: {
              location: {
                type: 'string',
                description: 'The city and state, e.g. San Francisco, CA',
              },
            },
            required: ['location'],
          },
        },
      ],
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'What is the weather like in San Francisco?' }],
      stream: true,
    } as MessageRequest,
  },
  'spec-thinking': {
    description:
      "The streaming guide's thinking response (placeholders filled): a summarized thinking block with thinking_delta and signature_delta, then a text block; no usage on message_start or message_delta.",
    request: {
      model: 'claude-opus-5',
      max_tokens: 20000,
      thinking: { type: 'adaptive', display: 'summarized' },
      messages: [{ role: 'user', content: 'What is the greatest common divisor of 1071 and 462?' }],
      stream: true,
    } as MessageRequest,
  },
  'spec-web-search': {
    description:
      "The streaming guide's web search response, completed to 8 blocks: text, server_tool_use web_search with input_json_delta, a web_search_tool_result with 3 results, then text blocks carrying citations_delta (web_search_result_location) and the spec's final usage with server_tool_use.",
    request: {
      model: 'claude-opus-5',
      max_tokens: 1024,
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }],
      messages: [{ role: 'user', content: 'What is the weather like in New York City today?' }],
      stream: true,
    } as MessageRequest,
  },
  'gateway-text': {
    description:
      "The gateway doc's complete response from claude-haiku-4-5, verbatim: keys in unusual order, two pings, nested cache_creation usage, a message id without the msg_ prefix.",
    request: {
      model: 'claude-haiku-4-5',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Say hi in 3 words' }],
      stream: true,
    } as MessageRequest,
  },
  'gateway-tool-use': {
    description:
      "The gateway doc's tool-use sequence verbatim (get_weather for Taipei, pings, empty first fragment, stop_reason tool_use), completed with a gateway-style message_start and a message_stop.",
    request: {
      model: 'claude-haiku-4-5',
      max_tokens: 256,
      tools: [
        {
          name: 'get_weather',
          description: 'Get the current weather for a city',
          input_schema: {
            type: 'object',
            properties: { city: { type: 'string', description: 'City name, e.g. Taipei' } },
            required: ['city'],
          },
        },
      ],
      messages: [{ role: 'user', content: "What's the weather in Taipei right now?" }],
      stream: true,
    } as MessageRequest,
  },
  'reference-example': {
    description:
      'The first example in the stream events reference, re-encoded as single-line data JSON: one text block, usage with zero input tokens and no model on message_start.',
    request: {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
    } as MessageRequest,
  },
  'text-pings': {
    description:
      'A short markdown answer streamed as 12 text_delta events with pings after message_start, after content_block_start and between deltas.',
    request: {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: "What's the difference between let and const in JavaScript?" },
      ],
      stream: true,
    } as MessageRequest,
  },
  'redacted-thinking': {
    description:
      'A thinking block (thinking_delta + signature_delta), a redacted_thinking block with opaque data and no deltas, then a text answer.',
    request: {
      model: 'claude-sonnet-4-5',
      max_tokens: 8000,
      thinking: { type: 'enabled', budget_tokens: 4000 },
      messages: [{ role: 'user', content: 'Is 2^61 - 1 prime?' }],
      stream: true,
    } as MessageRequest,
  },
  'parallel-tool-calls': {
    description:
      "A short text then two parallel get_weather tool_use blocks (Paris and Tokyo); the second tool's first input_json_delta is an empty string; stop_reason tool_use.",
    request: {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      tools: [
        {
          name: 'get_weather',
          description: 'Get the current weather in a given location',
          input_schema: {
            type: 'object',
            properties: {
              location: {
                type: 'string',
                description: 'The city and state, e.g. San Francisco, CA',
              },
            },
            required: ['location'],
          },
        },
      ],
      messages: [{ role: 'user', content: 'What is the weather in Paris and in Tokyo?' }],
      stream: true,
    } as MessageRequest,
  },
  'tool-no-input': {
    description:
      'A get_time tool_use that takes no arguments: content_block_start with input {} and no input_json_delta events before its stop; stop_reason tool_use.',
    request: {
      model: 'claude-haiku-4-5-20251001',
      max_tokens: 512,
      tools: [
        {
          name: 'get_time',
          description: 'Get the current local time',
          input_schema: { type: 'object', properties: {} },
        },
      ],
      messages: [{ role: 'user', content: 'What time is it?' }],
      stream: true,
    } as MessageRequest,
  },
  'mcp-tool-use': {
    description:
      'An mcp_tool_use block (MCP connector, server "linear") whose input streams as input_json_delta, an mcp_tool_result block with start and stop only, then a text summary.',
    request: {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      mcp_servers: [{ type: 'url', url: 'https://mcp.linear.app/sse', name: 'linear' }],
      messages: [
        { role: 'user', content: 'Are there any open Linear issues about login timeouts?' },
      ],
      stream: true,
    } as MessageRequest,
  },
  'max-tokens': {
    description:
      'A text answer cut off mid-sentence because it reached max_tokens (64); stop_reason max_tokens.',
    request: {
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Summarize the French Revolution.' }],
      stream: true,
    } as MessageRequest,
  },
  'stop-sequence': {
    description:
      'A transcript continuation that ends where the stop sequence "\\n\\nHuman:" matched; stop_reason stop_sequence with the matched stop_sequence on message_delta.',
    request: {
      model: 'claude-haiku-4-5-20251001',
      max_tokens: 512,
      stop_sequences: ['\n\nHuman:'],
      messages: [
        {
          role: 'user',
          content:
            'Continue this support chat transcript as the Assistant.\n\nHuman: My package says delivered but I never got it.\n\nAssistant:',
        },
      ],
      stream: true,
    } as MessageRequest,
  },
  refusal: {
    description:
      'A short text that stops with stop_reason refusal (streaming classifier intervention).',
    request: {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: 'Give me step-by-step synthesis instructions for sarin.' },
      ],
      stream: true,
    } as MessageRequest,
  },
  'pause-turn': {
    description:
      'A server_tool_use web_search and its web_search_tool_result, then the turn pauses with stop_reason pause_turn and no final text.',
    request: {
      model: 'claude-opus-5',
      max_tokens: 2048,
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }],
      messages: [{ role: 'user', content: 'What changed in the Node.js 24 release?' }],
      stream: true,
    } as MessageRequest,
  },
  'unknown-events': {
    description:
      'A normal text answer interleaved with things this kit does not know yet: an unknown event type, an unknown delta type, an unknown block type, a future stop_reason and an unknown usage field.',
    request: {
      model: 'claude-opus-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'What does print(6 * 7) output?' }],
      stream: true,
    } as MessageRequest,
  },
  'no-event-lines': {
    description:
      'The spec-basic-text content with no event: lines (type only in data), CRLF line endings, ": keep-alive" comments between events, and id/retry fields on the first event.',
    request: {
      model: 'claude-opus-5',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
    } as MessageRequest,
  },
  'second-message-start': {
    description:
      'A gateway splice: a first message starts a text block ("The answer is") and, without any stop event, a second message_start begins a complete clean answer.',
    request: {
      model: 'claude-sonnet-4-5',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'What is 6 times 7?' }],
      stream: true,
    } as MessageRequest,
  },
  'fallback-block': {
    description:
      'A server-side model fallback mid-stream: text, a fallback block (start and stop, no deltas) at the model boundary, more text, and input_transformations on message_start (empty) and on message_delta (model_fallback).',
    request: {
      model: 'claude-opus-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Write a haiku about autumn.' }],
      stream: true,
    } as MessageRequest,
  },
  'in-stream-error': {
    description:
      'A text block streams a few deltas, then an overloaded_error event arrives and the body ends with no content_block_stop or message_stop.',
    request: {
      model: 'claude-opus-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Explain photosynthesis in one paragraph.' }],
      stream: true,
    } as MessageRequest,
  },
  'truncated-mid-tool': {
    description:
      'Text then a search_flights tool_use whose input is cut off mid-JSON: the body ends after a complete input_json_delta event, with no stop events.',
    request: {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      tools: [
        {
          name: 'search_flights',
          description: 'Search round-trip flights',
          input_schema: {
            type: 'object',
            properties: {
              origin: { type: 'string' },
              destination: { type: 'string' },
              depart_date: { type: 'string', format: 'date' },
              return_date: { type: 'string', format: 'date' },
            },
            required: ['origin', 'destination', 'depart_date'],
          },
        },
      ],
      messages: [{ role: 'user', content: 'Find me flights from SFO to JFK, June 14 to June 21.' }],
      stream: true,
    } as MessageRequest,
  },
  'invalid-data': {
    description:
      'A normal text answer in which one content_block_delta in the middle carries data that is not valid JSON (an unterminated string); everything else is well-formed through message_stop.',
    request: {
      model: 'claude-haiku-4-5-20251001',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'What is the boiling point of water?' }],
      stream: true,
    } as MessageRequest,
  },
  'long-markdown': {
    description:
      'A long (about 40 KB) markdown answer with headings, lists, a GFM table, TypeScript and bash code fences, a link and inline formatting, streamed as text_delta events of 1 to 30 characters.',
    request: {
      model: 'claude-sonnet-4-5',
      max_tokens: 16000,
      messages: [
        {
          role: 'user',
          content:
            'Write a thorough guide to building a streaming chat UI for LLM responses, with code examples.',
        },
      ],
      stream: true,
    } as MessageRequest,
  },
  'large-tool-input': {
    description:
      'A write_file tool_use whose input (about 300 KB of content with newlines, quotes, backslashes, é and emoji written as \\u escape pairs) streams as input_json_delta fragments of 1 to 20 characters; stop_reason tool_use.',
    request: {
      model: 'claude-opus-5',
      max_tokens: 128000,
      tools: [
        {
          name: 'write_file',
          description: 'Write a UTF-8 text file, replacing it if it exists',
          input_schema: {
            type: 'object',
            properties: { path: { type: 'string' }, content: { type: 'string' } },
            required: ['path', 'content'],
          },
        },
      ],
      messages: [
        {
          role: 'user',
          content: 'Generate the full quarterly report and save it to src/report.md.',
        },
      ],
      stream: true,
    } as MessageRequest,
  },
};

/** Each fixture's text, as a lazy module per file (a literal specifier bundlers can see). */
export const fixtureModules: Record<FixtureName, () => Promise<{ default: string }>> = {
  'spec-basic-text': () => import('../fixtures/spec-basic-text.sse.js'),
  'spec-tool-use': () => import('../fixtures/spec-tool-use.sse.js'),
  'spec-thinking': () => import('../fixtures/spec-thinking.sse.js'),
  'spec-web-search': () => import('../fixtures/spec-web-search.sse.js'),
  'gateway-text': () => import('../fixtures/gateway-text.sse.js'),
  'gateway-tool-use': () => import('../fixtures/gateway-tool-use.sse.js'),
  'reference-example': () => import('../fixtures/reference-example.sse.js'),
  'text-pings': () => import('../fixtures/text-pings.sse.js'),
  'redacted-thinking': () => import('../fixtures/redacted-thinking.sse.js'),
  'parallel-tool-calls': () => import('../fixtures/parallel-tool-calls.sse.js'),
  'tool-no-input': () => import('../fixtures/tool-no-input.sse.js'),
  'mcp-tool-use': () => import('../fixtures/mcp-tool-use.sse.js'),
  'max-tokens': () => import('../fixtures/max-tokens.sse.js'),
  'stop-sequence': () => import('../fixtures/stop-sequence.sse.js'),
  refusal: () => import('../fixtures/refusal.sse.js'),
  'pause-turn': () => import('../fixtures/pause-turn.sse.js'),
  'unknown-events': () => import('../fixtures/unknown-events.sse.js'),
  'no-event-lines': () => import('../fixtures/no-event-lines.sse.js'),
  'second-message-start': () => import('../fixtures/second-message-start.sse.js'),
  'fallback-block': () => import('../fixtures/fallback-block.sse.js'),
  'in-stream-error': () => import('../fixtures/in-stream-error.sse.js'),
  'truncated-mid-tool': () => import('../fixtures/truncated-mid-tool.sse.js'),
  'invalid-data': () => import('../fixtures/invalid-data.sse.js'),
  'long-markdown': () => import('../fixtures/long-markdown.sse.js'),
  'large-tool-input': () => import('../fixtures/large-tool-input.sse.js'),
};

/**
 * The rest of an answer past its end, for the fixtures that have one: what a continuation
 * request (Continue after `max_tokens`) gets once the partial answer is the whole fixture.
 */
export const continuationModules: Partial<Record<FixtureName, () => Promise<{ default: string }>>> =
  {
    'max-tokens': () => import('../fixtures/max-tokens.continuation.sse.js'),
  };
