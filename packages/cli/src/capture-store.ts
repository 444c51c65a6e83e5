import type { RobotsStore, StoredRobots } from '@polite-crawler/fetch';
import { sourceLines } from './source-lines.js';

/**
 * A {@link RobotsStore} that keeps every origin the CLI touched in a Map, so that a command
 * can read back the robots.txt body the policy fetched (to quote the deciding line). One
 * CLI run touches a bounded number of origins (its arguments, or one crawled site), and
 * `maxOrigins` bounds it anyway: the oldest entry goes first.
 *
 * @example
 * ```ts
 * const store = createCaptureStore(1000);
 * const policy = createRobotsPolicy({ userAgent, store });
 * ```
 */
export function createCaptureStore(maxOrigins: number): RobotsStore & {
  /** The entry of `origin`, synchronously. */
  peek(origin: string): StoredRobots | undefined;
  /** The trimmed text of a line of the last good robots.txt of `origin`, or null. */
  lineText(origin: string, line: number): string | null;
  /**
   * Copies the entry of `origin` from `source` (a fleet's shared store, which the policy used
   * instead), so that `lineText` can quote it; a failed read leaves nothing copied.
   */
  copyFrom(source: RobotsStore, origin: string): Promise<void>;
} {
  const lines = new Map<string, { body: string; lines: ReturnType<typeof sourceLines> }>();
  const entries = new Map<string, StoredRobots>();
  const capture = {
    get: (origin: string) => Promise.resolve(entries.get(origin)),
    set: (origin: string, entry: StoredRobots) => {
      entries.delete(origin);
      entries.set(origin, entry);
      if (entries.size > maxOrigins) {
        const oldest = entries.keys().next();
        if (oldest.done !== true) {
          entries.delete(oldest.value);
          lines.delete(oldest.value);
        }
      }
      return Promise.resolve();
    },
    delete: (origin: string) => {
      entries.delete(origin);
      lines.delete(origin);
      return Promise.resolve();
    },
    peek: (origin: string) => entries.get(origin),
    async copyFrom(source: RobotsStore, origin: string) {
      const entry = await source.get(origin).catch(() => undefined);
      if (entry !== undefined) await capture.set(origin, entry);
    },
    lineText(origin: string, line: number) {
      const body = entries.get(origin)?.good?.body;
      if (body === undefined) return null;
      let cached = lines.get(origin);
      if (cached?.body !== body) {
        cached = { body, lines: sourceLines(Buffer.from(body, 'base64')) };
        lines.set(origin, cached);
      }
      return cached.lines.line(line)?.trim() ?? null;
    },
  };
  return capture;
}
