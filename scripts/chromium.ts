/**
 * The browser every browser test uses: Debian's Chromium (no test tool may download a
 * browser of its own here), headless, with the flags this machine's closed network needs
 * (without the background-networking ones Chromium floods the network with refused calls).
 */
export const chromiumExecutablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
