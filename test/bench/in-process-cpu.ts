/**
 * The measurement the in-process benchmarks share (fetch-cpu and fetch-builds): CPU time per
 * request of many calls to a dispatcher that answers in this process (or, for fetch-builds with
 * `--loopback`, to a server on loopback), after a full GC, and the median of rounds.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Requests per run. */
export const REQUESTS = 2_000;
/** Requests in flight at once. */
export const IN_FLIGHT = 64;
/** The origin every request goes to (the in-process dispatcher answers any). */
export const BASE = 'http://bench.test';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The middle value (the upper one of an even count). */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * CPU µs per request of {@link REQUESTS} calls of `send` to `path` on `base`, {@link IN_FLIGHT}
 * at once.
 */
export async function cpuPerRequest(
  path: string,
  send: (url: string) => Promise<void>,
  base: string = BASE,
): Promise<number> {
  gc();
  gc();
  let next = 0;
  const started = process.cpuUsage();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < REQUESTS) {
        const i = next;
        next += 1;
        await send(`${base}${path}?${i}`);
      }
    }),
  );
  const used = process.cpuUsage(started);
  return (used.user + used.system) / REQUESTS;
}
