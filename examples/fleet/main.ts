/**
 * Fleet mode: two crawler processes share one robots.txt fetch and one pacing budget per origin
 * through Redis. This program starts a local site of its own (no internet needed), then two
 * worker processes (this same file, forked) that crawl it at once, each with its own polite
 * fetch over `...fleet.policyOptions`. It prints when each request reached the site, and from
 * which worker: 250 ms apart, as one crawler would be, although two processes send them.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 pnpm exec tsx examples/fleet/main.ts
 *
 * REDIS_URL is the Redis both workers share (default redis://127.0.0.1:6379).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createPoliteFetch } from '@polite-crawler/fetch';
import { createRedisFleet, isFleetUnavailableError } from '@polite-crawler/redis';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Each worker's own pacing setting (in a fleet, the strictest of the workers' applies). */
const INTERVAL_MS = 250;
const PAGES = ['/a', '/b', '/c', '/d'];

/** What a worker tells the main process. */
type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly fetched: number; readonly errors: readonly string[] };

if (process.argv[2] === 'worker') await runWorker(process.argv[3]!, process.argv[4]!);
else await runMain();

// --- A worker: one crawler process of the fleet ------------------------------------------------
async function runWorker(name: string, origin: string): Promise<void> {
  const fleet = await createRedisFleet({
    url: REDIS_URL,
    // One run's keys (they expire on their own); crawls sharing a budget share a prefix.
    keyPrefix: `example-fleet:${process.ppid}:`,
    // A missing Redis fails the example within seconds (the default waits 30 s).
    unavailableTimeout: 5_000,
  });
  const politeFetch = createPoliteFetch({
    userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
    concurrency: 1,
    minInterval: INTERVAL_MS,
    ...fleet.policyOptions,
  });
  const send = (message: WorkerMessage): void => void process.send?.(message);
  // Start crawling when the main process says so, so that both workers compete for the site.
  const go = new Promise((resolve) => process.once('message', resolve));
  send({ type: 'ready' });
  await go;
  let fetched = 0;
  const errors: string[] = [];
  // One page after another, as a simple crawler does; the fleet decides when each may go.
  for (const path of PAGES) {
    try {
      const response = await politeFetch(`${origin}${path}`, { headers: { 'x-worker': name } });
      await response.arrayBuffer();
      fetched += 1;
    } catch (error) {
      if (!isFleetUnavailableError(error)) throw error;
      // Not sent. The next requests would wait for Redis as long: stop, and try again later.
      errors.push(`${path}: not sent, Redis unavailable`);
      break;
    }
  }
  await politeFetch.close();
  await fleet.close();
  send({ type: 'done', fetched, errors });
  process.disconnect();
}

// --- The main process: the site, and two workers -----------------------------------------------
async function runMain(): Promise<void> {
  const arrivals: Array<{ at: number; path: string; worker: string }> = [];
  const site = createServer((req, res) => {
    const worker = req.headers['x-worker'];
    arrivals.push({
      at: performance.now(),
      path: req.url ?? '',
      // robots.txt requests carry none of the caller's headers: one worker fetched it for both.
      worker: typeof worker === 'string' ? `worker ${worker}` : 'one worker',
    });
    if (req.url === '/robots.txt') return void res.end('User-agent: *\nDisallow: /private/\n');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>page</title>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  console.log(`site     ${origin}, Redis ${REDIS_URL.replace(/\/\/[^@/]*@/, '//…@')}`);

  const file = fileURLToPath(import.meta.url);
  const workers = ['A', 'B'].map((name) => ({
    name,
    child: fork(file, ['worker', name, origin]),
  }));
  const next = (child: ChildProcess): Promise<WorkerMessage> =>
    new Promise((resolve, reject) => {
      child.once('message', (message) => resolve(message as WorkerMessage));
      child.once('exit', (code) => reject(new Error(`a worker exited (${code})`)));
    });
  const ready = workers.map(({ child }) => next(child));
  await Promise.all(ready);
  const done = workers.map(({ child }) => next(child));
  for (const { child } of workers) child.send('go');
  const reports = await Promise.all(done);
  site.close();

  const start = arrivals[0]?.at ?? 0;
  for (const { at, path, worker } of arrivals) {
    console.log(`+${String(Math.round(at - start)).padStart(5)} ms  ${worker}  ${path}`);
  }
  const pages = arrivals.filter((arrival) => arrival.path !== '/robots.txt');
  const gaps = pages.slice(1).map((arrival, i) => arrival.at - pages[i]!.at);
  reports.forEach((report, i) => {
    if (report.type !== 'done') return;
    const name = workers[i]!.name;
    console.log(`worker ${name} fetched ${report.fetched} pages`);
    for (const error of report.errors) console.log(`worker ${name} failed: ${error}`);
  });
  console.log(`robots.txt fetched ${arrivals.length - pages.length} time(s) for 2 workers`);
  if (gaps.length > 0) {
    const average = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
    console.log(
      `gaps between two pages: smallest ${Math.round(Math.min(...gaps))} ms, average ${Math.round(average)} ms (each worker's interval: ${INTERVAL_MS} ms)`,
    );
  }
  if (reports.some((report) => report.type === 'done' && report.errors.length > 0)) {
    console.log(`Is Redis running at ${REDIS_URL}? Set REDIS_URL to the one to use.`);
    process.exitCode = 1;
  }
}
