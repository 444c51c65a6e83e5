/**
 * The fleet example's paced run: two worker processes on one redis-server, whose arrivals at the
 * site must be spaced by the interval Redis booked. It asserts on real elapsed time, so it runs
 * alone (vitest.config.ts); the example's other case and the other examples are in
 * examples.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { TestRedis } from '../redis/helpers/redis-server.js';
import { line, runExample } from './run-example.js';

describe('examples', () => {
  it(
    'fleet: two worker processes on one Redis share robots.txt and the pacing',
    { timeout: 60_000 },
    async () => {
      // Its own redis-server on a free port (the example reads REDIS_URL), never the system one.
      const redis = await TestRedis.start();
      try {
        const { code, stdout, stderr } = await runExample('fleet', { REDIS_URL: redis.url });
        expect(code, `${stdout}\n${stderr}`).toBe(0);
        expect(stdout).toMatch(line('worker A fetched 4 pages'));
        expect(stdout).toMatch(line('worker B fetched 4 pages'));
        expect(stdout).toMatch(line('robots\\.txt fetched 1 time\\(s\\) for 2 workers'));
        const arrivals = [...stdout.matchAll(/^\+ *(\d+) ms {2}worker ([AB]) {2}\/[a-d]$/gm)];
        expect(arrivals).toHaveLength(8);
        expect(new Set(arrivals.map((arrival) => arrival[2]))).toEqual(new Set(['A', 'B']));
        // Arrivals as the site stamped them: 250 ms apart as Redis booked them, less the hop
        // from a granted slot to the site on a loaded machine (as in test/redis).
        const times = arrivals.map((arrival) => Number(arrival[1]));
        for (let i = 1; i < times.length; i += 1) {
          expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(250 - 120);
        }
      } finally {
        await redis.stop();
      }
    },
  );
});
