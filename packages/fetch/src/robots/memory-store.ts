import { LRUCache } from 'lru-cache';
import { RobotsInvalidOptionError } from '../errors/errors.js';
import { readOption } from '../options/option-spec.js';
import { POLICY_OPTIONS } from '../options/option-table.js';
import type { RobotsStore, StoredRobots } from './robots-store.js';

/**
 * Options of {@link createMemoryRobotsStore}.
 * @example
 * createMemoryRobotsStore({ maxOrigins: 50_000 } satisfies MemoryRobotsStoreOptions);
 */
export interface MemoryRobotsStoreOptions {
  /**
   * Origins kept (least recently used dropped first).
   * @default 10_000
   */
  readonly maxOrigins?: number;
}

/**
 * A bounded in-process {@link RobotsStore} that keeps entries as JSON text, as a shared store
 * would. Share it between policies that must share robots.txt results but not pacing.
 * @example
 * const store = createMemoryRobotsStore({ maxOrigins: 50_000 });
 * const policy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)', store });
 */
export function createMemoryRobotsStore(options: MemoryRobotsStoreOptions = {}): RobotsStore {
  if (typeof options !== 'object' || options === null) {
    throw new RobotsInvalidOptionError('options', options, 'an object');
  }
  // The policy's own maxOrigins limits: this store is what the policy keeps in memory.
  const max = readOption('maxOrigins', POLICY_OPTIONS.maxOrigins, options.maxOrigins ?? undefined);
  const entries = new LRUCache<string, string>({ max });
  return {
    get: (origin) => {
      const text = entries.get(origin);
      return Promise.resolve(text === undefined ? undefined : (JSON.parse(text) as StoredRobots));
    },
    set: (origin, entry) => {
      entries.set(origin, JSON.stringify(entry));
      return Promise.resolve();
    },
    delete: (origin) => {
      entries.delete(origin);
      return Promise.resolve();
    },
  };
}
