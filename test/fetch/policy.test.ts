import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CHANNELS, DEFAULTS, isRobotsInvalidUrlError } from '@polite-crawler/fetch';
import type { PoliteEvent, RobotsPolicy } from '@polite-crawler/fetch';
import { OriginScheduler } from '../../packages/fetch/src/pacing/origin-scheduler.js';
import { createEventSink } from '../../packages/fetch/src/policy/events.js';
import { routes } from '../helpers/recording-server.js';
import { policyRig, useRigs } from './helpers/setup.js';
import { FakeClock, tick, until } from './helpers/fake-clock.js';

const RULES = { concurrency: 1, interval: 0 };

/** A task in one of `origin`'s slots, as the policy runs a hop. */
async function run<T>(
  scheduler: OriginScheduler,
  origin: string,
  task: () => Promise<T>,
): Promise<T> {
  const slot = await scheduler.acquire(origin, RULES);
  try {
    return await task();
  } finally {
    slot.release();
  }
}

const { server, polite, defer } = useRigs();

describe('events', () => {
  it('are published on the diagnostics channels and given to onEvent, one state object each', async () => {
    const s = await server(
      routes({
        '/robots.txt': { body: 'User-agent: *\nDisallow: /no\n' },
        '/busy': { status: 503, headers: { 'retry-after': '5' } },
      }),
    );
    const published: unknown[] = [];
    const listener = (message: unknown): void => {
      published.push(message);
    };
    for (const name of Object.values(CHANNELS)) subscribe(name, listener);
    defer(async () => {
      for (const name of Object.values(CHANNELS)) unsubscribe(name, listener);
      await Promise.resolve();
    });
    const hooked: PoliteEvent[] = [];
    const { fetch } = polite({ onEvent: (e) => hooked.push(e) });
    await fetch(`${s.origin}/busy`);
    await fetch(`${s.origin}/no`).catch(() => undefined);
    expect(hooked.map((e) => e.type)).toEqual([
      'robots-fetched',
      'robots-cache',
      'origin-paused',
      'robots-cache',
      'request-denied',
    ]);
    expect(published).toEqual(hooked);
    expect(hooked[0]).toMatchObject({
      type: 'robots-fetched',
      origin: s.origin,
      status: 'ok',
      httpStatus: 200,
      bytes: 28,
    });
    expect(hooked[1]).toMatchObject({ type: 'robots-cache', state: 'miss' });
    expect(hooked[3]).toMatchObject({ type: 'robots-cache', state: 'hit' });
  });

  it('a throwing onEvent hook never breaks a request', async () => {
    const s = await server(routes({ '/robots.txt': { body: '' }, '/p': { body: 'ok' } }));
    const { fetch } = polite({
      onEvent: () => {
        throw new Error('hook bug');
      },
    });
    expect(await (await fetch(`${s.origin}/p`)).text()).toBe('ok');
  });

  it('an async onEvent hook that rejects never breaks a request nor the process', async () => {
    const s = await server(routes({ '/robots.txt': { body: '' }, '/p': { body: 'ok' } }));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    defer(() => void process.off('unhandledRejection', onUnhandled));
    const { fetch } = polite({
      onEvent: () => Promise.reject(new Error('async hook bug')) as unknown as void,
    });
    expect(await (await fetch(`${s.origin}/p`)).text()).toBe('ok');
    for (let i = 0; i < 10; i += 1) await tick();
    expect(unhandled).toEqual([]);
  });

  it('the sink reports whether anyone listens, so hot paths can skip building events', () => {
    expect(createEventSink(undefined).wants('robots-cache')).toBe(false);
    expect(createEventSink(() => {}).wants('robots-cache')).toBe(true);
  });
});

