import { afterEach, describe, expect, it } from 'vitest';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import type { RobotsPolicy } from '@polite-crawler/fetch';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import { startServer } from '../helpers/recording-server.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { check, keyPair } from '../helpers/web-bot-auth.js';
import type { Checked } from '../helpers/web-bot-auth.js';
import { launchChromium } from './helpers/chromium.js';
import type { Browser } from './helpers/playwright-core.js';

let browser: Browser | undefined;
let server: RecordingServer | undefined;
let policy: RobotsPolicy | undefined;

afterEach(async () => {
  await browser?.close();
  await policy?.close();
  await server?.close();
});

describe('signature through the Playwright route handler', () => {
  it('signs robots.txt, the navigation (each hop) and its subresources; web-bot-auth verifies every request', async () => {
    const { privateJwk, publicJwk } = keyPair();
    const checked: Promise<Checked>[] = [];
    server = await startServer((req, res) => {
      checked.push(check(req, publicJwk));
      if (req.url === '/robots.txt') res.end('User-agent: *\nAllow: /\n');
      else if (req.url === '/go') res.writeHead(302, { location: '/page' }).end();
      else if (req.url === '/style.css')
        res.writeHead(200, { 'content-type': 'text/css' }).end('p{}');
      else if (req.url === '/favicon.ico') res.writeHead(404).end();
      else
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><head><link rel="stylesheet" href="/style.css"></head><body>p</body></html>');
    });
    policy = createRobotsPolicy({
      userAgent: 'GateBot/1.0 (+http://127.0.0.1/bot)',
      minInterval: 0,
      concurrency: 4,
      signature: { key: privateJwk },
    });
    const gate = createPlaywrightGate({ policy });
    browser = await launchChromium();
    const context = await browser.newContext({ serviceWorkers: 'block' });
    await gate.attach(context);
    const page = await context.newPage();
    const response = await page.goto(`${server.origin}/go`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    await context.close();
    const all = await Promise.all(checked);
    const paths = all.map((c) => c.path).filter((path) => path !== '/favicon.ico');
    expect(paths.sort()).toEqual(['/go', '/page', '/robots.txt', '/style.css']);
    for (const c of all) {
      expect(
        c.verdict instanceof Error,
        `${c.path}: ${c.verdict instanceof Error ? c.verdict.message : 'verified'}`,
      ).toBe(false);
    }
  });
});
