/**
 * Back-off through the Playwright gate: real Chromium, a site whose page answers 500 and then
 * recovers. The gate's route handler reports each outcome; the next navigation to the origin
 * waits for the back-off on the policy's fake clock.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import type { PoliteEvent } from '@polite-crawler/fetch';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import { FakeClock } from '../fetch/helpers/fake-clock.js';
import { startSite } from '../helpers/recording-server.js';
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

for (const cache of [false, true])
  it(`a navigation answered 500 makes the origin back off; the next waits 2 s, then 4 s; successes recover it (cache: ${cache})`, async () => {
    const clock = new FakeClock();
    let failures = 2;
    const site = await startSite(
      {
        '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
        '/favicon.ico': { status: 404 },
        '/page': () =>
          failures-- > 0
            ? { status: 500, body: '<p>broken</p>' }
            : { body: '<link rel="icon" href="data:,"><p>fine</p>' },
      },
      { now: () => clock.now() },
    );
    const events: PoliteEvent[] = [];
    const policy = createRobotsPolicy({
      userAgent: USER_AGENT,
      minInterval: 0,
      concurrency: 1,
      clock,
      onEvent: (e) => events.push(e),
    });
    const gate = createPlaywrightGate({ policy, pace: 'documents', cache });
    const context = await browser.newContext();
    try {
      await gate.attach(context);
      await policy.prefetch(site.origin);
      const page = await context.newPage();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const navigation = page.goto(`${site.origin}/page`, { waitUntil: 'domcontentloaded' });
        await clock.until(
          () => clock.pending > 0 || site.hits('/page').length > i,
          'the navigation sent or waiting',
        );
        if (clock.pending > 0) {
          expect(site.hits('/page')).toHaveLength(i);
          await clock.advance(clock.deadlines[0]! - clock.now());
        }
        statuses.push((await navigation)!.status());
      }
      expect(statuses).toEqual([500, 500, 200, 200]);
      const starts = site.hits('/page').map((hit) => hit.at);
      // 2 s after the first 500, 4 s after the second; a success halves 4 s to 2 s.
      expect(starts.slice(1).map((at, i) => at - starts[i]!)).toEqual([2_000, 4_000, 2_000]);
      expect(
        events
          .filter((e) => e.type === 'origin-backoff' || e.type === 'origin-recovered')
          .map((e) => e.type),
      ).toEqual(['origin-backoff', 'origin-backoff', 'origin-recovered']);
    } finally {
      await context.close();
      await policy.close();
      await site.close();
    }
  });