describe('checks', () => {
  it('peek() answers from memory only, synchronously', async () => {
    const s = await server(routes({ '/robots.txt': { body: 'User-agent: *\nDisallow: /no\n' } }));
    const { policy, agent } = policyRig();
    defer(
      () => policy.close(),
      () => agent.close(),
    );
    expect(policy.peek(`${s.origin}/no`)).toBeUndefined();
    await policy.prefetch([s.origin, `${s.origin}/elsewhere`, new URL(s.origin)]);
    expect(s.hits('/robots.txt')).toHaveLength(1);
    expect(policy.peek(`${s.origin}/no`)).toMatchObject({
      allowed: false,
      reason: 'disallowed',
      line: 2,
    });
    expect(policy.peek(`${s.origin}/yes`)).toMatchObject({ allowed: true, reason: 'allowed' });
    expect(() => policy.peek('mailto:someone@example.com')).toThrow(
      /^Invalid URL: mailto:someone@example.com/,
    );
    await expect(policy.check('/relative')).rejects.toSatisfy(isRobotsInvalidUrlError);
  });

  it('uses the purpose group when no group names the product token', async () => {
    const robots =
      'User-agent: *\nDisallow: /\n\nUser-agent-purpose: search\nAllow: /\nDisallow: /ads\n';
    const s = await server(routes({ '/robots.txt': { body: robots } }));
    const { policy, agent } = policyRig({
      userAgent: 'Mozilla/5.0 (compatible; ExampleBot/1.0; search; +https://example.com/bot)',
      productToken: 'ExampleBot',
      purpose: 'search',
    });
    defer(
      () => policy.close(),
      () => agent.close(),
    );
    expect(await policy.check(`${s.origin}/page`)).toMatchObject({ allowed: true });
    const ads = await policy.explain(`${s.origin}/ads/1`);
    expect(ads).toMatchObject({ allowed: false, line: 6 });
    expect(ads.verdict?.selection).toBe('purpose');
  });

  it('explain() reports sitemaps, crawl-delay and diagnostics', async () => {
    const robots =
      'User-agent: examplebot\nCrawl-delay: 2\nDisalow: /typo\n\nSitemap: https://example.com/s.xml\n';
    const s = await server(routes({ '/robots.txt': { body: robots } }));
    const { policy, agent } = policyRig();
    defer(
      () => policy.close(),
      () => agent.close(),
    );
    const explanation = await policy.explain(`${s.origin}/typo`);
    expect(explanation.robotsTxt).toMatchObject({
      sitemaps: ['https://example.com/s.xml'],
      crawlDelay: 2,
    });
    expect(explanation.robotsTxt.diagnostics).toBeGreaterThan(0);
    expect(explanation.verdict?.selection).toBe('product');
  });
});

