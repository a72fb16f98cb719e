/** The kit's one seeded generator (mulberry32), so every run measures and streams the same bytes. */
export { seededRandom } from '@message-stream/mock/testing';
