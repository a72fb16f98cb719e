/**
 * The request policy (issue 14, "A proxy safe to expose"): only listed top-level fields are
 * forwarded, server tools and MCP servers only when allowed, `max_uses` capped, numbers
 * validated. A refusal is a 400 in the API's error shape naming the field.
 */
import { describe, expect, it } from 'vitest';
import {
  createMessagesProxy,
  DEFAULT_FORWARDED_FIELDS,
  DEFAULT_MAX_SERVER_TOOL_USES,
  type MessagesProxyOptions,
} from '../src/proxy.js';
import { KEY, post, recordingFetch, validBody } from './support/proxy-http.js';

type Options = Omit<MessagesProxyOptions, 'apiKey' | 'fetch'>;

/** Sends `body` (an object, or raw JSON text) through a proxy with `options`. */
async function through(body: unknown, options: Options = {}) {
  const up = recordingFetch();
  const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch, ...options })(
    post(body),
  );
  return { response, calls: up.calls };
}

/** Expects a 400 naming `field`, with nothing sent upstream. */
async function expectRefused(body: unknown, field: string, options: Options = {}) {
  const { response, calls } = await through(body, options);
  expect(response.status).toBe(400);
  const json = await response.json();
  expect(json).toEqual({
    type: 'error',
    error: { type: 'invalid_request_error', message: expect.stringMatching(/^\S+: /) },
  });
  expect(json.error.message.startsWith(`${field}: `)).toBe(true);
  expect(calls).toHaveLength(0);
}

const webSearch = (extra: Record<string, unknown> = {}) => ({
  type: 'web_search_20250305',
  name: 'web_search',
  ...extra,
});

