// Back-off on distress and latency-aware spacing, as a site owner sees them: real loopback
// servers (one that answers 500 and then recovers, one that slows down), the policy on a fake
// clock, start times recorded by the server on that clock.
import { interceptors, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { politeInterceptor } from '@polite-crawler/fetch';
import type { PaceOutcome, Pacer, PoliteEvent, PoliteFetch } from '@polite-crawler/fetch';
import type { RecordingServer } from '../helpers/recording-server.js';
import { USER_AGENT, localAgent, useRigs } from '../fetch/helpers/setup.js';
import { FakeClock, until } from '../fetch/helpers/fake-clock.js';
import { startSlowSite } from '../helpers/slow-site.js';

const { server, polite, defer } = useRigs();

/**
 * A call with a signal of its own, so that no `responseTimeout` timer joins the pacer's sleepers
 * on the fake clock (the crawls below advance it to the earliest deadline).
 */
const UNTIMED = { signal: new AbortController().signal };

/** Start times of the pages (not robots.txt) on the test's clock. */
const starts = (s: RecordingServer): number[] =>
  s.seen.filter((x) => x.path !== '/robots.txt').map((x) => x.at);

const gaps = (times: readonly number[]): number[] => times.slice(1).map((t, i) => t - times[i]!);

/**
 * Fetches `count` pages one after the other, letting the clock run to each next start (only
 * as far as the pacer asks: the earliest sleeper's deadline; robots.txt is read first, so that
 * no robots.txt timeout is among the sleepers). Returns the statuses (-1: rejected).
 */
async function crawl(
  fetch: PoliteFetch,
  clock: FakeClock,
  origin: string,
  count: number,
): Promise<number[]> {
  await fetch.policy.prefetch(origin);
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const answer = fetch(`${origin}/p${i}`, UNTIMED).catch((error: unknown) => error);
    let settled = false;
    void answer.then(() => (settled = true));
    await until(() => settled || clock.pending > 0, `page ${i} sent or waiting`);
    while (!settled) {
      if (clock.pending > 0) await clock.advance(clock.deadlines[0]! - clock.now());
      await until(() => settled || clock.pending > 0, `page ${i}`);
    }
    const got = await answer;
    if (!(got instanceof Error)) await (got as Response).arrayBuffer();
    statuses.push(got instanceof Error ? -1 : (got as Response).status);
  }
  return statuses;
}

/** A site whose pages answer `failing()`'s status, else 200. */
async function flakySite(failing: () => number | undefined, clock: FakeClock) {
  return server((req, res) => {
    if (req.url === '/robots.txt') return void res.end('');
    const status = failing();
    res.writeHead(status ?? 200, { 'content-type': 'text/plain' }).end('page');
  }, clock);
}

