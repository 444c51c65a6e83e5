/**
 * The client side of test/bench/fetch-instructions.bench.ts, run by it under valgrind:
 *   node --predictable --import tsx test/bench/fetch-instructions-client.ts <plain|polite> <path> <requests>
 * Sends `requests` requests (64 in flight) through plain undici fetch or a polite fetch with a
 * warm robots cache, to a dispatcher that answers in this process: no sockets, no server, so
 * that what is counted is the client's own work, the same on every run.
 */
import * as undici from 'undici';
import type { Dispatcher } from 'undici';
// The built package, as users run it (see fetch.bench.ts).
import { createPoliteFetch } from '../../packages/fetch/dist/index.js';
import { BENCH_HTML, BENCH_PAGE, BENCH_ROBOTS } from './bench-bodies.js';

const USER_AGENT = 'ExampleBot/1.0 (+https://example.com/bot)';
const IN_FLIGHT = 64;

// The bodies of the loopback benchmark (test/bench/fetch.bench.ts).
const ROBOTS = Buffer.from(BENCH_ROBOTS);
const PAGE = Buffer.from(BENCH_PAGE);
const HTML = Buffer.from(BENCH_HTML);

type LegacyHandler = {
  onConnect?(abort: () => void): void;
  onHeaders?(status: number, raw: Buffer[], resume: () => void, statusText: string): boolean;
  onData?(chunk: Buffer): boolean;
  onComplete?(trailers: string[]): void;
};

/** Answers every request on the next turn of the event loop, as one chunk, in undici's callback API. */
class InProcessDispatcher extends undici.Dispatcher {
  override dispatch(options: Dispatcher.DispatchOptions, handler: unknown): boolean {
    const path = options.path;
    const [body, type] =
      path === '/robots.txt'
        ? [ROBOTS, 'text/plain']
        : path.startsWith('/html')
          ? [HTML, 'text/html']
          : [PAGE, 'text/plain'];
    const callbacks = handler as LegacyHandler;
    setImmediate(() => {
      callbacks.onConnect?.(() => {});
      const raw = [
        Buffer.from('content-type'),
        Buffer.from(type),
        Buffer.from('content-length'),
        Buffer.from(String(body.length)),
      ];
      callbacks.onHeaders?.(200, raw, () => {}, 'OK');
      // A fresh buffer, as a socket read would give.
      callbacks.onData?.(Buffer.from(body));
      callbacks.onComplete?.([]);
    });
    return true;
  }

  override close(): Promise<void> {
    return Promise.resolve();
  }

  override destroy(): Promise<void> {
    return Promise.resolve();
  }
}

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
  minInterval: 0,
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
