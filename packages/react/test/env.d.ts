// Fixture bodies imported as text through Vite (`…/fixture.sse?raw`), in jsdom and in the browser.
declare module '*.sse?raw' {
  const text: string;
  export default text;
}

// The default stylesheet as text, injected by the browser tests.
declare module '*.css?raw' {
  const text: string;
  export default text;
}
