// The chunk `toolParts` loads on demand (tool-parts-loader.ts): nothing in the main entry
// imports these statically.
export { JsonViewBody } from './json-view-body.js';
export { ServerToolResultBody } from './server-tool-result-body.js';
export { ServerToolUseBody } from './server-tool-use-body.js';
export { ToolCallPanel } from './tool-call-panel.js';
export { WebSearchResultsBody } from './web-search-results-body.js';
