/**
 * The slot the request manager was granted through `policy.enter` is the one the HTTP client's
 * first hop for that request uses (no second slot, no second wait); any other hop enters the
 * policy itself, and a slot asked for another URL carries only the pacing (the hop's own URL
 * is admitted by the policy). Real policy and a real loopback site; the clock never moves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isRobotsDeniedError } from '@polite-crawler/fetch';
import type { HopSlot } from '@polite-crawler/fetch';
import { FakeClock } from '../fetch/helpers/fake-clock.js';
import { startSite } from '../helpers/recording-server.js';
import type { RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { newRun } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';
import { SlotLeases } from '../../packages/crawlee/src/slot-leases.js';
import { takeTicket } from '../../packages/crawlee/src/origin-ticket.js';

let site: SiteServer | undefined;
let run: RunRecord | undefined;

afterEach(async () => {
  await run?.policy.close();
  await site?.close();
  site = undefined;
  run = undefined;
});

async function setup(): Promise<{
  leases: SlotLeases;
  origin: string;
  record: RunRecord;
  clock: FakeClock;
}> {
  site = await startSite({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private\nCrawl-delay: 10\n',
    },
  });
  const clock = new FakeClock();
  const record = newRun({ clock, concurrency: 1, minInterval: 0 });
  run = record;
  await record.policy.prefetch(site.origin);
  return { leases: new SlotLeases(record.policy), origin: site.origin, record, clock };
}

const WAITING = Symbol('waiting');

/** What `entered` settles to within a few event-loop turns (the fake clock still), else WAITING. */
async function soon(entered: Promise<HopSlot>): Promise<HopSlot | typeof WAITING> {
  const turns = new Promise<typeof WAITING>((resolve) => {
    setImmediate(() => setImmediate(() => resolve(WAITING)));
  });
  return Promise.race([entered, turns]);
}

/** The slot `entered` gives at once: no wait for the origin (concurrency 1, crawl-delay 10 s). */
async function atOnce(entered: Promise<HopSlot>): Promise<HopSlot> {
  const got = await soon(entered);
  if (got === WAITING) throw new Error('the hop waited for its origin');
  return got;
}

async function granted(url: string, record: RunRecord) {
  const ticket = takeTicket(record.policy, url);
  await ticket.ready;
  expect(ticket.granted).toBe(true);
  return ticket;
}

describe('SlotLeases: the lent slot is the first hop of its request', () => {
  it("matches the hop without the request URL's fragment (a browser never sends it)", async () => {
    const { leases, origin, record } = await setup();
    const request = { url: `${origin}/a#section` };
    leases.lend(request, await granted(request.url, record));
    const slot = await atOnce(leases.policy.enter(`${origin}/a`));
    expect(leases.size).toBe(0);
    slot.release();
    leases.settle(request);
  });

  it('hands the lent HopSlot to the first hop at once, while the origin has no other slot', async () => {
    const { leases, origin, record } = await setup();
    const request = { url: `${origin}/a` };
    leases.lend(request, await granted(request.url, record));
    // At once: no second slot was asked for (concurrency 1, crawl-delay 10 s, clock still).
    const slot = await atOnce(leases.policy.enter(request.url));
    expect(slot.url.href).toBe(request.url);
    expect(leases.size).toBe(0);
    // A second request for the same URL has no lent slot: it waits for the origin.
    const second = leases.policy.enter(request.url);
    expect(await soon(second)).toBe(WAITING);
    slot.release();
    leases.settle(request); // the slot was used: a no-op
    void second.then(
      (late) => late.release(),
      () => undefined,
    );
  });

  it('does not give the lent slot to a redirect hop', async () => {
    const { leases, origin, record, clock } = await setup();
    const request = { url: `${origin}/a` };
    leases.lend(request, await granted(request.url, record));
    const hop = leases.policy.enter(request.url, { redirectedFrom: `${origin}/old` });
    expect(await soon(hop)).toBe(WAITING);
    expect(leases.size).toBe(1);
    // Given back unused, the lent slot frees the origin: the hop goes once the crawl-delay is over.
    let slot: HopSlot | undefined;
    void hop.then((got) => {
      slot = got;
    });
    leases.settle(request);
    await clock.advance(9_999);
    expect(slot).toBeUndefined();
    await clock.advance(1);
    await clock.until(() => slot !== undefined, 'the hop');
    if (slot === undefined) throw new Error('unreachable');
    expect(slot.url.href).toBe(request.url);
    slot.release();
  });

  it('admits a hop by its own URL when the lent slot was asked for another one', async () => {
    const { leases, origin, record, clock } = await setup();
    const request = { url: `${origin}/private/page` };
    // The origin's slot was granted for /a, then lent to a request for a refused URL.
    leases.lend(request, await granted(`${origin}/a`, record));
    const error = await leases.policy.enter(request.url).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isRobotsDeniedError(error)).toBe(true);
    // The pacing slot went back with the refusal: a later hop waits out the crawl-delay only.
    const after = leases.policy.enter(`${origin}/b`);
    expect(await soon(after)).toBe(WAITING);
    let next: HopSlot | undefined;
    void after.then((got) => {
      next = got;
    });
    // Were the slot still held, the next hop would wait for ever (concurrency 1).
    await clock.advance(10_000);
    await clock.until(() => next !== undefined, 'the next hop');
    next?.release();
    leases.settle(request);
  });

  it('paces an allowed hop in a slot asked for another URL of its origin', async () => {
    const { leases, origin, record } = await setup();
    const request = { url: `${origin}/b` };
    leases.lend(request, await granted(`${origin}/a`, record));
    const slot = await atOnce(leases.policy.enter(request.url));
    expect(slot.url.href).toBe(request.url);
    slot.release();
  });

  it('counts the next start from when the lent slot is sent, not from when it was granted', async () => {
    const { leases, origin, record, clock } = await setup();
    const request = { url: `${origin}/a` };
    const t0 = clock.now();
    leases.lend(request, await granted(request.url, record));
    // The crawler takes the request 3 s after its origin granted it (its pool's turn).
    await clock.advance(3_000);
    const slot = await atOnce(leases.policy.enter(request.url));
    slot.release();
    leases.settle(request);
    let nextAt: number | undefined;
    void leases.policy.enter(`${origin}/b`).then((next) => {
      nextAt = clock.now();
      next.release();
    });
    // Crawl-delay 10 s: from the grant the next start would be at 10 s, from the send at 13 s.
    await clock.advance(7_000);
    expect(nextAt).toBeUndefined();
    await clock.advance(2_999);
    expect(nextAt).toBeUndefined();
    await clock.advance(1);
    await clock.until(() => nextAt !== undefined, 'the next hop');
    expect(nextAt! - t0).toBe(13_000);
  });
});
