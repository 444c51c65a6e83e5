import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { PoliteEvent } from '@polite-crawler/fetch';
import type { Handler, RecordingServer } from '../helpers/recording-server.js';
import { useRigs } from '../fetch/helpers/setup.js';
import { FakeClock, tick, until } from '../fetch/helpers/fake-clock.js';

const { server, polite } = useRigs();

/** Serves `robots`, and holds every page until the test releases it. */
function holding(robots: string): { handler: Handler; held: ServerResponse[]; releaseAll(): void } {
  const held: ServerResponse[] = [];
  return {
    held,
    handler: (req, res) => {
      if (req.url === '/robots.txt') res.end(robots);
      else held.push(res);
    },
    releaseAll: () => {
      for (const res of held.splice(0)) res.end('done');
    },
  };
}

const pages = (s: RecordingServer): number[] =>
  s.seen.filter((x) => x.path !== '/robots.txt').map((x) => x.at);

describe('per-origin concurrency', () => {
  it('never has more than `concurrency` requests in flight to one origin', async () => {
    const clock = new FakeClock();
    const h = holding('');
    const s = await server(h.handler, clock);
    const { fetch } = polite({ clock, concurrency: 2 });
    const all = Array.from({ length: 6 }, (_, i) => fetch(`${s.origin}/p${i}`));
    await until(() => h.held.length === 2, 'two requests');
    for (let i = 0; i < 50; i += 1) await tick();
    expect(s.seen.filter((x) => x.path !== '/robots.txt')).toHaveLength(2);
    // Release one at a time: the next one starts only then.
    for (let done = 0; done < 6; done += 1) {
      await until(() => h.held.length > 0, 'a held request');
      h.held.shift()!.end('done');
    }
    await Promise.all(all);
    expect(s.maxConcurrent).toBe(2);
    expect(Math.max(...s.seen.map((x) => x.concurrent))).toBeLessThanOrEqual(2);
  });

  it('other origins are not held back by a busy one', async () => {
    const clock = new FakeClock();
    const busy = holding('');
    const a = await server(busy.handler, clock);
    const b = await server((req, res) => res.end('b'), clock);
    const { fetch } = polite({ clock, concurrency: 1 });
    const blocked = fetch(`${a.origin}/slow`);
    await until(() => busy.held.length === 1, 'busy request');
    expect((await fetch(`${b.origin}/quick`)).status).toBe(200);
    busy.releaseAll();
    await blocked;
  });
});

describe('spacing', () => {
  it('starts requests to one origin at least minInterval apart', async () => {
    const clock = new FakeClock();
    const s = await server((req, res) => res.end(req.url === '/robots.txt' ? '' : 'ok'), clock);
    const { fetch } = polite({ clock, minInterval: 1_000, concurrency: 3 });
    const all = Array.from({ length: 5 }, (_, i) => fetch(`${s.origin}/p${i}`));
    await until(() => pages(s).length === 1, 'first page');
    for (let n = 2; n <= 5; n += 1) {
      await until(() => clock.pending > 0, 'a waiting request');
      for (let i = 0; i < 20; i += 1) await tick();
      expect(pages(s)).toHaveLength(n - 1);
      await clock.advance(1_000);
      await until(() => pages(s).length === n, `page ${n}`);
    }
    await Promise.all(all);
    const starts = pages(s);
    for (let i = 1; i < starts.length; i += 1)
      expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(1_000);
  });

  it('honours crawl-delay (capped at maxCrawlDelay), or ignores it when told to', async () => {
    for (const [options, expected] of [
      [{}, 5_000],
      [{ maxCrawlDelay: 2_000 }, 2_000],
      [{ crawlDelay: 'ignore' as const }, 0],
    ] as const) {
      const clock = new FakeClock();
      const s = await server(
        (req, res) => res.end(req.url === '/robots.txt' ? 'User-agent: *\nCrawl-delay: 5\n' : 'ok'),
        clock,
      );
      const { fetch } = polite({ clock, minInterval: 0, ...options });
      await fetch(`${s.origin}/a`);
      const second = fetch(`${s.origin}/b`);
      if (expected > 0) {
        await until(() => clock.pending > 0, 'the second request waiting');
        expect(clock.deadlines[0]! - clock.now()).toBe(expected);
        await clock.advance(expected - 1);
        expect(pages(s)).toHaveLength(1);
        await clock.advance(1);
      }
      await second;
      expect(pages(s)[1]! - pages(s)[0]!).toBe(expected);
    }
  });
});

