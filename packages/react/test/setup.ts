import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { preloadParts } from '../src/components/lazy-part.js';
// The modules that make the on-demand groups (not the index: a test's `vi.mock` of a module the
// index reaches, idb-keyval, must still apply).
import '../src/components/citations.js';
import '../src/components/code-block.js';
import '../src/components/thread-list.js';
import '../src/components/tool-parts-loader.js';
import '../src/chat/message-parts.js';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

// The code block, the citations, the tool parts and the thread list load on demand (a dynamic
// import): loaded before any test renders them, so the tests see them on the first render as an
// app does once they arrived. Their placeholders are tested in test/components/lazy-part.test.tsx,
// placeholders.test.tsx, code-block-placeholder.browser.test.tsx and test/lazy/.
await preloadParts();