describe('back-off on distress (politeFetch)', () => {
  it('a server that answers 500 and then recovers: doubling from 2 s to the 60 s cap, halving back within eight successes', async () => {
    const clock = new FakeClock();
    let failures = 6;
    const s = await flakySite(() => (failures-- > 0 ? 500 : undefined), clock);
    const events: PoliteEvent[] = [];
    const { fetch } = polite({
      clock,
      concurrency: 1,
      onEvent: (e) => {
        if (e.type === 'origin-backoff' || e.type === 'origin-recovered') events.push(e);
      },
    });
    const statuses = await crawl(fetch, clock, s.origin, 14);
    expect(statuses).toEqual([...Array<number>(6).fill(500), ...Array<number>(8).fill(200)]);
    // minInterval 0: the doubling starts from twice the 1 s base; capped at maxBackoff (60 s).
    // Each success halves the spacing at once; below the base it is gone (the 6th success).
    expect(gaps(starts(s))).toEqual([
      2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 30_000, 15_000, 7_500, 3_750, 1_875, 0, 0,
    ]);
    expect(
      events.map((e) => (e.type === 'origin-backoff' ? [e.distress, e.delay] : e.type)),
    ).toEqual([
      [1, 2_000],
      [2, 4_000],
      [3, 8_000],
      [4, 16_000],
      [5, 32_000],
      [6, 60_000],
      'origin-recovered',
    ]);
    const first = events[0];
    expect(first).toMatchObject({ type: 'origin-backoff', origin: s.origin, cause: 500 });
  });

  it('the first back-off is twice the interval when it is above the base; maxBackoff caps it (at the limit and past it)', async () => {
    for (const [options, expected] of [
      [{ minInterval: 1_500 }, [3_000, 6_000, 12_000]],
      [{ minInterval: 1_500, maxBackoff: 6_000 }, [3_000, 6_000, 6_000]],
      [{ minInterval: 1_500, maxBackoff: 5_999 }, [3_000, 5_999, 5_999]],
      [{ minInterval: 1_500, maxBackoff: 0 }, [1_500, 1_500, 1_500]],
    ] as const) {
      const clock = new FakeClock();
      const s = await flakySite(() => 503, clock);
      const { fetch } = polite({ clock, concurrency: 1, ...options });
      await crawl(fetch, clock, s.origin, 4);
      expect(gaps(starts(s))).toEqual(expected);
    }
  });

  it('maxBackoff 0 with latencyFactor 0: distress changes nothing (starts stay an interval apart, no event)', async () => {
    const clock = new FakeClock();
    const s = await flakySite(() => 500, clock);
    const events: string[] = [];
    const { fetch } = polite({
      clock,
      concurrency: 1,
      minInterval: 1_500,
      maxBackoff: 0,
      latencyFactor: 0,
      onEvent: (e) => events.push(e.type),
    });
    expect(await crawl(fetch, clock, s.origin, 4)).toEqual([500, 500, 500, 500]);
    expect(gaps(starts(s))).toEqual([1_500, 1_500, 1_500]);
    expect(events.filter((type) => type.startsWith('origin-'))).toEqual([]);
  });

  it('a pacer given in the options hears every outcome, whatever this process turns off (a fleet may back off)', async () => {
    const clock = new FakeClock();
    let status = 500;
    const s = await flakySite(() => status, clock);
    const heard: (PaceOutcome | undefined)[] = [];
    // Grants every slot at once and records what each release says.
    const pacer: Pacer = {
      acquire: () => ({ release: (outcome?: PaceOutcome) => void heard.push(outcome) }),
      pause: () => {},
      close: () => Promise.resolve(),
    };
    const { fetch } = polite({ clock, pacer, maxBackoff: 0, latencyFactor: 0 });
    await (await fetch(`${s.origin}/a`, UNTIMED)).text();
    status = 200;
    await (await fetch(`${s.origin}/b`, UNTIMED)).text();
    expect(heard).toEqual([
      { kind: 'distress', latency: 0 },
      { kind: 'success', latency: 0 },
    ]);
  });

  it('408, 429 and 503 without Retry-After, 500/502/504 are distress; 503 with Retry-After pauses instead; 404 is a success', async () => {
    for (const [status, headers, backoff] of [
      [408, {}, true],
      [429, {}, true],
      [502, {}, true],
      [504, {}, true],
      [503, { 'retry-after': '5' }, false],
      [404, {}, false],
    ] as const) {
      const clock = new FakeClock();
      const s = await server((req, res) => {
        if (req.url === '/robots.txt') return void res.end('');
        res.writeHead(status, headers).end();
      }, clock);
      const events: string[] = [];
      const { fetch } = polite({ clock, concurrency: 1, onEvent: (e) => events.push(e.type) });
      await crawl(fetch, clock, s.origin, 2);
      expect(events.includes('origin-backoff'), `${status}`).toBe(backoff);
      expect(gaps(starts(s)), `${status}`).toEqual([backoff ? 2_000 : status === 503 ? 5_000 : 0]);
    }
  });

  it('a connection reset and a timeout are distress; an abort by the caller is not', async () => {
    const clock = new FakeClock();
    let mode: 'reset' | 'hold' | 'ok' = 'reset';
    const held: (() => void)[] = [];
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') return void res.end('');
      if (mode === 'reset') return void res.socket?.destroy();
      if (mode === 'hold') return void held.push(() => res.end('late'));
      res.end('ok');
    }, clock);
    const events: PoliteEvent[] = [];
    const { fetch } = polite({ clock, concurrency: 1, onEvent: (e) => events.push(e) });
    await expect(fetch(`${s.origin}/reset`, UNTIMED)).rejects.toThrow(TypeError);
    expect(events.filter((e) => e.type === 'origin-backoff')).toMatchObject([
      { cause: 'connection', distress: 1, delay: 2_000 },
    ]);
    await clock.advance(2_000);
    // The caller's own deadline passes while the server holds the answer: a timeout.
    mode = 'hold';
    const timeout = new AbortController();
    const timedOut = fetch(`${s.origin}/slow`, { signal: timeout.signal });
    await s.arrived('/slow');
    timeout.abort(new DOMException('deadline passed', 'TimeoutError'));
    await expect(timedOut).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(events.filter((e) => e.type === 'origin-backoff').at(-1)).toMatchObject({
      cause: 'timeout',
      distress: 2,
      delay: 4_000,
    });
    await clock.advance(4_000);
    // An abort is the caller's choice, not the server's distress.
    const aborted = new AbortController();
    const gone = fetch(`${s.origin}/aborted`, { signal: aborted.signal });
    await s.arrived('/aborted');
    aborted.abort();
    await expect(gone).rejects.toMatchObject({ name: 'AbortError' });
    expect(events.filter((e) => e.type === 'origin-backoff')).toHaveLength(2);
    for (const release of held) release();
  });
});

