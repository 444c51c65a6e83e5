/**
 * The adapter's HTTP client and its origin's pacing slot: a 429 / 503 with Retry-After pauses
 * the origin before the next request takes the slot, and a request Crawlee has given up on
 * (its navigation timeout passed while it waited) is never sent. The policy's clock is fake:
 * pacing never really waits.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { FakeClock } from '../fetch/helpers/fake-clock.js';
import { startSite } from '../helpers/recording-server.js';
import type { RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { newRun, politeHttpClient } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';

let site: SiteServer | undefined;
let run: RunRecord | undefined;

afterEach(async () => {
  await run?.policy.close();
  await site?.close();
});

it('the HTTP client notes Retry-After inside the slot: the next request waits for the pause', async () => {
  site = await startSite({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
    '/busy': { status: 429, headers: { 'retry-after': '30' }, body: 'slow down' },
    '/next': { headers: { 'content-type': 'text/plain' }, body: 'ok' },
  });
  const clock = new FakeClock();
  run = newRun({ clock, concurrency: 1 });
  const httpClient = politeHttpClient(run);
  const busy = httpClient.sendRequest({ url: `${site.origin}/busy`, method: 'GET' });
  await clock.until(() => site!.hits('/busy').length === 1, 'the first request');
  // Waits for the slot the first request holds.
  const next = httpClient.sendRequest({ url: `${site.origin}/next`, method: 'GET' });
  expect((await busy).statusCode).toBe(429);
  // However long the event loop runs, the paused origin sends nothing before the clock moves.
  for (let i = 0; i < 200; i += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(site.hits('/next')).toHaveLength(0);
  await clock.advance(29_000);
  expect(site.hits('/next')).toHaveLength(0);
  await clock.advance(1_000);
  expect((await next).statusCode).toBe(200);
  expect(site.hits('/next')).toHaveLength(1);
});

it("a request still waiting for its slot when Crawlee's timeout passes is dropped, never sent", async () => {
  site = await startSite({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
    '/first': { headers: { 'content-type': 'text/plain' }, body: 'ok' },
    '/late': { headers: { 'content-type': 'text/plain' }, body: 'ok' },
  });
  const clock = new FakeClock();
  // One request a minute: the second waits for the fake clock, which the test holds still.
  run = newRun({ clock, concurrency: 1, minInterval: 60_000 });
  const httpClient = politeHttpClient(run);
  expect(
    (await httpClient.sendRequest({ url: `${site.origin}/first`, method: 'GET' })).statusCode,
  ).toBe(200);
  // What HttpCrawler passes: got's whole-request timeout, and no signal.
  const late = httpClient
    .sendRequest({ url: `${site.origin}/late`, method: 'GET', timeout: { request: 200 } })
    .then(
      () => 'sent',
      (error: unknown) => (error as Error).name,
    );
  // Crawlee's timeout runs on the policy's clock, as the wait it bounds does.
  await clock.advance(200);
  expect(await late).toBe('TimeoutError');
  await clock.advance(60_000);
  await clock.advance(60_000);
  expect(site.hits('/late')).toHaveLength(0);
});

it('a request that waited for its slot is refused when the robots.txt in force by then disallows it', async () => {
  let robotsFetches = 0;
  site = await startSite({
    // The first copy allows everything; every later one disallows everything.
    '/robots.txt': () => {
      robotsFetches += 1;
      return {
        headers: { 'content-type': 'text/plain' },
        body: robotsFetches === 1 ? 'User-agent: *\nAllow: /\n' : 'User-agent: *\nDisallow: /\n',
      };
    },
    '/first': { headers: { 'content-type': 'text/plain' }, body: 'ok' },
    '/queued': { headers: { 'content-type': 'text/plain' }, body: 'ok' },
  });
  const clock = new FakeClock();
  // The copy is used for 1 s; the queued request waits 1.5 s for its slot.
  run = newRun({ clock, concurrency: 1, minInterval: 1_500, robotsMaxTtl: 1_000, robotsMinTtl: 0 });
  const httpClient = politeHttpClient(run);
  expect(
    (await httpClient.sendRequest({ url: `${site.origin}/first`, method: 'GET' })).statusCode,
  ).toBe(200);
  const queued = httpClient.sendRequest({ url: `${site.origin}/queued`, method: 'GET' }).then(
    () => 'sent',
    (error: unknown) => (error as { code?: string }).code,
  );
  await clock.until(() => clock.pending > 0, 'the spacing wait');
  await clock.advance(1_500);
  expect(await queued).toBe('ERR_ROBOTS_DENIED');
  expect(site.hits('/queued')).toHaveLength(0);
  expect(robotsFetches).toBe(2);
});

it('stream(): the slot is held until the body has been read to its end (concurrency 1, a slow body)', async () => {
  const open: ServerResponse[] = [];
  // Headers and a first chunk now, the rest when the test says so.
  const slow = (_req: unknown, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'text/plain' }).write('start;');
    open.push(res);
  };
  site = await startSite({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
    '/a': slow,
    '/b': slow,
  });
  const clock = new FakeClock();
  run = newRun({ clock, concurrency: 1, minInterval: 0 });
  const httpClient = politeHttpClient(run);
  const first = await httpClient.stream({ url: `${site.origin}/a`, method: 'GET' });
  const second = httpClient.stream({ url: `${site.origin}/b`, method: 'GET' });
  for (let i = 0; i < 200; i += 1) await new Promise((resolve) => setImmediate(resolve));
  // The first body has not ended: the second request has not been sent.
  expect(site.hits('/b')).toHaveLength(0);
  const chunks: Buffer[] = [];
  first.stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => first.stream.once('end', resolve));
  open.shift()!.end('end');
  await ended;
  expect(Buffer.concat(chunks).toString()).toBe('start;end');
  await clock.until(() => site!.hits('/b').length === 1, 'the second request');
  open.shift()!.end('end');
  (await second).stream.resume();
  expect(site.maxConcurrent).toBe(1);
});
