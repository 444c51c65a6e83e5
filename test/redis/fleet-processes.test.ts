/**
 * Several real Node processes crawl the same loopback origins through one real redis-server.
 * Every assertion is on what the origins' servers recorded (robots.txt fetches, arrival times,
 * requests in flight) or what the workers reported: the site owner's view of the fleet.
 *
 * Arrival spacing is checked with {@link expectSpaced}: Redis books starts exactly `interval`
 * apart on its own clock, and each request then travels through its process's event loop and the
 * loopback socket before the server stamps it. Without the fleet's pacing the same crawls arrive
 * a few milliseconds apart, so the allowances cannot hide a failure.
 */
import { describe, expect, it } from 'vitest';
import { finished, outcomes, useRedisRig } from './helpers/redis-rig.js';
import { ARRIVAL_SLACK, expectSpaced } from '../helpers/arrival-spacing.js';
import type { Route } from './helpers/site.js';

const rig = useRedisRig('p');

const plain: Route = (path) =>
  path === '/robots.txt' ? { body: 'User-agent: *\nDisallow: /private\n' } : { body: 'page' };

describe('N processes, one politeness budget per origin', { timeout: 90_000 }, () => {
  it('fetches robots.txt once per origin and spaces starts by the interval across processes', async () => {
    const site = await rig.startSite(2, plain);
    const urls = site.origins.flatMap((o) => [1, 2, 3, 4].map((n) => `${o}/page/${n}`));
    const fleet = rig.workers(3, urls, { concurrency: 1, minInterval: 300 });
    await finished(fleet);
    expect(outcomes(fleet).every((r) => r.status === 200)).toBe(true);
    for (const origin of site.origins) {
      expect(site.of(origin, '/robots.txt')).toHaveLength(1);
      const pages = site.pages(origin);
      expect(pages).toHaveLength(12);
      expect(Math.max(...pages.map((p) => p.inFlight))).toBe(1);
      expectSpaced(pages, 300);
    }
  });

  it('holds concurrency across processes (never more than 2 of an origin in flight)', async () => {
    const site = await rig.startSite(1, (path) =>
      path === '/robots.txt' ? { status: 404 } : { holdMs: 80 },
    );
    const urls = [1, 2, 3, 4, 5, 6].map((n) => `${site.origins[0]}/p/${n}`);
    const fleet = rig.workers(3, urls, { concurrency: 2, minInterval: 0 });
    await finished(fleet);
    const pages = site.pages(site.origins[0]!);
    expect(pages).toHaveLength(18);
    expect(Math.max(...pages.map((p) => p.inFlight))).toBe(2);
    expect(site.of(site.origins[0]!, '/robots.txt')).toHaveLength(1);
  });

  it('honours Crawl-delay fleet-wide', async () => {
    const site = await rig.startSite(1, (path) =>
      path === '/robots.txt' ? { body: 'User-agent: *\nCrawl-delay: 0.5\n' } : { body: 'x' },
    );
    const urls = [1, 2, 3].map((n) => `${site.origins[0]}/p/${n}`);
    const fleet = rig.workers(2, urls, { concurrency: 1, minInterval: 0 });
    await finished(fleet);
    const pages = site.pages(site.origins[0]!);
    expect(pages).toHaveLength(6);
    expectSpaced(pages, 500);
  });

  it('honours a Retry-After pause fleet-wide', async () => {
    const site = await rig.startSite(1, (path, seenBefore) => {
      if (path === '/robots.txt') return { body: 'User-agent: *\nAllow: /\n' };
      if (path === '/busy' && seenBefore === 0) {
        return { status: 429, headers: { 'retry-after': '1' }, body: 'slow down' };
      }
      return { body: 'x' };
    });
    const origin = site.origins[0]!;
    // The first worker hits /busy first; the others queue behind it on the origin.
    const fleet = rig.workers(3, [`${origin}/busy`, `${origin}/a`, `${origin}/b`], {
      concurrency: 1,
      minInterval: 0,
    });
    await finished(fleet);
    const pages = site.pages(origin);
    const busy = pages.find((p) => p.path === '/busy')!;
    const after = pages.filter((p) => p.at > busy.at);
    expect(after.length).toBeGreaterThan(0);
    for (const request of after)
      expect(request.at - busy.at).toBeGreaterThanOrEqual(1_000 - ARRIVAL_SLACK);
  });

  it('paces the undici interceptor fleet-wide too (undici.request, two processes)', async () => {
    const site = await rig.startSite(1, (path) =>
      path === '/robots.txt' ? { body: 'User-agent: *\nDisallow: /private\n' } : { holdMs: 40 },
    );
    const origin = site.origins[0]!;
    const urls = [1, 2, 3, 4].map((n) => `${origin}/page/${n}`);
    const fleet = rig.workers(2, [...urls, `${origin}/private/x`], {
      client: 'interceptor',
      concurrency: 1,
      minInterval: 300,
    });
    await finished(fleet);
    const answers = outcomes(fleet);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(8);
    expect(answers.filter((r) => r.error === 'ERR_ROBOTS_DENIED')).toHaveLength(2);
    expect(site.of(origin, '/robots.txt')).toHaveLength(1);
    expect(site.of(origin, '/private/x')).toHaveLength(0);
    const pages = site.pages(origin);
    expect(pages).toHaveLength(8);
    expect(Math.max(...pages.map((p) => p.inFlight))).toBe(1);
    expectSpaced(pages, 300);
  });

  it('paces the Crawlee adapter fleet-wide too (CheerioCrawler + politeCrawlee, two processes)', async () => {
    const site = await rig.startSite(2, (path) =>
      path === '/robots.txt'
        ? { body: 'User-agent: *\nDisallow: /private\n' }
        : {
            holdMs: 40,
            headers: { 'content-type': 'text/html' },
            body: '<html><head><title>page</title></head><body>page</body></html>',
          },
    );
    const origin = site.origins[0]!;
    const urls = [1, 2, 3, 4].map((n) => `${origin}/page/${n}`);
    // The adapter's slot starts when the origin grants it, in the request manager; Crawlee then
    // takes the request on its autoscaled pool's next check (every 0.5 s by default) and sends
    // it, the first time after its HTTP client's start-up (~200 ms here). A request sent late
    // arrives closer than the interval to the next one, in one process as in a fleet. So each
    // worker checks every 10 ms (as test/crawlee does) and warms Crawlee up on another origin
    // first: the site's view then measures the fleet's pacing, not Crawlee's start-up.
    const fleet = rig.workers(2, [...urls, `${origin}/private/x`], {
      client: 'crawlee',
      concurrency: 1,
      minInterval: 300,
      maybeRunIntervalSecs: 0.01,
      warmUpUrl: `${site.origins[1]}/warm-up`,
      startGate: true,
    });
    // Both crawls start together, so that their requests compete for the origin.
    for (const worker of fleet) {
      await expect.poll(() => worker.lines.some((l) => l.ready), { timeout: 30_000 }).toBe(true);
    }
    await rig.redis.command(['RPUSH', `${rig.prefix}go`, 'go', 'go']);
    await finished(fleet);
    const answers = outcomes(fleet);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(8);
    // Crawlee's own skip report for a robots.txt refusal, once per process.
    expect(answers.filter((r) => r.error === 'robotsTxt')).toHaveLength(2);
    expect(site.of(origin, '/robots.txt')).toHaveLength(1);
    expect(site.of(origin, '/private/x')).toHaveLength(0);
    const pages = site.pages(origin);
    expect(pages).toHaveLength(8);
    expect(Math.max(...pages.map((p) => p.inFlight))).toBe(1);
    expectSpaced(pages, 300);
  });

  it('keeps crawls with different key prefixes apart', async () => {
    const site = await rig.startSite(1, plain);
    const urls = [`${site.origins[0]}/x`];
    const first = rig.workers(1, urls);
    const second = rig.workers(1, urls);
    await finished([...first, ...second]);
    // Two crawls, two budgets: each fetched robots.txt itself.
    expect(site.of(site.origins[0]!, '/robots.txt')).toHaveLength(2);
  });
});

