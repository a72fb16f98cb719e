import type { Citation } from '@message-stream/core';
import { cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CitationList } from '../../src/components/citation-list.js';
import { ContentBlockView } from '../../src/components/content-block-view.js';
import { TextBlockView } from '../../src/components/text-block-view.js';
import { ToolCallCard } from '../../src/components/tool-call-card.js';
import { safeHref } from '../../src/markdown/url.js';
import { blockState } from './support.js';

declare global {
  interface Window {
    __xss?: unknown;
  }
}

afterEach(cleanup);
beforeEach(() => {
  window.__xss = undefined;
});

const SET = 'window.__xss=1';

/** URLs that must never become an href. */
const BAD_URLS = [
  `javascript:${SET}`,
  `JaVaScRiPt:${SET}`,
  ` javascript:${SET}`,
  `java\tscript:${SET}`,
  `java\nscript:${SET}`,
  `\u0001javascript:${SET}`,
  `data:text/html,<script>${SET}</script>`,
  'data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==',
  `vbscript:${SET}`,
  `VBSCRIPT:${SET}`,
  '//evil.example.com/path',
  '/relative/path',
  'file:///etc/passwd',
];

/** Markdown that tries to produce an active element, an event handler or a bad link. */
const MARKDOWN_PAYLOADS = [
  `[click](javascript:${SET})`,
  `[click](JaVaScRiPt:${SET})`,
  `[click](&#106;avascript:${SET})`,
  `[click](&#x6A;&#x61;vascript:${SET})`,
  `[click](data:text/html,<script>${SET}</script>)`,
  `[click](vbscript:${SET})`,
  `[click](<javascript:${SET}>)`,
  `[click](//evil.example.com)`,
  `<javascript:${SET}>`,
  `[click][r]\n\n[r]: javascript:${SET}`,
  `<script>${SET}</script>`,
  `<img src=x onerror="${SET}">`,
  `<iframe src="javascript:${SET}"></iframe>`,
  `<iframe srcdoc="<script>${SET}</script>"></iframe>`,
  `<a href="javascript:${SET}">x</a>`,
  `<svg onload="${SET}"></svg>`,
  `<details open ontoggle="${SET}">`,
  `![x](javascript:${SET})`,
  `![x](x" onerror="${SET})`,
  `![x](https://example.com/x.png)`,
  `text <img src=x onerror=${SET}> inline`,
];

/** No active element, no event handler attribute, no href or src with a dangerous scheme. */
function expectInert(container: Element): void {
  expect(container.querySelectorAll('script, iframe, img, object, embed, svg, style')).toHaveLength(
    0,
  );
  for (const element of container.querySelectorAll('*')) {
    for (const attribute of element.attributes) {
      expect(attribute.name.startsWith('on'), `${attribute.name} on <${element.tagName}>`).toBe(
        false,
      );
      if (['href', 'src', 'action', 'formaction', 'srcdoc'].includes(attribute.name)) {
        expect(attribute.value).toMatch(/^(?:https?:|mailto:|#)/);
      }
    }
  }
}

/** In the browser, give any payload that did get in the chance to run (an image error, say). */
async function expectNotRun(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(window.__xss).toBeUndefined();
}

async function renderInert(ui: ReactElement): Promise<Element> {
  const { container } = render(ui);
  expectInert(container);
  await expectNotRun();
  return container;
}

describe('safeHref', () => {
  it.each(BAD_URLS)('refuses %j', (url) => {
    expect(safeHref(url)).toBeUndefined();
  });

  it('accepts http, https and mailto, normalised', () => {
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('HTTP://Example.com/a?b#c')).toBe('http://example.com/a?b#c');
    expect(safeHref('mailto:someone@example.com')).toBe('mailto:someone@example.com');
  });
});

describe('markdown payloads', () => {
  it.each(MARKDOWN_PAYLOADS)('renders %j inert', async (payload) => {
    await renderInert(<TextBlockView text={payload} />);
  });

  it.each(MARKDOWN_PAYLOADS)('renders %j inert while streaming', async (payload) => {
    await renderInert(<TextBlockView text={payload} streaming />);
  });

  it('shows raw HTML as the text the model wrote', async () => {
    const container = await renderInert(<TextBlockView text={`<script>${SET}</script>`} />);
    expect(container.textContent).toContain(`<script>${SET}</script>`);
  });

  it('keeps the text of a refused link, as text', async () => {
    const container = await renderInert(<TextBlockView text={`[click me](javascript:${SET})`} />);
    expect(container.textContent).toBe('click me');
    expect(container.querySelector('a')).toBeNull();
  });
});

describe('tool and search payloads', () => {
  const nasty = {
    html: `<script>${SET}</script><img src=x onerror="${SET}"><iframe src="javascript:${SET}">`,
    url: `javascript:${SET}`,
    markdown: `[x](javascript:${SET})`,
  };

  it('renders tool input and results as text', async () => {
    const block = blockState(
      { type: 'tool_use', id: 'toolu_1', name: '<img src=x onerror=alert(1)>', input: nasty },
      'complete',
      { inputJson: JSON.stringify(nasty) },
    );
    for (const content of [
      nasty.html,
      [
        { type: 'text', text: nasty.html },
        { type: 'image', source: { url: nasty.url } },
      ],
      { error: nasty.html, link: nasty.url },
    ]) {
      const container = await renderInert(
        <ToolCallCard block={block} result={{ content, isError: false }} />,
      );
      expect(container.textContent).toContain('<script>');
      cleanup();
    }
  });

  it('renders citations with bad URLs and HTML titles inert', async () => {
    const citations: Citation[] = BAD_URLS.map((url) => ({
      type: 'web_search_result_location',
      url,
      title: nasty.html,
      cited_text: nasty.html,
    }));
    const container = await renderInert(<CitationList citations={citations} />);
    expect(container.querySelectorAll('a')).toHaveLength(0);
  });

  it('renders web search results with bad URLs and HTML titles inert', async () => {
    const block = blockState({
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: BAD_URLS.map((url) => ({
        type: 'web_search_result',
        url,
        title: nasty.html,
        page_age: nasty.html,
      })),
    });
    const container = await renderInert(<ContentBlockView block={block} />);
    expect(container.querySelectorAll('a')).toHaveLength(0);
    expect(container.querySelectorAll('li')).toHaveLength(BAD_URLS.length);
  });

  it('renders a server tool query, an unknown block and a thinking block inert', async () => {
    for (const block of [
      blockState(
        {
          type: 'server_tool_use',
          id: 'srvtoolu_1',
          name: 'web_search',
          input: { query: nasty.html },
        },
        'streaming',
      ),
      blockState({ type: 'server_tool_use', id: 'srvtoolu_2', name: 'web_fetch', input: nasty }),
      blockState({ type: 'some_future_block', payload: nasty }),
      blockState({ type: 'thinking', thinking: nasty.html, signature: '' }, 'streaming'),
      blockState({
        type: 'text',
        text: nasty.markdown,
        citations: [{ type: 'x', url: nasty.url }],
      }),
    ]) {
      await renderInert(<ContentBlockView block={block} />);
      cleanup();
    }
  });
});
