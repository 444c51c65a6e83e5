/**
 * Requests that wait in an origin's queue: they go out only if robots.txt still allows them
 * when their slot comes (the copy that admitted them may have expired meanwhile), and however
 * many wait on one signal, that signal carries one listener.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { isRobotsDeniedError } from '@polite-crawler/fetch';
import type { ServerResponse } from 'node:http';
import { useRigs } from '../fetch/helpers/setup.js';
import { caught } from '../fetch/helpers/thrown.js';
import { until } from '../fetch/helpers/fake-clock.js';

const { server, polite } = useRigs();

describe('a request that waited for its slot', () => {
  it.each([
    ['without a signal', false],
    ['with a signal', true],
  ])(
    '%s is refused when the robots.txt in force by then disallows it, and never sent',
    async (_, withSignal) => {
      let robotsFetches = 0;
      const s = await server((req, res) => {
        if (req.url === '/robots.txt') {
          robotsFetches += 1;
          // The first copy allows everything; every later one disallows everything.
          res.end(
            robotsFetches === 1 ? 'User-agent: *\nAllow: /\n' : 'User-agent: *\nDisallow: /\n',
          );
        } else res.end('ok');
      });
      const { fetch, clock } = polite({ robotsMaxTtl: 1_000, robotsMinTtl: 0, minInterval: 1_500 });
      const init = withSignal ? { signal: new AbortController().signal } : undefined;
      const results = ['/a', '/b'].map((path) =>
        caught(fetch(`${s.origin}${path}`, init).then((r) => r.text())).catch((e: unknown) => e),
      );
      await until(() => s.hits('/a').length === 1, 'the first page');
      // /b waits out the spacing; the copy that admitted it expires meanwhile.
      await until(() => clock.pending > 0, 'the spacing wait');
      await clock.advance(1_500);
      const [a, b] = await Promise.all(results);
      expect(a).toMatchObject({ message: 'expected a rejection' }); // /a was served
      expect(isRobotsDeniedError(b)).toBe(true);
      expect(b).toMatchObject({ reason: 'disallowed', url: `${s.origin}/b` });
      expect(s.hits('/b')).toHaveLength(0);
      expect(robotsFetches).toBe(2);
    },
  );

  it('goes out when the rules in force by then still allow it', async () => {
    const s = await server((req, res) =>
      res.end(req.url === '/robots.txt' ? 'User-agent: *\nDisallow: /no\n' : 'ok'),
    );
    const { fetch, clock } = polite({ robotsMaxTtl: 1_000, robotsMinTtl: 0, minInterval: 1_500 });
    const both = Promise.all(
      ['/a', '/b'].map((path) => fetch(`${s.origin}${path}`).then((r) => r.text())),
    );
    await until(() => s.hits('/a').length === 1, 'the first page');
    await until(() => clock.pending > 0, 'the spacing wait');
    await clock.advance(1_500);
    expect(await both).toEqual(['ok', 'ok']);
    // The expired copy was fetched again before /b went out.
    expect(s.hits('/robots.txt')).toHaveLength(2);
    expect(s.seen.map((x) => x.path)).toEqual(['/robots.txt', '/a', '/robots.txt', '/b']);
  });
});

describe('many requests queued for one origin', () => {
  it('on one shared signal: the signal carries one listener, and aborting it rejects them all', async () => {
    const held: ServerResponse[] = [];
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('');
      else held.push(res);
    });
    const { fetch } = polite({ concurrency: 1 });
    const crawl = new AbortController();
    const all = Array.from({ length: 1_000 }, (_, i) =>
      fetch(`${s.origin}/p${i}`, { signal: crawl.signal }).then(
        () => 'served',
        (error: unknown) => (error as Error).name,
      ),
    );
    await until(() => held.length === 1, 'the first request');
    // One from the queue, and what undici's fetch holds for the one request in flight.
    expect(getEventListeners(crawl.signal, 'abort').length).toBeLessThanOrEqual(3);
    crawl.abort();
    const outcomes = await Promise.all(all);
    expect(outcomes.filter((o) => o === 'AbortError')).toHaveLength(1_000);
    expect(s.seen.filter((x) => x.path !== '/robots.txt')).toHaveLength(1);
    expect(getEventListeners(crawl.signal, 'abort')).toHaveLength(0);
  });

  it('without a signal: closing the fetch rejects every waiter', async () => {
    const held: ServerResponse[] = [];
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('');
      else held.push(res);
    });
    const { fetch } = polite({ concurrency: 1 });
    const all = Array.from({ length: 1_000 }, (_, i) =>
      fetch(`${s.origin}/p${i}`).then(
        () => 'served',
        (error: unknown) => (error as { code?: string }).code,
      ),
    );
    await until(() => held.length === 1, 'the first request');
    const closed = fetch.close();
    for (const res of held.splice(0)) res.end('late');
    await closed;
    const outcomes = await Promise.all(all);
    expect(outcomes.filter((o) => o === 'ERR_ROBOTS_CLOSED').length).toBeGreaterThanOrEqual(999);
    expect(s.seen.filter((x) => x.path !== '/robots.txt')).toHaveLength(1);
  });
});
