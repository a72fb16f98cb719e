import type { ReactElement } from 'react';

/**
 * The shell's icons: 16 px strokes in `currentColor`, hidden from assistive technology (each
 * button that shows one carries its own accessible name).
 */
export type IconName =
  | 'send'
  | 'stop'
  | 'copy'
  | 'check'
  | 'regenerate'
  | 'edit'
  | 'thumbs-up'
  | 'thumbs-down'
  | 'details'
  | 'arrow-down'
  | 'download'
  | 'continue'
  | 'attach'
  | 'trash'
  | 'close';

const PATHS: Record<IconName, string> = {
  send: 'M8 13V3M3.5 7.5 8 3l4.5 4.5',
  stop: 'M4.5 4.5h7v7h-7z',
  copy: 'M5.5 5.5V3.25c0-.41.34-.75.75-.75h6.5c.41 0 .75.34.75.75v6.5c0 .41-.34.75-.75.75H10.5M3.25 5.5h6.5c.41 0 .75.34.75.75v6.5c0 .41-.34.75-.75.75h-6.5a.75.75 0 0 1-.75-.75v-6.5c0-.41.34-.75.75-.75Z',
  check: 'm3 8.5 3 3 7-7',
  regenerate: 'M13 8a5 5 0 1 1-1.46-3.54M13 2.5v2.5h-2.5',
  edit: 'M9.5 3.5 12.5 6.5M3 13l.75-3L10.5 3.25a1.06 1.06 0 0 1 1.5 0l.75.75a1.06 1.06 0 0 1 0 1.5L6 12.25 3 13Z',
  'thumbs-up':
    'M5 7v6H3V7h2Zm0 0 2.5-4.5c.83 0 1.5.67 1.5 1.5V6h3.1c.63 0 1.1.57.98 1.19l-.9 4.5c-.1.47-.5.81-.98.81H5',
  'thumbs-down':
    'M5 9V3H3v6h2Zm0 0 2.5 4.5c.83 0 1.5-.67 1.5-1.5V10h3.1c.63 0 1.1-.57.98-1.19l-.9-4.5c-.1-.47-.5-.81-.98-.81H5',
  details: 'M8 7.25V11M8 5h.01M14 8A6 6 0 1 1 2 8a6 6 0 0 1 12 0Z',
  'arrow-down': 'M8 3v10M3.5 8.5 8 13l4.5-4.5',
  download: 'M8 2.5v7.5M4.5 6.5 8 10l3.5-3.5M3 13.5h10',
  continue: 'M3 8h9M8.5 4.5 12 8l-3.5 3.5',
  trash:
    'M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.25c.03.42.38.75.8.75h4.2c.42 0 .77-.33.8-.75l.6-8.25M6.75 7v4M9.25 7v4',
  close: 'm4.5 4.5 7 7m0-7-7 7',
  attach:
    'M13 7.5 8.2 12.3a3 3 0 0 1-4.24-4.24l5.3-5.3a2 2 0 0 1 2.83 2.83L6.8 10.9a1 1 0 0 1-1.42-1.42L10 4.9',
};

/** `filled`: the shape filled in, for a pressed state (shape, not only colour, shows it). */
export function Icon({
  name,
  filled = false,
}: {
  readonly name: IconName;
  readonly filled?: boolean;
}): ReactElement {
  return (
    <svg
      className={`ms-icon ms-icon--${name}${filled ? ' ms-icon--filled' : ''}`}
      width="16"
      height="16"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} fill={filled || name === 'stop' ? 'currentColor' : 'none'} />
    </svg>
  );
}
