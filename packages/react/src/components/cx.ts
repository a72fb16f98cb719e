/** Joins class names, skipping empty ones: `cx('ms-tool', streaming && 'ms-tool--streaming')`. */
export function cx(...names: ReadonlyArray<string | false | null | undefined>): string {
  let out = '';
  for (const name of names) {
    if (name) out = out === '' ? name : `${out} ${name}`;
  }
  return out;
}
