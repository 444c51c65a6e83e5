/**
 * This checkout's polite fetch against another build of it, in client CPU per request. Not a
 * vitest test: run it with
 *   TSX_TSCONFIG_PATH=test/bench/tsconfig.dist.json node --import tsx test/bench/fetch-builds.bench.ts <other checkout> [label] [--loopback]
 * (both checkouts built; without `paths`, each build loads its own built dependencies). Without
 * a checkout to compare with (as `pnpm bench` runs it) it says so and measures nothing. It
 * prints a markdown table and writes it to test/bench/results/fetch-builds.md
 * (fetch-builds-loopback.md with `--loopback`).
 *
 * Whether a change made the request path slower is a question of a few µs per request, which
 * separate loopback runs on a shared machine cannot answer (whole runs spread by ±10 %). Here
 * both builds and plain undici fetch run in one process, against a dispatcher that answers in
 * that process (no sockets, no server), in alternated rounds timed with `process.cpuUsage`, as
 * fetch-cpu.bench.ts does for plain against polite.
 *
 * With `--loopback` the sides send to fetch.bench.ts's server in a child process instead (an
 * undici Agent each): the same pairing, with real sockets, for a difference that shows on
 * loopback but not in one process.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as undici from 'undici';
import { fmt, report } from './bench-report.js';
import { InProcessDispatcher } from './in-process-dispatcher.js';
import { BASE, IN_FLIGHT, REQUESTS, cpuPerRequest, median } from './in-process-cpu.js';
import { startLoopbackServer } from './loopback-server.js';

const USER_AGENT = 'ExampleBot/1.0 (+https://example.com/bot)';
const ROUNDS = 21;

type Send = (url: string) => Promise<void>;

/** Where a side sends: a dispatcher of its own, to `base`. */
interface Target {
  readonly base: string;
  dispatcher(): undici.Dispatcher;
}

/** In one process: a dispatcher that answers itself. */
const IN_PROCESS: Target = { base: BASE, dispatcher: () => new InProcessDispatcher() };

interface FetchModule {
  createPoliteFetch(options: Record<string, unknown>): (url: string) => Promise<Response>;
  politeInterceptor(
    options: Record<string, unknown>,
  ): undici.Dispatcher.DispatcherComposeInterceptor;
}

/** The build's fetch package, in `checkout`. */
async function buildOf(checkout: string): Promise<FetchModule> {
  const entry = pathToFileURL(resolve(checkout, 'packages/fetch/dist/index.js')).href;
  return (await import(entry)) as FetchModule;
}

/** Every feature that paces or answers requests by design off (as in fetch.bench.ts). */
const PACING_OFF = { maxBackoff: 0, latencyFactor: 0 };
/** The same for a polite fetch, which has an HTTP cache too (the interceptor has none). */
const FETCH_FEATURES_OFF = { ...PACING_OFF, cache: false };

/** `make(options)` with `off`, or, for a build older than those options, without them. */
function withFeaturesOff<T>(
  make: (options: Record<string, unknown>) => T,
  options: Record<string, unknown>,
  off: Record<string, unknown>,
): T {
  try {
    return make({ ...options, ...off });
  } catch {
    return make(options); // a build from before back-off, latency pacing and the cache
  }
}

/**
 * A polite fetch of the build in `checkout`, every feature that paces or answers requests by
 * design off (as in fetch.bench.ts); a build older than those options is given none of them.
 */
async function politeOf(checkout: string, target: Target): Promise<Send> {
  const { createPoliteFetch } = await buildOf(checkout);
  const polite = withFeaturesOff(
    createPoliteFetch,
    {
      userAgent: USER_AGENT,
      dispatcher: target.dispatcher(),
      concurrency: IN_FLIGHT,
      minInterval: 0,
    },
    FETCH_FEATURES_OFF,
  );
  await (await polite(`${target.base}/warm`)).arrayBuffer();
  return async (url) => {
    await (await polite(url)).arrayBuffer();
  };
}

