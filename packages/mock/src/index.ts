export { fixtureNames, fixtureUrl } from './fixtures.js';
