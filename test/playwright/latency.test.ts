/**
 * Latency-aware pacing through the Playwright gate, with each of its clients (the context's
 * request API; the policy's transport with `cache`): a server that slows down to 3 s gets its
 * next navigations 3 s apart (latencyFactor 1) although `concurrency` allows four at once. Real
 * Chromium, real loopback server, the policy on a fake clock.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import { FakeClock, until } from '../fetch/helpers/fake-clock.js';
import { gaps, pageStarts, startSlowSite } from '../helpers/slow-site.js';
import { launchChromium } from './helpers/chromium.js';
import type { Browser } from './helpers/playwright-core.js';

const USER_AGENT = 'GateBot/1.0 (+http://127.0.0.1/bot)';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
});

for (const cache of [false, true]) {
  it(`a server slowing to 3 s: the next two navigations start 3 s apart (cache: ${cache})`, async () => {
    const clock = new FakeClock();
    const { site, held } = await startSlowSite(clock, '<link rel="icon" href="data:,"><p>page</p>');
    const policy = createRobotsPolicy({
      userAgent: USER_AGENT,
      minInterval: 0,
      concurrency: 4,
      clock,
    });
    const gate = createPlaywrightGate({ policy, pace: 'documents', cache });
    const context = await browser.newContext();
    try {
      await gate.attach(context);
      await policy.prefetch(site.origin);
      const [one, two] = [await context.newPage(), await context.newPage()];
      const first = one.goto(`${site.origin}/first`, { waitUntil: 'commit' });
      await until(() => held.length === 1, 'first navigation');
      await clock.advance(3_000); // the server takes 3 s to answer
      held.shift()!();
      expect((await first)!.status()).toBe(200);

      const a = one.goto(`${site.origin}/a`, { waitUntil: 'commit' });
      const b = two.goto(`${site.origin}/b`, { waitUntil: 'commit' });
      await until(() => held.length === 1 && clock.pending === 1, 'a sent, b waiting');
      expect(clock.deadlines[0]! - clock.now()).toBe(3_000);
      await clock.advance(3_000);
      await until(() => held.length === 2, 'b sent');
      for (const answer of held.splice(0)) answer();
      await Promise.all([a, b]);
      expect(gaps(pageStarts(site))).toEqual([3_000, 3_000]);
    } finally {
      await context.close();
      await policy.close();
      await site.close();
    }
  });
}
