import { chromium } from './playwright-core.js';
import type { Browser } from './playwright-core.js';

/** Debian's Chromium; the browser tests need it (scripts/ensure-system-deps.mjs installs it). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags that keep Chromium from talking to anything but the test servers. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches headless Debian Chromium. `launch()` gives every browser a fresh temporary profile
 * (user-data-dir) of its own and removes it on close.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