describe('calls after close, aborted signals and odd inputs', () => {
  it('explain, prefetch and forget reject after close(), as check does', async () => {
    const s = await server(routes({ '/robots.txt': { body: 'User-agent: *\nDisallow: /no\n' } }));
    const { policy } = polite();
    await policy.check(`${s.origin}/`);
    await policy.close();
    for (const call of [
      () => policy.check(`${s.origin}/`),
      () => policy.explain(`${s.origin}/`),
      () => policy.prefetch([s.origin]),
      () => policy.prefetch([]),
      () => policy.forget(s.origin),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'ERR_ROBOTS_CLOSED' });
    }
  });

  it('explain and prefetch reject at once with an aborted signal, even for a cached origin', async () => {
    const s = await server(routes({ '/robots.txt': { body: '' } }));
    const { policy } = polite();
    await policy.check(`${s.origin}/`);
    const signal = AbortSignal.abort(new Error('gave up'));
    await expect(policy.explain(`${s.origin}/`, { signal })).rejects.toThrow('gave up');
    await expect(policy.prefetch([s.origin], { signal })).rejects.toThrow('gave up');
  });

  it('prefetch takes one URL as one origin', async () => {
    const s = await server(routes({ '/robots.txt': { body: 'User-agent: *\nDisallow: /no\n' } }));
    const { policy } = polite();
    await policy.prefetch(`${s.origin}/any/page`);
    expect(policy.peek(`${s.origin}/no`)).toMatchObject({ allowed: false });
    await policy.prefetch(new URL(`${s.origin}/`));
    expect(s.hits('/robots.txt')).toHaveLength(1);
  });

  it('decisions, errors and events never carry the password of the URL', async () => {
    const s = await server(routes({ '/robots.txt': { body: 'User-agent: *\nDisallow: /no\n' } }));
    const events: PoliteEvent[] = [];
    const { policy } = polite({ onEvent: (e) => events.push(e) });
    const secret = `http://user:s3cret@127.0.0.1:${s.port}/no`;
    expect((await policy.check(secret)).url).toBe(`${s.origin}/no`);
    const error = await policy.assertAllowed(secret).catch((e: unknown) => e);
    expect(String((error as Error).message)).not.toContain('s3cret');
    expect(JSON.stringify(error)).not.toContain('s3cret');
    expect(JSON.stringify(events)).not.toContain('s3cret');
    expect(events.some((e) => e.type === 'request-denied')).toBe(true);
  });

  it.each([
    ['ftp://user:s3cret@files.example.com/a', 'ftp://files.example.com/a'],
    ['ws://user:s3cret@example.com/socket', 'ws://example.com/socket'],
    ['http://user:s3cret@[bad/a', 'http://[bad/a'],
  ])('an invalid URL error never carries its password either: %s', async (url, reported) => {
    const { policy } = polite();
    const error = await policy.check(url).catch((e: unknown) => e);
    expect(isRobotsInvalidUrlError(error)).toBe(true);
    expect((error as { url: string }).url).toBe(reported);
    expect(String((error as Error).message)).not.toContain('s3cret');
  });

  it('prefetch aborted with origins still queued: those are never fetched', async () => {
    const held: ServerResponse[] = [];
    const servers = await Promise.all(
      Array.from({ length: 6 }, () => server((_, res) => held.push(res))),
    );
    const { policy } = polite();
    const controller = new AbortController();
    const prefetching = policy.prefetch(
      servers.map((s) => s.origin),
      { concurrency: 2, signal: controller.signal },
    );
    await until(() => held.length === 2, 'two robots.txt fetches');
    controller.abort(new Error('enough'));
    await expect(prefetching).rejects.toThrow('enough');
    for (const res of held.splice(0)) res.end('');
    for (let i = 0; i < 50; i += 1) await tick();
    const fetched = servers.reduce((n, s) => n + s.hits('/robots.txt').length, 0);
    expect(fetched).toBe(2);
  });
});

/**
 * The clock time between the starts of two tasks `schedule()`d at once on `origin`, the clock
 * advanced by `advance` for the second.
 */
async function gapBetweenTwoTasks(
  policy: RobotsPolicy,
  origin: string,
  clock: FakeClock,
  advance: number,
): Promise<number> {
  const starts: number[] = [];
  const task = (): Promise<void> => {
    starts.push(clock.now());
    return Promise.resolve();
  };
  const both = Promise.all([
    policy.schedule(`${origin}/a`, task),
    policy.schedule(`${origin}/b`, task),
  ]);
  await clock.advance(advance);
  await both;
  return starts[1]! - starts[0]!;
}

describe('crawl-delay', () => {
  it('the crawl-delay of an expired copy keeps spacing schedule() until a check replaces it', async () => {
    const s = await server(
      routes({
        '/robots.txt': {
          body: 'User-agent: *\nCrawl-delay: 5\n',
          headers: { 'cache-control': 'max-age=60' },
        },
      }),
    );
    const clock = new FakeClock();
    const { policy } = polite({ clock, minInterval: 0 });
    await policy.check(`${s.origin}/`);
    await clock.advance(61_000);
    expect(policy.peek(`${s.origin}/`)).toBeUndefined();
    expect(await gapBetweenTwoTasks(policy, s.origin, clock, 5_000)).toBe(5_000);
  });

  it.each([
    ['no crawl-delay', 'User-agent: *\nDisallow: /x\n', {}, 300],
    ['a longer crawl-delay', 'User-agent: *\nCrawl-delay: 2\n', {}, 2_000],
    ['a shorter crawl-delay', 'User-agent: *\nCrawl-delay: 0.1\n', {}, 300],
    [
      'a crawl-delay past maxCrawlDelay',
      'User-agent: *\nCrawl-delay: 60\n',
      { maxCrawlDelay: 1_500 },
      1_500,
    ],
    ["crawlDelay: 'ignore'", 'User-agent: *\nCrawl-delay: 2\n', { crawlDelay: 'ignore' }, 300],
  ] as const)(
    'explain().interval is the spacing schedule() keeps: %s',
    async (_, body, options, interval) => {
      const s = await server(routes({ '/robots.txt': { body } }));
      const clock = new FakeClock();
      const { policy } = polite({ clock, minInterval: 300, ...options });
      expect((await policy.explain(`${s.origin}/`)).interval).toBe(interval);
      expect(await gapBetweenTwoTasks(policy, s.origin, clock, interval)).toBe(interval);
    },
  );
});

