/** Colours as the browser resolves them, and WCAG contrast, for Chromium tests. */

/** `css` (any colour) as [r, g, b, a], as the browser resolves it on `within`. */
export function rgba(css: string, within: HTMLElement): [number, number, number, number] {
  const probe = document.createElement('span');
  probe.style.color = css;
  within.append(probe);
  const resolved = getComputedStyle(probe).color;
  probe.remove();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const context = canvas.getContext('2d') as CanvasRenderingContext2D;
  context.fillStyle = resolved;
  context.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
  return [r as number, g as number, b as number, (a as number) / 255];
}

/** `top` painted over the opaque `bottom`. */
export const over = (
  top: [number, number, number, number],
  bottom: [number, number, number, number],
): [number, number, number, number] => [
  top[0] * top[3] + bottom[0] * (1 - top[3]),
  top[1] * top[3] + bottom[1] * (1 - top[3]),
  top[2] * top[3] + bottom[2] * (1 - top[3]),
  1,
];

/** WCAG relative luminance and contrast ratio. */
export const luminance = ([r, g, b]: readonly number[]): number => {
  const [R, G, B] = [r, g, b].map((c) => {
    const s = (c as number) / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * R + 0.7152 * G + 0.0722 * B;
};
export const contrast = (a: readonly number[], b: readonly number[]): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
