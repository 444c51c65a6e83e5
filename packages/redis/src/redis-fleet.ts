import type { RobotsStore } from '@polite-crawler/fetch';
import type { FleetState } from './events.js';
import { isClusterClient } from './fleet-client.js';
import { FleetConnection, loadNodeRedis } from './fleet-connection.js';
import { fleetKeys } from './keys.js';
import { LeaseBook } from './lease-book.js';
import { resolveFleetOptions } from './options.js';
import type { RedisFleetOptions } from './options.js';
import { PacerCore, RedisPacer } from './redis-pacer.js';
import type { FleetPacer } from './redis-pacer.js';
import { RedisRobotsStore } from './redis-robots-store.js';

/**
 * What a policy takes from the fleet: the shared robots.txt store and a fleet pacer. Never
 * pacing settings or a dispatcher: those stay each process's own.
 * @example
 * createPoliteFetch({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)', ...fleet.policyOptions });
 */
export interface FleetPolicyOptions {
  readonly store: RobotsStore;
  readonly pacer: FleetPacer;
}

/**
 * A fleet of crawler processes sharing one Redis.
 * @example
 * const fleet = await createRedisFleet({ url: 'redis://127.0.0.1:6379' });
 */
export interface RedisFleet {
  /**
   * Spread into the policy options. Each read gives a new pacer (one per policy: closing a
   * policy gives back its own slots only) over the fleet's one connection and store.
   */
  readonly policyOptions: FleetPolicyOptions;
  /** The prefix of this fleet's keys and channel. */
  readonly keyPrefix: string;
  /** The shared robots.txt store (also in `policyOptions`). */
  readonly store: RobotsStore;
  /** `available` once Redis answers; `unavailable` while it does not. */
  readonly state: FleetState;
  /** Gives back every slot still held, rejects every waiter, closes the connections it opened. */
  close(): Promise<void>;
}

/** Longest wait at `close()` for the releases already sent to reach Redis. */
const CLOSE_GRACE = 2_000;

/** Longest wait of `createRedisFleet` for a first answer (it resolves either way). */
const FIRST_ANSWER_WAIT = 2_000;

/**
 * Connects a crawler process to its fleet. Resolves even when Redis is down (requests then
 * wait for it as in an outage, and `onEvent` reports `fleet-unavailable`); throws
 * `FleetInvalidOptionError` naming an invalid option.
 * @example
 * const fleet = await createRedisFleet({ url: 'redis://127.0.0.1:6379', keyPrefix: 'crawl-42:' });
 * const politeFetch = createPoliteFetch({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)', ...fleet.policyOptions });
 * // …
 * await politeFetch.close();
 * await fleet.close();
 */
export async function createRedisFleet(options: RedisFleetOptions = {}): Promise<RedisFleet> {
  const settings = resolveFleetOptions(options);
  // A Redis Cluster client: keys laid out so that every script touches one slot.
  const cluster = settings.client !== undefined && isClusterClient(settings.client);
  const keys = fleetKeys(settings.keyPrefix, cluster);
  const connection = new FleetConnection(
    await loadNodeRedis(),
    settings.url,
    settings.client,
    keys.channel,
    settings.onEvent,
    // How long a fire-and-forget command (release, renewal) is waited for.
    Math.min(settings.commandTimeout, CLOSE_GRACE),
  );
  const leases = new LeaseBook(connection, keys, settings.leaseTtl);
  const core = new PacerCore(connection, keys, leases, settings);
  const store = new RedisRobotsStore(connection, keys, leases, {
    commandTimeout: settings.commandTimeout,
    // A claim waits through Redis's silence as long as a page request would: no longer.
    claimTimeout: settings.unavailableTimeout,
    robotsRetention: settings.robotsRetention,
    robotsMaxBytes: settings.robotsMaxBytes,
    leaseTtl: settings.leaseTtl,
    wakeFallback: settings.wakeFallback,
    fleetId: core.fleetId,
  });
  const pacers = new Set<RedisPacer>();
  let closing: Promise<void> | undefined;
  await connection.settled(Math.min(FIRST_ANSWER_WAIT, Math.max(1, settings.unavailableTimeout)));
  return {
    get policyOptions(): FleetPolicyOptions {
      const pacer = new RedisPacer(core);
      pacers.add(pacer);
      return { store, pacer };
    },
    store,
    keyPrefix: settings.keyPrefix,
    get state(): FleetState {
      return connection.state;
    },
    close(): Promise<void> {
      closing ??= (async () => {
        const reason = new Error('the fleet was closed');
        await Promise.all([...pacers].map((pacer) => pacer.close(reason)));
        leases.close();
        await connection.close(Math.min(settings.commandTimeout, CLOSE_GRACE));
      })();
      return closing;
    },
  };
}
