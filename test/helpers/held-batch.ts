/**
 * Routes that make requests a client may send at once overlap at the server, when it does
 * send them at once, with no timer deciding anything.
 */
import type { Answer, Route } from './recording-server.js';
import type { WaitingPacer } from './waiting-pacer.js';

/**
 * Routes for `paths`, each answering `answer`, held until another request of the batch
 * arrives (the overlap is then on the server's record), or until every request of the batch
 * that has not arrived yet is waiting for its slot at `pacer` (none can arrive while this one
 * is in flight; without a pacer: until the whole batch has arrived).
 * @example
 * const site = await startSite({ ...heldBatch(['/s1', '/s2'], { body: 'slow' }, pacer) });
 */
export function heldBatch(
  paths: readonly string[],
  answer: Answer,
  pacer?: WaitingPacer,
): Record<string, Route> {
  let arrived = 0;
  /** Each held answer's release, and its re-check of the queue. */
  const held = new Map<() => void, () => void>();
  const queuedElsewhere = (): boolean => arrived + (pacer?.waiting ?? 0) >= paths.length;
  pacer?.onChange(() => {
    for (const recheck of [...held.values()]) recheck();
  });
  const route = (): Answer => {
    arrived += 1;
    for (const release of [...held.keys()]) release();
    return {
      ...answer,
      hold: new Promise<void>((resolve) => {
        const release = (): void => {
          held.delete(release);
          resolve();
        };
        const recheck = (): void => {
          if (queuedElsewhere()) release();
        };
        held.set(release, recheck);
        recheck();
      }),
    };
  };
  return Object.fromEntries(paths.map((path) => [path, route]));
}
