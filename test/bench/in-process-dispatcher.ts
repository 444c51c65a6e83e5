/**
 * A dispatcher that answers in the process (no sockets, no server), for the benchmarks that
 * measure a client's own work: fetch-instructions (counted under valgrind) and fetch-cpu (CPU
 * time per request).
 */
import * as undici from 'undici';
import type { Dispatcher } from 'undici';
import { BENCH_HTML, BENCH_PAGE, BENCH_ROBOTS } from './bench-bodies.js';

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
type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[0];

/** What an in-process response needs of a controller: it never pauses, aborts nothing real. */
const CONTROLLER: Controller = {
  abort: () => {},
  pause: () => {},
  resume: () => {},
  aborted: false,
  paused: false,
  reason: null,
};

/**
 * Answers every request on the next turn of the event loop, as one chunk, in whichever of
 * undici's two handler APIs the handler speaks (fetch's own handler uses the callback one; an
 * interceptor such as the polite fetch's tap hands on a handler of the current one).
 */
export class InProcessDispatcher extends undici.Dispatcher {
  override dispatch(options: Dispatcher.DispatchOptions, handler: unknown): boolean {
    const path = options.path;
    const [body, type] =
      path === '/robots.txt'
        ? [ROBOTS, 'text/plain']
        : path.startsWith('/html')
          ? [HTML, 'text/html']
          : [PAGE, 'text/plain'];
    setImmediate(() => {
      // The header lines as a socket gives them to undici.
      const raw = [
        Buffer.from('content-type'),
        Buffer.from(type),
        Buffer.from('content-length'),
        Buffer.from(String(body.length)),
      ];
      // A fresh buffer, as a socket read would give.
      const chunk = Buffer.from(body);
      const current = handler as Dispatcher.DispatchHandler;
      if (typeof current.onRequestStart === 'function') {
        // What undici's own dispatchers do for such a handler: parse the lines into an object.
        current.onRequestStart(CONTROLLER, {});
        current.onResponseStart?.(CONTROLLER, 200, undici.util.parseHeaders(raw), 'OK');
        current.onResponseData?.(CONTROLLER, chunk);
        current.onResponseEnd?.(CONTROLLER, {});
        return;
      }
      const callbacks = handler as LegacyHandler;
      callbacks.onConnect?.(() => {});
      callbacks.onHeaders?.(200, raw, () => {}, 'OK');
      callbacks.onData?.(chunk);
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
