/**
 * Back-off across a fleet: two real worker processes crawl one loopback origin that answers
 * 500 through one real redis-server. Each distress outcome, whichever process saw it, doubles
 * the spacing for both: the site owner sees the fleet's requests 2 s, then 4 s apart (the
 * allowance as in fleet-processes.test.ts: the hop from Redis's booking to the server's stamp).
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { TestRedis } from './helpers/redis-server.js';
import { Site, gaps } from './helpers/site.js';
import { startWorker } from './helpers/workers.js';
import type { Worker } from './helpers/workers.js';

const ARRIVAL_SLACK = 120;
let redis: TestRedis;
let site: Site | undefined;
const workers: Worker[] = [];

beforeAll(async () => {
  redis = await TestRedis.start();
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  for (const worker of workers.splice(0)) {
    if (worker.child.exitCode === null && worker.child.signalCode === null)
      worker.child.kill('SIGKILL');
    await worker.exited;
  }
  await site?.close();
  site = undefined;
});

it('two processes back off together on an origin answering 500', { timeout: 60_000 }, async () => {
  site = await Site.start(1, (path) =>
    path === '/robots.txt' ? { body: 'User-agent: *\nAllow: /\n' } : { status: 500, body: 'down' },
  );
  const origin = site.origins[0]!;
  const common = { redisUrl: redis.url, keyPrefix: 'backoff:', concurrency: 1, minInterval: 0 };
  // One process sends two requests, the other one: three in all, spaced by the fleet.
  const first = startWorker({ ...common, urls: [`${origin}/a/1`, `${origin}/a/2`] });
  const second = startWorker({ ...common, urls: [`${origin}/b/1`] });
  workers.push(first, second);
  for (const worker of [first, second]) {
    const { code, stderr } = await worker.exited;
    expect(code, stderr).toBe(0);
  }
  const statuses = [first, second].flatMap((w) => w.lines.filter((l) => l.url !== undefined));
  expect(statuses.map((l) => l.status)).toEqual([500, 500, 500]);
  const pages = site.pages(origin);
  expect(pages).toHaveLength(3);
  // Both processes' requests are among those spaced.
  expect(new Set(pages.map((p) => p.path.split('/')[1]))).toEqual(new Set(['a', 'b']));
  const [afterFirst, afterSecond] = gaps(pages);
  expect(afterFirst).toBeGreaterThanOrEqual(2_000 - ARRIVAL_SLACK);
  expect(afterSecond).toBeGreaterThanOrEqual(4_000 - ARRIVAL_SLACK);
});