describe('what the kit sends passes the default policy', () => {
  it('forwards the documented default fields', () => {
    expect([...DEFAULT_FORWARDED_FIELDS].sort()).toEqual(
      [
        'max_tokens',
        'messages',
        'metadata',
        'model',
        'stop_sequences',
        'stream',
        'system',
        'temperature',
        'thinking',
        'tool_choice',
        'tools',
        'top_k',
        'top_p',
      ].sort(),
    );
  });

  it('forwards a request with every default field set to a valid value, untouched', async () => {
    const body = validBody({
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      tools: [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object' } }],
      tool_choice: { type: 'auto' },
      thinking: { type: 'enabled', budget_tokens: 1024 },
      temperature: 1,
      top_p: 0,
      top_k: 40,
      stop_sequences: ['END'],
      metadata: { user_id: 'u-1' },
    });
    const { response, calls } = await through(body);
    expect(response.status).toBe(200);
    expect(calls[0]?.body).toEqual(body);
  });
});

describe('top-level fields', () => {
  it.each([
    'service_tier',
    'container',
    'context_management',
    'mcp_servers',
    'betas',
    '__proto__',
    'constructor',
  ])('refuses %s by default', async (field) => {
    await expectRefused(
      `{${JSON.stringify(field)}: {}, ${JSON.stringify(validBody()).slice(1)}`,
      field,
    );
  });

  it('forwards exactly allowedFields when given', async () => {
    const fields = [...DEFAULT_FORWARDED_FIELDS, 'service_tier'];
    const { response, calls } = await through(validBody({ service_tier: 'auto' }), {
      allowedFields: fields,
    });
    expect(response.status).toBe(200);
    expect(calls[0]?.body.service_tier).toBe('auto');
    await expectRefused(validBody({ temperature: 0.5 }), 'temperature', {
      allowedFields: ['model', 'max_tokens', 'messages', 'stream'],
    });
  });
});

describe('server tools', () => {
  it('refuses a server tool by default, naming it; custom tools always pass', async () => {
    await expectRefused(
      validBody({ tools: [{ name: 'f', input_schema: { type: 'object' } }, webSearch()] }),
      'tools[1].type',
    );
    await expectRefused(
      validBody({ tools: [{ type: 'code_execution_20250825', name: 'x' }] }),
      'tools[0].type',
    );
    const custom = validBody({ tools: [{ type: 'custom', name: 'f', input_schema: {} }] });
    expect((await through(custom)).response.status).toBe(200);
  });

  // An attack review: the Anthropic-defined client tools were refused as server tools, and
  // when allowed got a max_uses their definitions do not take.
  it('passes the Anthropic-defined tools the app runs (bash, text editor, computer, memory) as they are', async () => {
    const tools = [
      { type: 'bash_20250124', name: 'bash' },
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
      {
        type: 'computer_20250124',
        name: 'computer',
        display_width_px: 1024,
        display_height_px: 768,
      },
      { type: 'memory_20250818', name: 'memory' },
    ];
    const { response, calls } = await through(validBody({ tools }));
    expect(response.status).toBe(200);
    expect(calls[0]?.body.tools).toEqual(tools);
  });

  it('gives max_uses only to the server tools that take it', async () => {
    const code = { type: 'code_execution_20250825', name: 'code_execution' };
    const fetchTool = { type: 'web_fetch_20250910', name: 'web_fetch' };
    const { calls } = await through(validBody({ tools: [code, fetchTool] }), {
      allowedServerTools: ['code_execution', 'web_fetch'],
    });
    expect(calls[0]?.body.tools).toEqual([
      code,
      { ...fetchTool, max_uses: DEFAULT_MAX_SERVER_TOOL_USES },
    ]);
  });

  it('allows a type family, an exact version, or a predicate', async () => {
    const body = validBody({ tools: [webSearch({ max_uses: 1 })] });
    expect((await through(body, { allowedServerTools: ['web_search'] })).response.status).toBe(200);
    expect(
      (await through(body, { allowedServerTools: ['web_search_20250305'] })).response.status,
    ).toBe(200);
    await expectRefused(body, 'tools[0].type', { allowedServerTools: ['web_search_20990101'] });
    await expectRefused(body, 'tools[0].type', { allowedServerTools: ['web'] });
    const predicate = (type: string) => type.startsWith('web_search_');
    expect((await through(body, { allowedServerTools: predicate })).response.status).toBe(200);
  });

  it(`caps max_uses (default ${DEFAULT_MAX_SERVER_TOOL_USES}) and sets it where missing`, async () => {
    const options: Options = { allowedServerTools: ['web_search'] };
    const big = await through(validBody({ tools: [webSearch({ max_uses: 1000 })] }), options);
    expect(big.calls[0]?.body.tools).toEqual([
      webSearch({ max_uses: DEFAULT_MAX_SERVER_TOOL_USES }),
    ]);
    const none = await through(validBody({ tools: [webSearch()] }), options);
    expect(none.calls[0]?.body.tools).toEqual([
      webSearch({ max_uses: DEFAULT_MAX_SERVER_TOOL_USES }),
    ]);
    const small = await through(validBody({ tools: [webSearch({ max_uses: 2 })] }), options);
    expect(small.calls[0]?.body.tools).toEqual([webSearch({ max_uses: 2 })]);
    const custom = await through(validBody({ tools: [webSearch({ max_uses: 50 })] }), {
      ...options,
      maxServerToolUses: 20,
    });
    expect(custom.calls[0]?.body.tools).toEqual([webSearch({ max_uses: 20 })]);
  });

  it.each([0, 2.5, Number.NaN])('throws at creation for maxServerToolUses %j', (uses) => {
    expect(() => createMessagesProxy({ apiKey: KEY, maxServerToolUses: uses })).toThrow(RangeError);
  });

  // Number(process.env.MAX_TOKENS) of an unset variable is NaN: the cap must not turn off.
  it.each([Number.NaN, 0, -1, 1.5, Number.POSITIVE_INFINITY, '100'])(
    'throws at creation for maxTokens %j, instead of forwarding uncapped',
    (maxTokens) => {
      expect(() => createMessagesProxy({ apiKey: KEY, maxTokens: maxTokens as number })).toThrow(
        'createMessagesProxy: options.maxTokens must be an integer ≥ 1.',
      );
    },
  );

  it.each([0, -1, 1.5, '3', null])('refuses max_uses %j', async (uses) => {
    await expectRefused(
      validBody({ tools: [webSearch({ max_uses: uses })] }),
      'tools[0].max_uses',
      {
        allowedServerTools: ['web_search'],
      },
    );
  });

  it.each([
    ['tools not an array', { tools: { name: 'f' } }, 'tools'],
    ['a tool that is not an object', { tools: ['f'] }, 'tools[0]'],
    ['a tool type that is not a string', { tools: [{ type: 7, name: 'f' }] }, 'tools[0].type'],
  ])('refuses %s', async (_, fields, field) => {
    await expectRefused(validBody(fields), field);
  });
});

describe('MCP servers', () => {
  const linear = { type: 'url', url: 'https://mcp.linear.app/sse', name: 'linear' };

  it('refuses mcp_servers by default', async () => {
    await expectRefused(validBody({ mcp_servers: [linear] }), 'mcp_servers');
  });

  it('forwards only listed server URLs (or what a predicate allows)', async () => {
    const options: Options = { allowedMcpServers: ['https://mcp.linear.app/sse'] };
    const ok = await through(validBody({ mcp_servers: [linear] }), options);
    expect(ok.response.status).toBe(200);
    expect(ok.calls[0]?.body.mcp_servers).toEqual([linear]);
    await expectRefused(
      validBody({ mcp_servers: [linear, { ...linear, url: 'https://evil.example/sse' }] }),
      'mcp_servers[1].url',
      options,
    );
    await expectRefused(
      validBody({ mcp_servers: [{ type: 'url', name: 'x' }] }),
      'mcp_servers[0].url',
      options,
    );
    await expectRefused(validBody({ mcp_servers: 'x' }), 'mcp_servers', options);
    const predicate = (url: string) => new URL(url).hostname === 'mcp.linear.app';
    expect(
      (await through(validBody({ mcp_servers: [linear] }), { allowedMcpServers: predicate }))
        .response.status,
    ).toBe(200);
  });
});

describe('numeric and typed fields', () => {
  it.each<[string, Record<string, unknown>]>([
    ['model', { model: '' }],
    ['model', { model: 42 }],
    ['messages', { messages: 'hi' }],
    ['max_tokens', { max_tokens: 0 }],
    ['max_tokens', { max_tokens: 1.5 }],
    ['max_tokens', { max_tokens: -3 }],
    ['max_tokens', { max_tokens: '256' }],
    ['max_tokens', { max_tokens: 2 ** 60 }],
    ['temperature', { temperature: 1.01 }],
    ['temperature', { temperature: -0.1 }],
    ['temperature', { temperature: '0.5' }],
    ['top_p', { top_p: 2 }],
    ['top_k', { top_k: -1 }],
    ['top_k', { top_k: 2.5 }],
    ['thinking.budget_tokens', { thinking: { type: 'enabled', budget_tokens: 'lots' } }],
    ['thinking', { thinking: 'on' }],
    ['tool_choice', { tool_choice: 'auto' }],
    ['stop_sequences', { stop_sequences: [1] }],
    ['stop_sequences', { stop_sequences: 'END' }],
    ['stream', { stream: 'yes' }],
    ['metadata', { metadata: [] }],
    ['system', { system: 5 }],
  ])('refuses %s in %j', async (field, fields) => {
    await expectRefused(validBody(fields), field);
  });

  it('refuses a number that overflows to Infinity', async () => {
    await expectRefused(
      JSON.stringify(validBody()).replace('"max_tokens":256', '"max_tokens":1e400'),
      'max_tokens',
    );
  });

  it('names the body when it is not an object', async () => {
    await expectRefused('[1,2]', 'body');
  });
});
