/** Debian's Chromium, which every browser test and benchmark drives (no test tool downloads its own). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless launch flags for this machine: no sandbox (root in CI), no GPU, and none of Chromium's
 * background connections, which a closed network refuses many at a time.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
