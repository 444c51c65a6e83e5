/**
 * What a polite fetch and the polite interceptor cost the client, in CPU time per request. Not a
 * vitest test: run it with
 *   TSX_TSCONFIG_PATH=test/bench/tsconfig.dist.json node --import tsx test/bench/fetch-cpu.bench.ts
 * (the packages must be built). It prints a markdown table and writes it to
 * test/bench/results/fetch-cpu.md.
 *
 * The loopback benchmark (fetch.bench.ts) is the one the throughput targets are judged by, but on
 * a shared, loaded machine its wall-clock rounds spread from 0.3× to 1.5×. Here every side sends
 * its requests to a dispatcher that answers in this process (no sockets, no server: the client's
 * own work only), and each run is measured in the process's CPU time (`process.cpuUsage`), which
 * other processes slow down far less than they do wall time. Rounds run every side back to back
 * (order alternating, full GC before each run); a ratio is the median of the per-round ratios.
 * With no socket and no server work in either side, the same overhead is a larger share here
 * than on loopback: these ratios are a floor for the loopback ones.
 */
import { availableParallelism } from 'node:os';
import * as undici from 'undici';
import type { Dispatcher } from 'undici';
// The built package, as users run it (see fetch.bench.ts).
import { createPoliteFetch, politeInterceptor } from '../../packages/fetch/dist/index.js';
import { fmt, report } from './bench-report.js';
import { InProcessDispatcher } from './in-process-dispatcher.js';
import { BASE, IN_FLIGHT, REQUESTS, cpuPerRequest, median } from './in-process-cpu.js';

const USER_AGENT = 'ExampleBot/1.0 (+https://example.com/bot)';
const ROUNDS = 15;

/** Paired rounds of `plain` and `polite`: their median CPU per request and the median ratio. */
async function compare(
  path: string,
  plain: (url: string) => Promise<void>,
  polite: (url: string) => Promise<void>,
): Promise<{ plain: number; polite: number; ratio: number; low: number; high: number }> {
  // Warm-up (JIT), discarded.
  await cpuPerRequest(path, plain);
  await cpuPerRequest(path, polite);
  const plainCpu: number[] = [];
  const politeCpu: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    if (round % 2 === 0) {
      plainCpu.push(await cpuPerRequest(path, plain));
      politeCpu.push(await cpuPerRequest(path, polite));
    } else {
      politeCpu.push(await cpuPerRequest(path, polite));
      plainCpu.push(await cpuPerRequest(path, plain));
    }
  }
  const ratios = politeCpu.map((cpu, round) => plainCpu[round]! / cpu).sort((a, b) => a - b);
  return {
    plain: median(plainCpu),
    polite: median(politeCpu),
    ratio: median(ratios),
    low: ratios[Math.round((ratios.length - 1) * 0.25)]!,
    high: ratios[Math.round((ratios.length - 1) * 0.75)]!,
  };
}

async function main(): Promise<void> {
  const dispatcher = new InProcessDispatcher();
  // As in fetch.bench.ts: the politeness features that pace or answer requests by design are all
  // off (back-off on distress, latency-aware spacing, the HTTP cache; no signature), as
  // `minInterval: 0` turns spacing off.
  const options = {
    userAgent: USER_AGENT,
    dispatcher,
    concurrency: IN_FLIGHT,
    minInterval: 0,
    maxBackoff: 0,
    latencyFactor: 0,
  };
  const polite = createPoliteFetch({ ...options, cache: false });
  const intercepted = politeInterceptor(options);
  const politeDispatcher: Dispatcher = dispatcher.compose(intercepted);
  // Warm robots caches.
  await (await polite(`${BASE}/warm`)).arrayBuffer();
  await (await undici.request(`${BASE}/warm`, { dispatcher: politeDispatcher })).body.dump();

  const rows: string[][] = [];
  const row = (
    what: string,
    plainName: string,
    politeName: string,
    result: Awaited<ReturnType<typeof compare>>,
  ): void => {
    rows.push([
      what,
      `${plainName} ${fmt(result.plain, 1)} µs CPU/req`,
      `${politeName} ${fmt(result.polite, 1)} µs CPU/req (+${fmt(result.polite - result.plain, 1)} µs)`,
      `ratio **${fmt(result.ratio, 2)}×** (middle half of the rounds ${fmt(result.low, 2)}–${fmt(result.high, 2)})`,
    ]);
  };
  for (const [path, what] of [
    ['/page', 'text/plain 1 KiB'],
    ['/html', 'text/html 4 KiB (robots metas read from the head)'],
  ] as const) {
    const result = await compare(
      path,
      async (url) => {
        const response = await undici.fetch(url, {
          dispatcher,
          headers: { 'user-agent': USER_AGENT },
        });
        await response.arrayBuffer();
      },
      async (url) => {
        const response = await polite(url);
        await response.arrayBuffer();
      },
    );
    row(`CPU per request, warm cache, ${what}`, 'undici fetch', 'polite fetch', result);
  }
  const result = await compare(
    '/page',
    async (url) => {
      const { body } = await undici.request(url, {
        dispatcher,
        headers: { 'user-agent': USER_AGENT },
      });
      await body.arrayBuffer();
    },
    async (url) => {
      const { body } = await undici.request(url, { dispatcher: politeDispatcher });
      await body.arrayBuffer();
    },
  );
  row(
    'CPU per request, warm cache, text/plain 1 KiB, `undici.request`',
    'plain',
    'politeInterceptor',
    result,
  );
  await polite.close();
  await intercepted.close();

  const note = [
    `Node ${process.version}, ${process.platform}/${process.arch}, ${availableParallelism()} cores shared with other work;`,
    `a dispatcher answering in the same process (no sockets, no server); ${fmt(REQUESTS)} requests per run, ${IN_FLIGHT} in flight,`,
    `${ROUNDS} rounds of one run per side back to back (order alternating, full GC before each run); CPU is process.cpuUsage (user + system),`,
    'medians over the rounds; a ratio is plain CPU / polite CPU, the median of the per-round ratios;',
    'the polite sides run with every politeness feature that paces or answers requests by design off',
    '(`minInterval: 0`, `maxBackoff: 0`, `latencyFactor: 0`, `cache: false`, no `signature`).',
  ].join(' ');
  report('fetch-cpu', '@polite-crawler/fetch: client CPU per request (in-process)', rows, note);
}

await main();
