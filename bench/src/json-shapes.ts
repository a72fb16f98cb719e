import { seededRandom } from './random.js';

const SKUS = ['A-17', 'B-204', 'C-9', 'D-3310', 'E-42'];
const TAGS = ['new', 'eu', 'gift', 'backorder', 'vip'];

/**
 * A structured-extraction tool call: many small records of short keys, numbers, literals
 * and short strings. This is where re-parsing libraries are slowest per byte (every token
 * is an allocation), and the shape behind the design's measured anchors.
 */
export function recordsInput(bytes: number): string {
  const random = seededRandom(17);
  const rows: unknown[] = [];
  let size = 0;
  for (let id = 1000; size < bytes; id++) {
    const row = {
      id,
      sku: SKUS[id % SKUS.length],
      qty: 1 + Math.floor(random() * 9),
      price: Math.round(random() * 1e4) / 100,
      paid: random() < 0.7,
      note: random() < 0.2 ? null : 'ok',
      tags: TAGS.filter(() => random() < 0.3),
    };
    size += JSON.stringify(row).length + 1;
    rows.push(row);
  }
  return JSON.stringify({ table: 'orders', rows });
}
