/**
 * Benchmark of @polite-crawler/fetch on loopback. Not a vitest test: run it with
 *   TSX_TSCONFIG_PATH=test/bench/tsconfig.dist.json node --expose-gc --import tsx test/bench/fetch.bench.ts
 * It prints a markdown table and writes it to test/bench/results/fetch.md.
 *
 * - throughput: requests/s through createPoliteFetch (warm robots cache, high per-origin
 *   concurrency, no spacing) against plain undici fetch: same server, same Agent settings (one
 *   Agent each, so that neither borrows the other's warm connections), same requests. Each
 *   round runs both back to back (order alternating), after a full GC each, and the ratio is
 *   the median of the per-round ratios: on a shared machine the load drifts from second to
 *   second, and pairing adjacent runs cancels most of that drift (many short rounds, and the
 *   client and the server pinned to a core each where taskset exists, keep the median steady);
 * - cold storm: 10,000 requests across 1,000 origins (distinct *.localhost host names on one
 *   server), counting robots.txt fetches and the time to drain;
 * - memory: heap held by a robots cache of 10,000 origins.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as undici from 'undici';
// The built package, as users run it (through the tsconfig paths, tsx would compile the source
// itself, with esbuild's name-keeping helpers on every function it creates).
import {
  createPoliteFetch,
  createRobotsPolicy,
  politeInterceptor,
} from '../../packages/fetch/dist/index.js';
import { BENCH_ROBOTS } from './bench-bodies.js';
import { fmt, report } from './bench-report.js';
import { CORES, localLookup, startLoopbackServer } from './loopback-server.js';

const USER_AGENT = 'ExampleBot/1.0 (+https://example.com/bot)';

/** A difference with its sign: `+11`, `−144`. */
function signed(value: number): string {
  return value < 0 ? `−${fmt(-value)}` : `+${fmt(value)}`;
}

/** Runs `total` calls of `one(i)` with at most `parallel` in flight; returns elapsed ms and client CPU µs. */
async function drive(
  total: number,
  parallel: number,
  one: (i: number) => Promise<void>,
): Promise<{ ms: number; cpu: number }> {
  let next = 0;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < total) {
        const i = next;
        next += 1;
        await one(i);
      }
    }),
  );
  const cpu = process.cpuUsage(cpuStarted);
  return { ms: performance.now() - started, cpu: cpu.user + cpu.system };
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** The value a fraction `q` of the way through the sorted values (nearest rank). */
const quantile = (values: number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.round((values.length - 1) * q)]!;
const low = (values: number[]): number => Math.min(...values);
const high = (values: number[]): number => Math.max(...values);

function fullGc(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
}

