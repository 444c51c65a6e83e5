/**
 * The client side of test/bench/fetch-instructions.bench.ts, run by it under valgrind:
 *   node --predictable --import tsx test/bench/fetch-instructions-client.ts <plain|polite> <path> <requests>
 * Sends `requests` requests (64 in flight) through plain undici fetch or a polite fetch with a
 * warm robots cache, to a dispatcher that answers in this process: no sockets, no server, so
 * that what is counted is the client's own work, the same on every run.
 */
import * as undici from 'undici';
// The built package, as users run it (see fetch.bench.ts).
import { createPoliteFetch } from '../../packages/fetch/dist/index.js';
import { InProcessDispatcher } from './in-process-dispatcher.js';

const USER_AGENT = 'ExampleBot/1.0 (+https://example.com/bot)';
const IN_FLIGHT = 64;

const [mode, path, count] = process.argv.slice(2);
const requests = Number(count);
if ((mode !== 'plain' && mode !== 'polite') || path === undefined || !(requests > 0)) {
  throw new Error('usage: fetch-instructions-client.ts <plain|polite> <path> <requests>');
}
const dispatcher = new InProcessDispatcher();
const base = 'http://bench.test';
const polite = createPoliteFetch({
  userAgent: USER_AGENT,
  dispatcher,
  concurrency: IN_FLIGHT,
  // Every politeness feature that has a per-request cost turned off, as in fetch.bench.ts.
  minInterval: 0,
  maxBackoff: 0,
  latencyFactor: 0,
  cache: false,
});
// Warm: robots.txt cached before anything is counted.
await (await polite(`${base}/warm`)).arrayBuffer();
const send =
  mode === 'plain'
    ? (url: string) => undici.fetch(url, { dispatcher, headers: { 'user-agent': USER_AGENT } })
    : (url: string) => polite(url);
let next = 0;
await Promise.all(
  Array.from({ length: IN_FLIGHT }, async () => {
    while (next < requests) {
      const i = next;
      next += 1;
      const response = await send(`${base}${path}?${i}`);
      await response.arrayBuffer();
    }
  }),
);
await polite.close();