describe('limits on the clock', () => {
  it(`robotsTimeout: still waiting at ${DEFAULTS.robotsTimeout - 1} ms, unreachable at ${DEFAULTS.robotsTimeout}`, async () => {
    const s = await server(() => {
      /* never answers */
    });
    const clock = new FakeClock();
    const { policy, agent } = policyRig({ clock });
    defer(
      () => policy.close(),
      () => agent.close(),
    );
    let settled = false;
    const pending = policy.explain(`${s.origin}/x`).finally(() => (settled = true));
    await until(() => s.seen.length === 1, 'robots.txt request');
    await clock.advance(DEFAULTS.robotsTimeout - 1);
    for (let i = 0; i < 20; i += 1) await tick();
    expect(settled).toBe(false);
    await clock.advance(1);
    const explanation = await pending;
    expect(explanation).toMatchObject({ allowed: false, reason: 'unreachable' });
    expect(explanation.robotsTxt.latest.failure).toMatchObject({
      kind: 'timeout',
      code: 'ERR_ROBOTS_FETCH_TIMEOUT',
    });
  });
});

describe('pacing state is bounded', () => {
  it('keeps at most maxTrackedOrigins idle origins', async () => {
    const clock = new FakeClock();
    const scheduler = new OriginScheduler({ maxTrackedOrigins: 3, clock });
    for (let i = 0; i < 10; i += 1)
      await run(scheduler, `http://o${i}.localhost`, () => Promise.resolve(i));
    expect(scheduler.size).toBe(3);
    scheduler.pause('http://p.localhost', 30_000);
    expect(scheduler.pausedUntil('http://p.localhost')).toBe(clock.now() + 30_000);
    expect(scheduler.size).toBe(3);
  });

  it('drops idle origins with nothing left to wait for before one still paused or spaced', async () => {
    const clock = new FakeClock();
    const scheduler = new OriginScheduler({ maxTrackedOrigins: 2, clock });
    scheduler.pause('http://paused.localhost', 600_000);
    await clock.advance(60_000);
    for (let i = 0; i < 10; i += 1)
      await run(scheduler, `http://o${i}.localhost`, () => Promise.resolve(i));
    expect(scheduler.size).toBe(2);
    expect(scheduler.pausedUntil('http://paused.localhost')).toBe(clock.now() + 540_000);
    // Once more are held back than the bound allows, the oldest of them go too.
    scheduler.pause('http://p1.localhost', 600_000);
    scheduler.pause('http://p2.localhost', 600_000);
    expect(scheduler.size).toBe(2);
    expect(scheduler.pausedUntil('http://paused.localhost')).toBeUndefined();
    expect(scheduler.pausedUntil('http://p2.localhost')).toBe(clock.now() + 600_000);
  });

  it('never drops an origin with work in flight', async () => {
    const clock = new FakeClock();
    const scheduler = new OriginScheduler({ maxTrackedOrigins: 1, clock });
    let release: (() => void) | undefined;
    const busy = run(
      scheduler,
      'http://busy.localhost',
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    await until(() => release !== undefined, 'task started');
    await run(scheduler, 'http://other.localhost', () => Promise.resolve());
    let second = false;
    const queued = run(scheduler, 'http://busy.localhost', () => {
      second = true;
      return Promise.resolve();
    });
    for (let i = 0; i < 20; i += 1) await tick();
    expect(second).toBe(false);
    release!();
    await Promise.all([busy, queued]);
    expect(second).toBe(true);
  });
});
