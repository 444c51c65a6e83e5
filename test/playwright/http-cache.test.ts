/**
 * HTTP caching (RFC 9111) and one request for identical GETs in flight, through the Playwright
 * gate with `cache` on: the route handler sends through the policy's transport (undici's cache
 * and deduplicate). Playwright turns the browser's own HTTP cache off while a route is set, so
 * without `cache` every navigation and subresource is fetched again. Real Chromium, real loopback
 * server (the shared cache site).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import type { RobotsPolicy, RobotsPolicyOptions } from '@polite-crawler/fetch';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import type { PlaywrightGateOptions } from '@polite-crawler/playwright';
import { FakeClock } from '../fetch/helpers/fake-clock.js';
import { ALLOW_ALL, ETAG, ETAG_BODY, startCacheSite } from '../helpers/cache-site.js';
import type { CacheSiteOptions } from '../helpers/cache-site.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { launchChromium } from './helpers/chromium.js';
import type { Browser, BrowserContext } from './helpers/playwright-core.js';

const USER_AGENT = 'GateBot/1.0 (+http://127.0.0.1/bot)';

let browser: Browser;
let cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
});

afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

interface Rig {
  readonly site: RecordingServer;
  readonly policy: RobotsPolicy;
  readonly context: BrowserContext;
  readonly gate: ReturnType<typeof createPlaywrightGate>;
}

async function rig(
  gateOptions: Omit<PlaywrightGateOptions, 'policy'>,
  policyOptions: Partial<RobotsPolicyOptions> = {},
  siteOptions: CacheSiteOptions = {},
): Promise<Rig> {
  const site = await startCacheSite(siteOptions);
  cleanup.push(() => site.close());
  const policy = createRobotsPolicy({ userAgent: USER_AGENT, minInterval: 0, ...policyOptions });
  cleanup.push(() => policy.close());
  const gate = createPlaywrightGate({ policy, ...gateOptions });
  const context = await browser.newContext();
  cleanup.push(() => context.close());
  await gate.attach(context);
  return { site, policy, context, gate };
}

describe('cache through the Playwright gate', () => {
  it('max-age: a second navigation to a fresh page is served from the cache, with its directives', async () => {
    const { site, context, gate } = await rig({ cache: true });
    const page = await context.newPage();
    for (let i = 0; i < 2; i += 1) {
      const response = (await page.goto(`${site.origin}/fresh`))!;
      expect(response.status()).toBe(200);
      expect(await page.textContent('body')).toBe('fresh page');
      const robots = await gate.robots(response);
      expect([robots.directives.nosnippet, robots.directives.noindex]).toEqual([true, true]);
    }
    expect(site.hits('/fresh')).toHaveLength(1);
  });

  it('ETag: the second navigation is revalidated with If-None-Match; the browser gets status 200 and the body', async () => {
    const { site, context } = await rig({ cache: true });
    const page = await context.newPage();
    for (let i = 0; i < 2; i += 1) {
      const response = (await page.goto(`${site.origin}/etag`))!;
      expect(response.status()).toBe(200);
      expect(await response.text()).toBe(ETAG_BODY);
    }
    const hits = site.hits('/etag');
    expect(hits.map((hit) => hit.headers['if-none-match'])).toEqual([undefined, ETAG]);
  });

  it('five identical fetches a page makes at once are sent once; each gets the whole body', async () => {
    // The server holds /big until the browser has asked for it five times, and a second
    // more: a request the browser has made reaches undici's deduplicate only after the gate's
    // round trip to the browser for its headers, which on a loaded machine can outlast the first
    // answer (then it is sent again: the test fails, it cannot pass wrongly). No latency
    // spacing: with it, the five starts would be a response time apart and none would overlap.
    let asked = 0;
    let release = (): void => {};
    const allAsked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { site, context } = await rig(
      { cache: true },
      { concurrency: 5, latencyFactor: 0 },
      { holdBig: () => allAsked },
    );
    context.on('request', (request) => {
      if (request.url().endsWith('/big') && (asked += 1) === 5) setTimeout(release, 1_000);
    });
    const page = await context.newPage();
    await page.goto(`${site.origin}/fresh`);
    const lengths = await page.evaluate(() =>
      Promise.all(
        Array.from({ length: 5 }, () =>
          fetch('/big').then(async (response) => (await response.text()).length),
        ),
      ),
    );
    expect(lengths).toEqual(Array(5).fill(300_000));
    expect(site.hits('/big')).toHaveLength(1);
  });

  it('a URL robots.txt now disallows is refused even though a fresh copy is cached', async () => {
    const clock = new FakeClock();
    let robots = ALLOW_ALL;
    const { site, context } = await rig(
      { cache: true },
      { clock, robotsMaxTtl: 60_000, robotsMinTtl: 0 },
      { robots: () => robots },
    );
    const page = await context.newPage();
    expect((await page.goto(`${site.origin}/fresh`))!.status()).toBe(200);
    robots = 'User-agent: *\nDisallow: /fresh\n';
    await clock.advance(60_001);
    await expect(page.goto(`${site.origin}/fresh`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
    expect(site.hits('/fresh')).toHaveLength(1);
    expect(site.hits('/robots.txt')).toHaveLength(2);
  });

  it('a fresh copy served during a back-off waits for its turn but does not ease the back-off', async () => {
    const clock = new FakeClock();
    const { site, policy, context } = await rig(
      { cache: true, pace: 'documents' },
      { clock, concurrency: 1 },
    );
    await policy.prefetch(site.origin);
    const page = await context.newPage();
    const step = (path: string): Promise<number> =>
      clock.waitedFor(() => page.goto(`${site.origin}${path}`));
    expect(await step('/fresh')).toBe(0); // stored
    expect(await step('/fail')).toBe(0); // 500: the origin backs off 2 s
    expect(await step('/fresh')).toBe(2_000); // from the store, in its turn
    // Had the copy counted as a success, the back-off would be down to 1 s.
    expect(await step('/etag')).toBe(2_000);
    expect(site.hits('/fresh')).toHaveLength(1);
  });

  it('off by default: routed requests bypass the browser’s cache, every navigation is sent', async () => {
    const { site, context } = await rig({});
    const page = await context.newPage();
    await page.goto(`${site.origin}/fresh`);
    await page.goto(`${site.origin}/fresh`);
    expect(site.hits('/fresh')).toHaveLength(2);
  });
});