describe('faults', { timeout: 90_000 }, () => {
  it('a worker SIGKILLed while holding a slot: the slot is freed after leaseTtl', async () => {
    const site = await rig.startSite(1, (path) =>
      path === '/hang'
        ? { holdMs: Infinity }
        : path === '/robots.txt'
          ? { status: 404 }
          : { body: 'x' },
    );
    const origin = site.origins[0]!;
    const [holder] = rig.workers(1, [`${origin}/hang`], { leaseTtl: 600, concurrency: 1 });
    await expect.poll(() => site.of(origin, '/hang').length, { timeout: 45_000 }).toBe(1);
    holder!.child.kill('SIGKILL');
    await holder!.exited;
    const hang = site.of(origin, '/hang')[0]!;
    const [next] = rig.workers(1, [`${origin}/after`], {
      keyPrefix: rig.prefix,
      leaseTtl: 600,
      concurrency: 1,
    });
    await finished([next!]);
    expect(outcomes([next!])).toEqual([{ url: `${origin}/after`, status: 200 }]);
    const after = site.of(origin, '/after')[0]!;
    // Renewed every 200 ms until the kill, so its lease lasted at least 400 ms past the hang's start.
    expect(after.at - hang.at).toBeGreaterThanOrEqual(400 - ARRIVAL_SLACK);
    expect(site.of(origin, '/robots.txt')).toHaveLength(1);
  });

  it('Redis down at start: workers wait for it, then crawl politely', async () => {
    const site = await rig.startSite(1, plain);
    await rig.redis.kill();
    const urls = [1, 2, 3].map((n) => `${site.origins[0]}/p/${n}`);
    const fleet = rig.workers(2, urls, {
      concurrency: 1,
      minInterval: 300,
      unavailableTimeout: 20_000,
    });
    for (const worker of fleet) {
      await expect.poll(() => worker.lines.some((l) => l.ready), { timeout: 45_000 }).toBe(true);
    }
    // Nothing went out without a slot while Redis was down (robots.txt may, once per process).
    expect(site.pages(site.origins[0]!)).toHaveLength(0);
    await rig.redis.restart();
    await finished(fleet);
    expect(outcomes(fleet).every((r) => r.status === 200)).toBe(true);
    const pages = site.pages(site.origins[0]!);
    expect(pages).toHaveLength(6);
    expectSpaced(pages, 300);
    expect(site.of(site.origins[0]!, '/robots.txt').length).toBeLessThanOrEqual(2);
    for (const worker of fleet) {
      const events = worker.lines.find((l) => l.done)?.events ?? [];
      expect(events.slice(0, 2)).toEqual(['fleet-unavailable', 'fleet-available']);
    }
  });

  it('Redis killed mid-crawl and restarted empty: the crawl resumes, still paced', async () => {
    const site = await rig.startSite(1, (path) =>
      path === '/robots.txt' ? { status: 404 } : { holdMs: 30 },
    );
    const origin = site.origins[0]!;
    const urls = [1, 2, 3, 4, 5, 6].map((n) => `${origin}/p/${n}`);
    // After an empty restart an origin whose state was lost waits leaseTtl / 2 before its next
    // grant (every live holder renews within leaseTtl / 3): 1.5 s here, not the default's 15 s.
    const fleet = rig.workers(2, urls, {
      concurrency: 1,
      minInterval: 400,
      leaseTtl: 3_000,
      unavailableTimeout: 20_000,
    });
    await expect
      .poll(() => site.pages(origin).length, { timeout: 45_000 })
      .toBeGreaterThanOrEqual(3);
    await rig.redis.kill();
    await rig.redis.restart();
    await finished(fleet);
    expect(outcomes(fleet).every((r) => r.status === 200)).toBe(true);
    const pages = site.pages(origin);
    expect(pages).toHaveLength(12);
    expect(Math.max(...pages.map((p) => p.inFlight))).toBe(1);
    expectSpaced(pages, 400);
    // After Redis lost its data, one refetch at most (here: none, each process still had it cached).
    expect(site.of(origin, '/robots.txt').length).toBeLessThanOrEqual(2);
  });

  it('Redis paused (SIGSTOP): requests fail closed with ERR_FLEET_UNAVAILABLE, none goes out unpaced', async () => {
    const site = await rig.startSite(1, plain);
    const origin = site.origins[0]!;
    const urls = [1, 2, 3, 4, 5, 6].map((n) => `${origin}/p/${n}`);
    const fleet = rig.workers(2, urls, {
      concurrency: 1,
      minInterval: 300,
      unavailableTimeout: 400,
    });
    await expect
      .poll(() => site.pages(origin).length, { timeout: 45_000 })
      .toBeGreaterThanOrEqual(2);
    rig.redis.pause();
    const pausedAt = performance.now();
    await finished(fleet);
    const resumedAt = performance.now();
    rig.redis.resume();
    const answers = outcomes(fleet);
    expect(answers).toHaveLength(12);
    expect(answers.some((r) => r.error === 'ERR_FLEET_UNAVAILABLE')).toBe(true);
    expect(answers.every((r) => r.status === 200 || r.error === 'ERR_FLEET_UNAVAILABLE')).toBe(
      true,
    );
    const pages = site.pages(origin);
    // Only requests granted before the pause (booked at most one interval ahead) arrived during it.
    expect(
      pages.filter((p) => p.at > pausedAt + 300 + ARRIVAL_SLACK && p.at < resumedAt),
    ).toHaveLength(0);
    expectSpaced(pages, 300);
    expect(pages.length).toBe(answers.filter((r) => r.status === 200).length);
  });
});
