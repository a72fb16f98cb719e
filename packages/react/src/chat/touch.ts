/**
 * The main pointer is a finger (a phone, a tablet): no hardware keyboard to rely on, so Enter
 * is a new line (there is no Shift+Enter) and nothing takes focus unasked (it opens the
 * keyboard over the page).
 */
export const touchFirst = (): boolean =>
  typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
