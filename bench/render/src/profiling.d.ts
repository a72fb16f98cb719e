/** react-dom's profiling build: the same API as react-dom/client, with <Profiler> timings. */
declare module 'react-dom/profiling' {
  export * from 'react-dom/client';
}
