import { setTimeout as sleep } from 'node:timers/promises';
import { tick } from '../../fetch/helpers/fake-clock.js';
import type { FakeClock } from '../../fetch/helpers/fake-clock.js';

/** The parts of a Crawlee crawler that {@link runOnFakeClock} drives and watches. */
interface ClockedCrawler {
  readonly autoscaledPool?: { readonly currentConcurrency: number } | undefined;
  readonly requestQueue?: { isEmpty(): Promise<boolean> } | undefined;
  run(requests: string[]): Promise<unknown>;
}

/**
 * Runs `crawler` on `urls` to the end, moving the fake clock to its next deadline whenever the
 * crawler is idle and something waits for the clock: a crawl-delay far above Crawlee's
 * timeouts then takes no real time, and no timer of Crawlee's own fires meanwhile.
 */
export async function runOnFakeClock(
  crawler: ClockedCrawler,
  clock: FakeClock,
  urls: readonly string[],
): Promise<void> {
  let done = false;
  const running = crawler.run([...urls]).finally(() => {
    done = true;
  });
  const idle = (): boolean =>
    crawler.autoscaledPool !== undefined &&
    crawler.autoscaledPool.currentConcurrency === 0 &&
    clock.pending > 0;
  for (;;) {
    await poll(() => done || idle(), 'the crawler or the clock');
    if (done) break;
    // Something the crawler can take now: it will, before the clock moves.
    if (!(await crawler.requestQueue!.isEmpty())) {
      await tick();
      continue;
    }
    const next = clock.deadlines[0] ?? clock.now();
    await clock.advance(Math.max(0, next - clock.now()));
  }
  await running;
}

/**
 * Waits until `predicate` holds, looking every millisecond (bounded). Not on every turn of the
 * event loop: a check that spins takes the CPU the crawler and its browser need to get there.
 */
async function poll(predicate: () => boolean, what: string, maxPolls = 600_000): Promise<void> {
  for (let i = 0; i < maxPolls; i += 1) {
    if (predicate()) return;
    await sleep(1);
  }
  throw new Error(`gave up waiting for ${what}`);
}
