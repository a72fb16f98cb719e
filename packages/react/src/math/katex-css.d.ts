// The KaTeX stylesheet, imported for its side effect by the lazily loaded math chunk.
declare module 'katex/dist/katex.min.css';