describe('back-off through politeInterceptor', () => {
  it('undici.request on a server answering 500: the origin backs off, and recovers', async () => {
    const clock = new FakeClock();
    let failures = 2;
    const s = await flakySite(() => (failures-- > 0 ? 500 : undefined), clock);
    const agent = localAgent();
    const events: PoliteEvent[] = [];
    const polite = politeInterceptor({
      userAgent: USER_AGENT,
      minInterval: 0,
      dispatcher: agent,
      clock,
      onEvent: (e) => events.push(e),
    });
    const dispatcher = agent.compose(polite, interceptors.redirect({ maxRedirections: 5 }));
    defer(
      () => agent.close(),
      () => polite.close(),
    );
    await polite.policy.prefetch(s.origin);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const answer = request(`${s.origin}/p${i}`, { dispatcher });
      await until(() => s.hits(`/p${i}`).length === 1 || clock.pending > 0, `p${i}`);
      if (clock.pending > 0) await clock.advance(clock.deadlines[0]! - clock.now());
      const { statusCode, body } = await answer;
      await body.text();
      statuses.push(statusCode);
    }
    expect(statuses).toEqual([500, 500, 200, 200, 200]);
    expect(gaps(starts(s))).toEqual([2_000, 4_000, 2_000, 0]);
    expect(events.filter((e) => e.type.startsWith('origin-')).map((e) => e.type)).toEqual([
      'origin-backoff',
      'origin-backoff',
      'origin-recovered',
    ]);
  });
});

describe('latency-aware pacing', () => {
  /** A site whose pages are held until the test answers them (after moving the clock). */
  async function slowSite(clock: FakeClock) {
    const { site, held } = await startSlowSite(clock);
    defer(() => site.close());
    return { s: site, held };
  }

  it('a server slowing from fast to 3 s: starts are spaced by the smoothed response time, never below minInterval', async () => {
    const clock = new FakeClock();
    const { s, held } = await slowSite(clock);
    const { fetch } = polite({ clock, concurrency: 4, minInterval: 1_000 });
    // A fast answer (no time passes): the spacing stays at minInterval.
    const fast = fetch(`${s.origin}/fast`, UNTIMED);
    await until(() => held.length === 1, 'fast page');
    held.shift()!();
    await (await fast).text();
    await clock.advance(1_000);
    // A slow one: 3 s to the headers (smoothed: 0 + 0.3 × 3000 = 900, still below minInterval).
    const slow = fetch(`${s.origin}/slow`, UNTIMED);
    await until(() => held.length === 1, 'slow page');
    await clock.advance(3_000);
    held.shift()!();
    await (await slow).text();
    // Another 3 s answer: smoothed 900 + 0.3 × 2100 = 1530 ms.
    const slower = fetch(`${s.origin}/slower`, UNTIMED);
    await until(() => held.length === 1, 'slower page');
    await clock.advance(3_000);
    held.shift()!();
    await (await slower).text();
    // Two at once (concurrency 4 allows it): the second waits for the latency spacing.
    const a = fetch(`${s.origin}/a`, UNTIMED);
    const b = fetch(`${s.origin}/b`, UNTIMED);
    await until(() => held.length === 1 && clock.pending === 1, 'a sent, b waiting');
    expect(clock.deadlines[0]! - clock.now()).toBe(1_530);
    await clock.advance(1_530);
    await until(() => held.length === 2, 'b sent');
    for (const answer of held.splice(0)) answer();
    await Promise.all([(await a).text(), (await b).text()]);
  });

  it('latencyFactor scales the spacing; 0 turns it off', async () => {
    for (const [latencyFactor, expected] of [
      [2, 6_000],
      [0.5, 1_500],
      [0, 0],
    ] as const) {
      const clock = new FakeClock();
      const { s, held } = await slowSite(clock);
      const { fetch } = polite({ clock, concurrency: 4, minInterval: 0, latencyFactor });
      const first = fetch(`${s.origin}/first`, UNTIMED);
      await until(() => held.length === 1, 'first page');
      await clock.advance(3_000);
      held.shift()!();
      await (await first).text();
      const a = fetch(`${s.origin}/a`, UNTIMED);
      const b = fetch(`${s.origin}/b`, UNTIMED);
      if (expected > 0) {
        await until(() => held.length === 1 && clock.pending === 1, 'a sent, b waiting');
        expect(clock.deadlines[0]! - clock.now()).toBe(expected);
        await clock.advance(expected);
      }
      await until(() => held.length === 2, 'both sent');
      for (const answer of held.splice(0)) answer();
      await Promise.all([(await a).text(), (await b).text()]);
      expect(gaps(starts(s)).at(-1)).toBe(expected);
    }
  });
});
