/** Small files for the composer, the same in Node and, by value, in the page. */

/** A 1×1 PNG, base64. */
export const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=';
