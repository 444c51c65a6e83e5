/**
 * Back-off across a fleet: two real worker processes crawl one loopback origin that answers
 * 500 through one real redis-server. Each distress outcome, whichever process saw it, doubles
 * the spacing for both: the site owner sees the fleet's requests 2 s, then 4 s apart (the
 * allowance as in fleet-processes.test.ts: the hop from Redis's booking to the server's stamp).
 */
import { expect, it } from 'vitest';
import { finished, outcomes, useRedisRig } from './helpers/redis-rig.js';
import { ARRIVAL_SLACK, gaps } from '../helpers/arrival-spacing.js';

const rig = useRedisRig('b');

it('two processes back off together on an origin answering 500', { timeout: 60_000 }, async () => {
  const site = await rig.startSite(1, (path) =>
    path === '/robots.txt' ? { body: 'User-agent: *\nAllow: /\n' } : { status: 500, body: 'down' },
  );
  const origin = site.origins[0]!;
  const common = { concurrency: 1, minInterval: 0 };
  // One process sends two requests, the other one: three in all, spaced by the fleet.
  const [first] = rig.workers(1, [`${origin}/a/1`, `${origin}/a/2`], common);
  const [second] = rig.workers(1, [`${origin}/b/1`], { ...common, keyPrefix: rig.prefix });
  const fleet = [first!, second!];
  await finished(fleet);
  expect(outcomes(fleet).map((l) => l.status)).toEqual([500, 500, 500]);
  const pages = site.pages(origin);
  expect(pages).toHaveLength(3);
  // Both processes' requests are among those spaced.
  expect(new Set(pages.map((p) => p.path.split('/')[1]))).toEqual(new Set(['a', 'b']));
  const [afterFirst, afterSecond] = gaps(pages);
  expect(afterFirst).toBeGreaterThanOrEqual(2_000 - ARRIVAL_SLACK);
  expect(afterSecond).toBeGreaterThanOrEqual(4_000 - ARRIVAL_SLACK);
});
