/**
 * The set-up every Redis test file shares: one redis-server for the file, a fresh key prefix per
 * fleet (so that tests never see each other's keys), and after each test the fleets closed, the
 * worker processes ended, the site closed and the server running and answering again (a test may
 * have paused or killed it).
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createRedisFleet } from '@polite-crawler/redis';
import type { RedisFleet } from '@polite-crawler/redis';
import { TestRedis } from './redis-server.js';
import { Site } from './site.js';
import type { Route } from './site.js';
import { startWorker } from './workers.js';
import type { Worker, WorkerLine } from './workers.js';

type FleetOptions = NonNullable<Parameters<typeof createRedisFleet>[0]>;

export interface RedisRig {
  /** The file's redis-server (started before its first test). */
  readonly redis: TestRedis;
  /** Starts the test's loopback site ({@link Site.start}), closed after the test. */
  startSite(count: number, route: Route): Promise<Site>;
  /** A fresh key prefix (`<letter><n>:`). */
  newPrefix(): string;
  /** The newest key prefix handed out (the last fleet's). */
  readonly prefix: string;
  /** `count` in-process fleets on one fresh key prefix (after `defaults`, then `options`). */
  fleets(
    count: number,
    options?: FleetOptions,
  ): Promise<{ keyPrefix: string; fleets: RedisFleet[] }>;
  /** One in-process fleet on a fresh key prefix. */
  fleet(options?: FleetOptions): Promise<RedisFleet>;
  /**
   * `count` worker processes crawling `urls` on one fresh key prefix (a `keyPrefix` in `config`
   * wins: to join an earlier fleet), each with `config` and then `each(i)`.
   */
  workers(
    count: number,
    urls: readonly string[],
    config?: Record<string, unknown>,
    each?: (i: number, keyPrefix: string) => Record<string, unknown>,
  ): Worker[];
}

/**
 * Registers the file's hooks and returns its rig. `defaults` go to every in-process fleet;
 * `afterEachTest` runs after the common clean-up (e.g. to undo a server setting).
 * @example
 * const rig = useRedisRig('p');
 * const [a, b] = (await rig.fleets(2)).fleets;
 */
export function useRedisRig(
  letter: string,
  settings: {
    defaults?: FleetOptions;
    afterEachTest?: (redis: TestRedis) => Promise<void>;
  } = {},
): RedisRig {
  let redis: TestRedis | undefined;
  let site: Site | undefined;
  let prefixes = 0;
  const open: RedisFleet[] = [];
  const running: Worker[] = [];
  const rig: RedisRig = {
    get redis(): TestRedis {
      if (redis === undefined) throw new Error('the redis-server starts before the first test');
      return redis;
    },
    async startSite(count, route) {
      site = await Site.start(count, route);
      return site;
    },
    newPrefix: () => `${letter}${++prefixes}:`,
    get prefix(): string {
      return `${letter}${prefixes}:`;
    },
    async fleets(count, options = {}) {
      const keyPrefix = rig.newPrefix();
      const made: RedisFleet[] = [];
      for (let i = 0; i < count; i += 1) {
        const fleet = await createRedisFleet({
          url: rig.redis.url,
          keyPrefix,
          ...settings.defaults,
          ...options,
        });
        open.push(fleet);
        made.push(fleet);
      }
      return { keyPrefix, fleets: made };
    },
    async fleet(options = {}) {
      return (await rig.fleets(1, options)).fleets[0]!;
    },
    workers(count, urls, config = {}, each = () => ({})) {
      const keyPrefix = rig.newPrefix();
      const made: Worker[] = [];
      for (let i = 0; i < count; i += 1) {
        const worker = startWorker({
          redisUrl: rig.redis.url,
          keyPrefix,
          urls,
          ...config,
          ...each(i, keyPrefix),
        });
        running.push(worker);
        made.push(worker);
      }
      return made;
    },
  };
  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((fleet) => fleet.close()));
    await endWorkers(running);
    await site?.close();
    site = undefined;
    const server = rig.redis;
    server.resume();
    if (!server.running) await server.restart();
    await settings.afterEachTest?.(server);
  });
  return rig;
}

/** Ends the worker processes still running in `workers` (SIGKILL) and empties the list. */
export async function endWorkers(workers: Worker[]): Promise<void> {
  for (const worker of workers.splice(0)) {
    if (worker.child.exitCode === null && worker.child.signalCode === null)
      worker.child.kill('SIGKILL');
    await worker.exited;
  }
}

/** Waits for every worker of `fleet` to exit, each with code 0 (its stderr as the message). */
export async function finished(fleet: readonly Worker[]): Promise<void> {
  for (const worker of fleet) {
    const { code, stderr } = await worker.exited;
    expect(code, stderr).toBe(0);
  }
}

/** The outcome lines (one per URL) the workers of `fleet` reported. */
export function outcomes(fleet: readonly Worker[]): WorkerLine[] {
  return fleet.flatMap((worker) => worker.lines.filter((line) => line.url !== undefined));
}