describe('Retry-After pauses', () => {
  it('a 429/503 with Retry-After pauses that origin (capped) and no other', async () => {
    const clock = new FakeClock();
    const events: PoliteEvent[] = [];
    const a = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('');
      else if (req.url === '/busy') res.writeHead(503, { 'retry-after': '120' }).end('later');
      else res.end('ok');
    }, clock);
    const b = await server((req, res) => res.end(''), clock);
    const { fetch } = polite({ clock, onEvent: (e) => events.push(e) });
    expect((await fetch(`${a.origin}/busy`)).status).toBe(503);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'origin-paused',
        origin: a.origin,
        status: 503,
        duration: 120_000,
        retryAfter: '120',
      }),
    );
    const next = fetch(`${a.origin}/after`);
    await until(() => clock.pending > 0, 'paused request');
    expect((await fetch(`${b.origin}/other`)).status).toBe(200);
    await clock.advance(119_999);
    expect(a.hits('/after')).toHaveLength(0);
    await clock.advance(1);
    await next;
    expect(a.hits('/after')[0]!.at - a.hits('/busy')[0]!.at).toBe(120_000);
  });

  it('caps the pause at maxRetryAfter and accepts an HTTP-date', async () => {
    const clock = new FakeClock();
    const later = new Date(clock.now() + 86_400_000).toUTCString();
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('');
      // The server's clock agrees with the test's (Node's own Date header is the real time).
      else if (req.url === '/busy') {
        res.writeHead(429, { 'retry-after': later, date: new Date(clock.now()).toUTCString() });
        res.end();
      } else res.end('ok');
    }, clock);
    const { fetch } = polite({ clock, maxRetryAfter: 60_000 });
    await fetch(`${s.origin}/busy`);
    const next = fetch(`${s.origin}/after`);
    await until(() => clock.pending > 0, 'paused request');
    expect(clock.deadlines[0]! - clock.now()).toBe(60_000);
    await clock.advance(60_000);
    await next;
  });

  it('noteResponse() lets adapters pause an origin; schedule() runs their tasks in its slot', async () => {
    const clock = new FakeClock();
    const { policy } = polite({ clock, concurrency: 1 });
    const origin = 'http://crawled.localhost';
    policy.noteResponse(`${origin}/x`, 429, { 'Retry-After': '10' });
    policy.noteResponse(`${origin}/x`, 500, { 'retry-after': '999' }); // not a pause status
    const ran: number[] = [];
    const task = policy.schedule(`${origin}/y`, () => {
      ran.push(clock.now());
      return Promise.resolve('done');
    });
    await until(() => clock.pending > 0, 'scheduled task waiting');
    expect(clock.deadlines).toEqual([clock.now() + 10_000]);
    await clock.advance(10_000);
    expect(await task).toBe('done');
    expect(ran).toHaveLength(1);
  });
});

describe('what concurrency counts for politeFetch', () => {
  it('until the body ends, at most maxBodyHold after the headers: two responses awaited together do not deadlock', async () => {
    const clock = new FakeClock();
    const open: ServerResponse[] = [];
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') return void res.end('');
      // Headers and part of the body now, the rest when the test says so.
      res.writeHead(200, { 'content-type': 'text/plain' }).write('start;');
      open.push(res);
    }, clock);
    const { fetch } = polite({ clock, concurrency: 1 });
    // Correct fetch code: both responses first, then their bodies.
    const both = Promise.all([fetch(`${s.origin}/a`), fetch(`${s.origin}/b`)]);
    await until(() => open.length === 1, 'the first request at the server');
    // The first body has not ended: the second waits for it, for maxBodyHold (60 s) at most.
    await clock.advance(59_999);
    for (let i = 0; i < 50; i += 1) await tick();
    expect(open).toHaveLength(1);
    await clock.advance(1);
    await until(() => open.length === 2, 'both requests at the server');
    for (const res of open) res.end('end');
    const [a, b] = await both;
    expect([await a.text(), await b.text()]).toEqual(['start;end', 'start;end']);
  });
});
