import { textStream } from './bench/src/data.ts';
import { createStreamState, EventStreamDecoder, reduceStream } from './packages/core/src/index.ts';

const text = textStream(100000, 100);
const d = new EventStreamDecoder();
const ev = d.push(text);
d.end();
for (let r = 0; r < 5; r++) {
  let s = createStreamState();
  const t = performance.now();
  for (const e of ev) s = reduceStream(s, e);
  console.log('reduce', performance.now() - t);
}
