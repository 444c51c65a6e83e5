/**
 * Benchmark of @polite-crawler/redis (fleet mode) against a real redis-server started here on
 * a free port (nothing persisted). Not a vitest test: run it with
 *   node --import tsx test/bench/redis-fleet.bench.ts   (or `pnpm bench redis-fleet`)
 * It prints a markdown table and writes it to test/bench/results/redis-fleet.md.
 *
 * - cold: 4 processes crawl the same 1,000 origins (distinct *.localhost names on one loopback
 *   server) at once: robots.txt fetches the server saw (must be 1,000) and time to drain;
 * - steady state: one process, robots.txt cached, 50 origins × 40 requests (per-origin
 *   concurrency 8, no spacing): requests/s through the fleet pacer and through the in-memory
 *   pacer on the same site, in alternating rounds; Redis round trips per request (commands
 *   Redis processed, from INFO stats, over requests);
 * - Redis memory per tracked origin after the cold run (INFO used_memory, before/after).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@redis/client';
import { TestRedis } from '../redis/helpers/redis-server.js';
import { fmt, report } from './bench-report.js';

const WORKER = new URL('./redis-fleet-worker.ts', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;

const robotsSeen = new Map<string, number>();
let pages = 0;
const server = createServer((request, response) => {
  if (request.url === '/robots.txt') {
    const host = request.headers.host ?? '';
    robotsSeen.set(host, (robotsSeen.get(host) ?? 0) + 1);
    response.end('User-agent: *\nDisallow: /private\n');
    return;
  }
  pages += 1;
  response.end('ok');
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
const redis = await TestRedis.start();
// Never leave the server behind, whatever fails.
process.once('exit', () => void redis.stop());
const client = await createClient({ url: redis.url }).connect();

async function info(field: string, section: string): Promise<number> {
  const text = await client.sendCommand<string>(['INFO', section]);
  const match = new RegExp(`^${field}:(\\d+)`, 'm').exec(text);
  return Number(match?.[1] ?? NaN);
}

/**
 * Client round trips Redis answered so far: top-level script calls (EVALSHA, EVAL; the store's
 * reads are scripts too) and HMGET (how builds before raw-body entries read the store).
 * Commands run inside scripts are not round trips.
 */
async function roundTrips(): Promise<number> {
  const text = await client.sendCommand<string>(['INFO', 'commandstats']);
  let total = 0;
  for (const name of ['evalsha', 'eval', 'hmget']) {
    const match = new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(text);
    total += Number(match?.[1] ?? 0);
  }
  return total;
}

function runWorker(
  config: Record<string, unknown>,
): Promise<{ requests: number; timings: number[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      cwd: ROOT,
      env: { ...process.env, BENCH_FLEET: JSON.stringify({ redisUrl: redis.url, ...config }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`worker exited ${code}`));
      else
        resolve(
          JSON.parse(out.trim().split('\n').pop()!) as { requests: number; timings: number[] },
        );
    });
  });
}

// Cold: 4 processes × the same 1,000 origins.
const ORIGINS = 1_000;
const coldUrls = Array.from({ length: ORIGINS }, (_, i) => `http://o${i}.localhost:${port}/page`);
const memoryBefore = await info('used_memory', 'memory');
const coldStarted = performance.now();
const cold = await Promise.all(
  [0, 1, 2, 3].map(() =>
    runWorker({ mode: 'fleet', keyPrefix: 'cold:', urls: coldUrls, rounds: 1, concurrency: 1 }),
  ),
);
const coldWall = performance.now() - coldStarted;
const coldDrain = Math.max(...cold.map((w) => w.timings[0]!));
const robotsFetches = [...robotsSeen.values()].reduce((a, b) => a + b, 0);
const coldPages = pages;
const memoryAfter = await info('used_memory', 'memory');
const keysPerOrigin = (await client.sendCommand<string[]>(['KEYS', 'cold:{http://o0.localhost*']))
  .length;
const perOrigin = (memoryAfter - memoryBefore) / ORIGINS;

// Steady state: one process, warm robots cache; `perOrigin` requests to each of 50 origins at
// once, per-origin concurrency 8: with 8 per origin none waits for a slot, with 40 most queue.
const STEADY_ORIGINS = 50;
const ROUNDS = 5;
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
async function steady(perOrigin: number, tag: string) {
  const urls = Array.from(
    { length: STEADY_ORIGINS * perOrigin },
    (_, i) => `http://${tag}${i % STEADY_ORIGINS}.localhost:${port}/p/${i}`,
  );
  const before = await roundTrips();
  const fleetRun = await runWorker({
    mode: 'fleet',
    keyPrefix: `${tag}:`,
    urls,
    rounds: ROUNDS + 1,
    concurrency: 8,
  });
  const after = await roundTrips();
  const memoryRun = await runWorker({
    mode: 'memory',
    keyPrefix: '',
    urls,
    rounds: ROUNDS + 1,
    concurrency: 8,
  });
  // The first round warms robots.txt and the connections: left out of the rates.
  const fleetRate = urls.length / (median(fleetRun.timings.slice(1)) / 1_000);
  const memoryRate = urls.length / (median(memoryRun.timings.slice(1)) / 1_000);
  // Round trips of the whole run (the first round's robots.txt reads and claims, and lease
  // renewals, included) over every request: an upper bound of the steady state.
  const commands = (after - before) / (urls.length * (ROUNDS + 1));
  return { fleetRate, memoryRate, commands };
}
const free = await steady(8, 'f');
const queued = await steady(40, 'q');

report(
  'redis-fleet',
  '@polite-crawler/redis fleet benchmark',
  [
    [
      'cold: robots.txt fetches (4 processes × 1,000 origins)',
      fmt(robotsFetches),
      'expected',
      fmt(ORIGINS),
    ],
    [
      'cold: pages served',
      fmt(coldPages),
      'time to drain (slowest process)',
      `${fmt(coldDrain)} ms`,
    ],
    ['cold: wall time incl. process start', `${fmt(coldWall)} ms`, '', ''],
    [
      'steady, slots free (50 origins × 8): req/s fleet',
      fmt(free.fleetRate),
      'in-memory',
      fmt(free.memoryRate),
    ],
    [
      'steady, slots free: fleet / in-memory',
      fmt(free.fleetRate / free.memoryRate, 2),
      'Redis round trips per request',
      fmt(free.commands, 2),
    ],
    [
      'steady, queued (50 origins × 40): req/s fleet',
      fmt(queued.fleetRate),
      'in-memory',
      fmt(queued.memoryRate),
    ],
    [
      'steady, queued: fleet / in-memory',
      fmt(queued.fleetRate / queued.memoryRate, 2),
      'Redis round trips per request',
      fmt(queued.commands, 2),
    ],
    [
      'Redis memory per tracked origin (cold run)',
      `${fmt(perOrigin)} B`,
      'keys per origin',
      fmt(keysPerOrigin),
    ],
  ],
  `Node ${process.version}, redis-server ${await client.sendCommand<string>(['INFO', 'server']).then((t) => /redis_version:(\S+)/.exec(t)?.[1] ?? '?')}, loopback, ${ROUNDS} steady rounds after one warm-up (median). The machine is shared: the absolute numbers move, the counts do not.`,
);

client.destroy();
await redis.stop();
server.closeAllConnections();
server.close();