function heapUsed(): number {
  fullGc();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  const server = await startLoopbackServer();
  const { base, port } = server;
  const rows: string[][] = [];
  const agentOptions = { connections: 128, connect: { lookup: localLookup } };

  // --- throughput -------------------------------------------------------------------------
  const REQUESTS = 5_000;
  const PARALLEL = 64;
  const ROUNDS = 25;
  const plainAgent = new undici.Agent(agentOptions);
  const politeAgent = new undici.Agent(agentOptions);
  // The transport's own cost, with the politeness features that pace or answer requests by design
  // off, as `minInterval: 0` turns spacing off: back-off on distress (`maxBackoff: 0`),
  // latency-aware spacing (`latencyFactor: 0`) and the HTTP cache (`cache: false`); no
  // `signature`. "Features off" means all of them: issue 31 asks that this path be no slower.
  const polite = createPoliteFetch({
    userAgent: USER_AGENT,
    dispatcher: politeAgent,
    concurrency: PARALLEL,
    minInterval: 0,
    maxBackoff: 0,
    latencyFactor: 0,
    cache: false,
  });
  await (await polite(`${base}/warm`)).arrayBuffer();
  for (const path of ['/page', '/html']) {
    const plainRun = (): Promise<{ ms: number; cpu: number }> =>
      drive(REQUESTS, PARALLEL, async (i) => {
        const response = await undici.fetch(`${base}${path}?${i}`, {
          dispatcher: plainAgent,
          headers: { 'user-agent': USER_AGENT },
        });
        await response.arrayBuffer();
      });
    const politeRun = (): Promise<{ ms: number; cpu: number }> =>
      drive(REQUESTS, PARALLEL, async (i) => {
        const response = await polite(`${base}${path}?${i}`);
        await response.arrayBuffer();
      });
    const measured = async (
      run: () => Promise<{ ms: number; cpu: number }>,
    ): Promise<{ rate: number; cpu: number }> => {
      // Each side starts on a clean heap: no run pays for the other's garbage.
      fullGc();
      const { ms, cpu } = await run();
      return { rate: (REQUESTS / ms) * 1_000, cpu: cpu / REQUESTS };
    };
    await plainRun(); // warm-up (JIT, connections), discarded
    await politeRun();
    const plain: { rate: number; cpu: number }[] = [];
    const politeResults: { rate: number; cpu: number }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      if (round % 2 === 0) {
        plain.push(await measured(plainRun));
        politeResults.push(await measured(politeRun));
      } else {
        politeResults.push(await measured(politeRun));
        plain.push(await measured(plainRun));
      }
    }
    const ratios = politeResults.map((result, round) => result.rate / plain[round]!.rate);
    const cpuRatios = politeResults.map((result, round) => plain[round]!.cpu / result.cpu);
    const plainCpu = median(plain.map((result) => result.cpu));
    const politeCpu = median(politeResults.map((result) => result.cpu));
    const what =
      path === '/page' ? 'text/plain 1 KiB' : 'text/html 4 KiB (robots metas read from the head)';
    rows.push([
      `Throughput, warm cache, ${what}`,
      `undici fetch ${fmt(median(plain.map((result) => result.rate)))} req/s (${fmt(plainCpu)} µs CPU/req)`,
      `polite fetch ${fmt(median(politeResults.map((result) => result.rate)))} req/s (${fmt(politeCpu)} µs CPU/req, ${signed(politeCpu - plainCpu)} µs)`,
      `ratio **${fmt(median(ratios), 2)}×** req/s (middle half of the rounds ${fmt(quantile(ratios, 0.25), 2)}–${fmt(quantile(ratios, 0.75), 2)}, all ${fmt(low(ratios), 2)}–${fmt(high(ratios), 2)}), ${fmt(median(cpuRatios), 2)}× CPU efficiency`,
    ]);
  }
  await polite.close();

  // --- the interceptor on undici.request ------------------------------------------------------
  const intercepted = politeInterceptor({
    userAgent: USER_AGENT,
    dispatcher: politeAgent,
    concurrency: PARALLEL,
    minInterval: 0,
    maxBackoff: 0,
    latencyFactor: 0,
  });
  const politeDispatcher = politeAgent.compose(intercepted);
  await (await undici.request(`${base}/warm`, { dispatcher: politeDispatcher })).body.dump();
  {
    const plainRun = (): Promise<{ ms: number; cpu: number }> =>
      drive(REQUESTS, PARALLEL, async (i) => {
        const { body } = await undici.request(`${base}/page?${i}`, {
          dispatcher: plainAgent,
          headers: { 'user-agent': USER_AGENT },
        });
        await body.arrayBuffer();
      });
    const politeRun = (): Promise<{ ms: number; cpu: number }> =>
      drive(REQUESTS, PARALLEL, async (i) => {
        const { body } = await undici.request(`${base}/page?${i}`, {
          dispatcher: politeDispatcher,
        });
        await body.arrayBuffer();
      });
    const measured = async (
      run: () => Promise<{ ms: number; cpu: number }>,
    ): Promise<{ rate: number; cpu: number }> => {
      fullGc();
      const { ms, cpu } = await run();
      return { rate: (REQUESTS / ms) * 1_000, cpu: cpu / REQUESTS };
    };
    await plainRun(); // warm-up, discarded
    await politeRun();
    const plain: { rate: number; cpu: number }[] = [];
    const politeResults: { rate: number; cpu: number }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      if (round % 2 === 0) {
        plain.push(await measured(plainRun));
        politeResults.push(await measured(politeRun));
      } else {
        politeResults.push(await measured(politeRun));
        plain.push(await measured(plainRun));
      }
    }
    const ratios = politeResults.map((result, round) => result.rate / plain[round]!.rate);
    const plainCpu = median(plain.map((result) => result.cpu));
    const politeCpu = median(politeResults.map((result) => result.cpu));
    rows.push([
      'Throughput, warm cache, text/plain 1 KiB, `undici.request`',
      `plain ${fmt(median(plain.map((result) => result.rate)))} req/s (${fmt(plainCpu)} µs CPU/req)`,
      `politeInterceptor ${fmt(median(politeResults.map((result) => result.rate)))} req/s (${fmt(politeCpu)} µs CPU/req, ${signed(politeCpu - plainCpu)} µs)`,
      `ratio **${fmt(median(ratios), 2)}×** req/s (middle half of the rounds ${fmt(quantile(ratios, 0.25), 2)}–${fmt(quantile(ratios, 0.75), 2)}, all ${fmt(low(ratios), 2)}–${fmt(high(ratios), 2)})`,
    ]);
  }
  await intercepted.close();
  await plainAgent.close();
  await politeAgent.close();

  // --- cold storm -------------------------------------------------------------------------
  await server.reset();
  const ORIGINS = 1_000;
  const PER_ORIGIN = 10;
  const stormAgent = new undici.Agent({ connections: 8, connect: { lookup: localLookup } });
  const storm = createPoliteFetch({
    userAgent: USER_AGENT,
    dispatcher: stormAgent,
    concurrency: 2,
    minInterval: 0,
    maxBackoff: 0,
    latencyFactor: 0,
    cache: false,
  });
  const stormUrls = Array.from(
    { length: ORIGINS * PER_ORIGIN },
    (_, i) => `http://o${i % ORIGINS}.localhost:${port}/page?${i}`,
  );
  const stormStarted = performance.now();
  await Promise.all(
    stormUrls.map(async (url) => {
      const response = await storm(url);
      await response.arrayBuffer();
    }),
  );
  const stormMs = performance.now() - stormStarted;
  const stormStats = await server.stats();
  rows.push([
    `Cold storm: ${fmt(ORIGINS * PER_ORIGIN)} requests at once across ${fmt(ORIGINS)} origins`,
    `robots.txt fetches: **${fmt(stormStats.robots)}** (max ${stormStats.maxPerHost} per origin)`,
    `drained in ${fmt(stormMs)} ms`,
    `${fmt((ORIGINS * PER_ORIGIN) / (stormMs / 1_000))} req/s`,
  ]);
  await storm.close();
  await stormAgent.close();

  // --- memory -----------------------------------------------------------------------------
  const CACHED = 10_000;
  const memoryAgent = new undici.Agent({ connections: 4, connect: { lookup: localLookup } });
  const before = heapUsed();
  const policy = createRobotsPolicy({
    userAgent: USER_AGENT,
    dispatcher: memoryAgent,
    maxOrigins: CACHED,
  });
  const origins = Array.from({ length: CACHED }, (_, i) => `http://m${i}.localhost:${port}`);
  await policy.prefetch(origins, { concurrency: 64 });
  const allCached = origins.every((origin) => policy.peek(`${origin}/search`)?.allowed === false);
  // Close the connection pools first: only the cache should be counted.
  await memoryAgent.close();
  const after = heapUsed();
  const perOrigin = (after - before) / CACHED;
  rows.push([
    `Memory: robots cache of ${fmt(CACHED)} origins (${BENCH_ROBOTS.length} B robots.txt, 2 groups)`,
    `heap held ${fmt((after - before) / 1024 / 1024, 1)} MiB`,
    `${fmt(perOrigin)} B per origin`,
    allCached ? 'all entries answered from memory' : '**some entries missing**',
  ]);
  await policy.close();

  await server.close();

  const note = [
    `Node ${process.version}, ${process.platform}/${process.arch}, ${CORES} cores shared with other work; server in a child process on 127.0.0.1${server.pinned ? ' (client pinned to core 0, server to core 1)' : ''};`,
    `throughput: ${fmt(REQUESTS)} requests per run, ${PARALLEL} in flight, ${ROUNDS} rounds of one run per side back to back (order alternating, full GC before each run);`,
    'req/s and CPU are medians over the rounds, ratios the median of the per-round ratios;',
    'the polite sides run with every politeness feature that paces or answers requests by design off',
    '(`minInterval: 0`, `maxBackoff: 0`, `latencyFactor: 0`, `cache: false`, no `signature`).',
  ].join(' ');
  report('fetch', '@polite-crawler/fetch benchmark', rows, note);
}

await main();