/** `undici.request` through the build's `politeInterceptor`, composed on the target's dispatcher. */
async function interceptedOf(checkout: string, target: Target): Promise<Send> {
  const { politeInterceptor } = await buildOf(checkout);
  const dispatcher = target.dispatcher();
  const polite = withFeaturesOff(
    politeInterceptor,
    {
      userAgent: USER_AGENT,
      dispatcher,
      concurrency: IN_FLIGHT,
      minInterval: 0,
    },
    PACING_OFF,
  );
  const composed = dispatcher.compose(polite);
  await (await undici.request(`${target.base}/warm`, { dispatcher: composed })).body.dump();
  return async (url) => {
    await (await undici.request(url, { dispatcher: composed })).body.arrayBuffer();
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const loopback = args.includes('--loopback');
  const [other, label = 'other build'] = args.filter((arg) => arg !== '--loopback');
  if (other === undefined) {
    console.log(
      'fetch-builds: give the checkout of another build to compare with: nothing measured.',
    );
    return;
  }
  const here = new URL('../..', import.meta.url).pathname;
  const server = loopback ? await startLoopbackServer() : undefined;
  const target: Target =
    server === undefined
      ? IN_PROCESS
      : { base: server.base, dispatcher: () => new undici.Agent({ connections: 128 }) };
  const plainDispatcher = target.dispatcher();
  const fetchSides: [string, Send][] = [
    [
      'undici fetch',
      async (url) => {
        const response = await undici.fetch(url, {
          dispatcher: plainDispatcher,
          headers: { 'user-agent': USER_AGENT },
        });
        await response.arrayBuffer();
      },
    ],
    [label, await politeOf(other, target)],
    ['this build', await politeOf(here, target)],
  ];
  const requestSides: [string, Send][] = [
    [
      'undici.request',
      async (url) => {
        const { body } = await undici.request(url, {
          dispatcher: plainDispatcher,
          headers: { 'user-agent': USER_AGENT },
        });
        await body.arrayBuffer();
      },
    ],
    [label, await interceptedOf(other, target)],
    ['this build', await interceptedOf(here, target)],
  ];
  const rows: string[][] = [];
  for (const [path, what, sides] of [
    ['/page', 'text/plain 1 KiB', fetchSides],
    ['/html', 'text/html 4 KiB (robots metas read from the head)', fetchSides],
    ['/page', 'text/plain 1 KiB, politeInterceptor on undici.request', requestSides],
  ] as const) {
    for (const [, send] of sides) await cpuPerRequest(path, send, target.base); // warm-up, discarded
    const cpu = sides.map((): number[] => []);
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
      for (const side of order) {
        cpu[side]!.push(await cpuPerRequest(path, sides[side]![1], target.base));
      }
    }
    const [plain, theirs, ours] = cpu.map(median) as [number, number, number];
    const perRound = cpu[2]!.map((value, round) => cpu[1]![round]! / value).sort((a, b) => a - b);
    rows.push([
      `CPU per request, warm cache, ${what}`,
      `${sides[0]![0]} ${fmt(plain, 1)} µs; ${label} ${fmt(theirs, 1)} µs (+${fmt(theirs - plain, 1)} µs)`,
      `this build ${fmt(ours, 1)} µs (+${fmt(ours - plain, 1)} µs)`,
      `${label} CPU over this build's: **${fmt(median(perRound), 2)}×** (above 1: this build costs less; middle half of the rounds ${fmt(perRound[Math.round((perRound.length - 1) * 0.25)]!, 2)}–${fmt(perRound[Math.round((perRound.length - 1) * 0.75)]!, 2)})`,
    ]);
  }
  await server?.close();
  const where =
    server === undefined
      ? 'a dispatcher answering in the same process (no sockets, no server)'
      : `a server in a child process on 127.0.0.1${server.pinned ? ' (client pinned to core 0, server to core 1)' : ''}, an undici Agent per side`;
  const note = [
    `Node ${process.version}, ${process.platform}/${process.arch}; ${where};`,
    `${fmt(REQUESTS)} requests per run, ${IN_FLIGHT} in flight, ${ROUNDS} rounds of one run per side (order alternating, full GC before each run);`,
    `CPU is process.cpuUsage (user + system), medians over the rounds; the polite sides run with every feature that paces or answers requests by design off.`,
  ].join(' ');
  report(
    server === undefined ? 'fetch-builds' : 'fetch-builds-loopback',
    `@polite-crawler/fetch: this build against another, CPU per request (${server === undefined ? 'in-process' : 'loopback'})`,
    rows,
    note,
  );
}

await main();
