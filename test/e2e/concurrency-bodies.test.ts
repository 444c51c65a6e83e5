/**
 * `concurrency` means one thing on every path: a request counts from its start until its body
 * has ended at the transport (received whole, cancelled, destroyed or failed), at most
 * `maxBodyHold` after its headers. Real loopback servers that send bodies slowly; the server's
 * record says when each request arrived and how many were in progress at once.
 */
import type { ServerResponse } from 'node:http';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { politeInterceptor } from '@polite-crawler/fetch';
import type { RecordingServer } from '../helpers/recording-server.js';
import { USER_AGENT, localAgent, useRigs } from '../fetch/helpers/setup.js';
import { FakeClock, tick, until } from '../fetch/helpers/fake-clock.js';

const { server, polite, defer } = useRigs();

/** Pages answer with their headers and a first chunk now, and end when the test says so. */
async function slowBodies(
  clock: FakeClock,
): Promise<{ s: RecordingServer; open: ServerResponse[] }> {
  const open: ServerResponse[] = [];
  const s = await server((req, res) => {
    if (req.url === '/robots.txt') {
      res.end('');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('start;');
    open.push(res);
  }, clock);
  return { s, open };
}

const pages = (s: RecordingServer): string[] =>
  s.seen.filter((x) => x.path !== '/robots.txt').map((x) => x.path);

/** Lets sockets and promises run (the fake clock does not move). */
async function settle(): Promise<void> {
  for (let i = 0; i < 50; i += 1) await tick();
}

describe('politeFetch: concurrency counts a request until its body has ended', () => {
  it('concurrency 1: the second request starts only once the first body has been read to its end', async () => {
    const clock = new FakeClock();
    const { s, open } = await slowBodies(clock);
    const { fetch } = polite({ clock, concurrency: 1 });
    const first = await fetch(`${s.origin}/a`);
    const second = fetch(`${s.origin}/b`);
    await settle();
    // The first response's headers are in, its body is not: the second has not been sent.
    expect(pages(s)).toEqual(['/a']);
    const text = first.text();
    open.shift()!.end('end');
    expect(await text).toBe('start;end');
    await until(() => open.length === 1, 'the second request at the server');
    expect(pages(s)).toEqual(['/a', '/b']);
    open.shift()!.end('end');
    expect(await (await second).text()).toBe('start;end');
    expect(s.maxConcurrent).toBe(1);
  });

  it('a body cancelled unread gives the slot back', async () => {
    const clock = new FakeClock();
    const { s, open } = await slowBodies(clock);
    const { fetch } = polite({ clock, concurrency: 1 });
    const first = await fetch(`${s.origin}/a`);
    const second = fetch(`${s.origin}/b`);
    await settle();
    expect(pages(s)).toEqual(['/a']);
    await first.body!.cancel();
    await until(() => open.length === 2, 'the second request at the server');
    for (const res of open) res.end('end');
    expect(await (await second).text()).toBe('start;end');
  });

  it('a small body the caller has not read yet is over at the server: it frees the slot (no deadlock)', async () => {
    const clock = new FakeClock();
    const s = await server((req, res) => res.end(req.url === '/robots.txt' ? '' : 'small'), clock);
    const { fetch } = polite({ clock, concurrency: 1 });
    // Both resolve before either body is read: each was received whole at the transport.
    const [a, b] = await Promise.all([fetch(`${s.origin}/a`), fetch(`${s.origin}/b`)]);
    expect([await a.text(), await b.text()]).toEqual(['small', 'small']);
    expect(s.maxConcurrent).toBe(1);
  });

  it('a body nobody reads holds the slot for maxBodyHold after its headers, not longer', async () => {
    const clock = new FakeClock();
    const { s, open } = await slowBodies(clock);
    const { fetch } = polite({ clock, concurrency: 1, maxBodyHold: 10_000 });
    const first = await fetch(`${s.origin}/a`);
    const second = fetch(`${s.origin}/b`);
    await clock.advance(9_999);
    await settle();
    expect(pages(s)).toEqual(['/a']);
    await clock.advance(1);
    await until(() => open.length === 2, 'the second request at the server');
    // The first body is still there to read.
    const text = first.text();
    for (const res of open) res.end('end');
    expect(await text).toBe('start;end');
    expect(await (await second).text()).toBe('start;end');
  });

  it('holds started at different times each end at their own deadline; no timer outlives them', async () => {
    const clock = new FakeClock();
    const { s, open } = await slowBodies(clock);
    const { fetch } = polite({ clock, concurrency: 2, maxBodyHold: 10_000 });
    const first = await fetch(`${s.origin}/a`);
    await clock.advance(4_000);
    const second = await fetch(`${s.origin}/b`);
    const third = fetch(`${s.origin}/c`);
    const fourth = fetch(`${s.origin}/d`);
    // /a's hold ends at 10 s: one slot frees, /c goes out; /b's at 14 s: /d.
    await clock.advance(5_999);
    await settle();
    expect(pages(s)).toEqual(['/a', '/b']);
    await clock.advance(1);
    await until(() => open.length === 3, '/c at the server');
    await clock.advance(3_999);
    await settle();
    expect(pages(s)).toEqual(['/a', '/b', '/c']);
    await clock.advance(1);
    await until(() => open.length === 4, '/d at the server');
    for (const res of open) res.end('end');
    for (const response of [first, second, await third, await fourth])
      expect(await response.text()).toBe('start;end');
    await settle();
    // Every body has ended: no hold timer is left to keep a process alive.
    expect(clock.pending).toBe(0);
  });

  it('maxBodyHold 0 counts a request until its headers only', async () => {
    const clock = new FakeClock();
    const { s, open } = await slowBodies(clock);
    const { fetch } = polite({ clock, concurrency: 1, maxBodyHold: 0 });
    const first = await fetch(`${s.origin}/a`);
    const second = fetch(`${s.origin}/b`);
    await until(() => open.length === 2, 'the second request at the server');
    for (const res of open) res.end('end');
    expect(await first.text()).toBe('start;end');
    expect(await (await second).text()).toBe('start;end');
  });
});

describe('politeInterceptor: the same meaning, the same bound', () => {
  it('a body nobody reads holds the slot for maxBodyHold after its headers, not longer', async () => {
    const clock = new FakeClock();
    const { s, open } = await slowBodies(clock);
    const agent = localAgent();
    const polite = politeInterceptor({
      userAgent: USER_AGENT,
      minInterval: 0,
      concurrency: 1,
      maxBodyHold: 10_000,
      dispatcher: agent,
      clock,
    });
    const dispatcher = agent.compose(polite);
    defer(
      () => agent.close(),
      () => polite.close(),
    );
    const first = await request(`${s.origin}/a`, { dispatcher });
    const second = request(`${s.origin}/b`, { dispatcher });
    await clock.advance(9_999);
    await settle();
    expect(pages(s)).toEqual(['/a']);
    await clock.advance(1);
    await until(() => open.length === 2, 'the second request at the server');
    const text = first.body.text();
    for (const res of open) res.end('end');
    expect(await text).toBe('start;end');
    expect(await (await second).body.text()).toBe('start;end');
  });
});
