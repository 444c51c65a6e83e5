import { FleetInvalidOptionError } from './errors.js';
import type { FleetEvent } from './events.js';
import type { FleetClient } from './fleet-client.js';

/**
 * Options of `createRedisFleet`.
 * @example
 * const fleet = await createRedisFleet({ url: 'redis://127.0.0.1:6379', leaseTtl: 30_000 } satisfies RedisFleetOptions);
 */
export interface RedisFleetOptions {
  /**
   * Redis to connect to; credentials and TLS (`rediss://`) as node-redis takes them in the URL.
   * Ignored when `client` is given.
   * @default 'redis://127.0.0.1:6379'
   */
  readonly url?: string;
  /**
   * A node-redis client the caller owns and has connected: `createClient(...).connect()`, or
   * for a Redis Cluster `createCluster(...).connect()` (each script then touches one slot). The
   * fleet runs its commands on it, opens one more connection for pub/sub (`duplicate()`), and
   * never closes it.
   * @default undefined (the fleet creates and owns a client for `url`)
   */
  readonly client?: FleetClient;
  /**
   * Prefix of every key and channel: lets several crawls share one Redis. No `{` or `}`.
   * @default 'polite:'
   */
  readonly keyPrefix?: string;
  /**
   * A slot held by a process that died is freed after this many ms; live holders renew theirs
   * every `leaseTtl / 3`. Also the life of a robots.txt fetch claim and of a queued request
   * that stopped asking.
   * @default 30_000
   */
  readonly leaseTtl?: number;
  /**
   * Longest time Redis may stay silent — not connected, or answering none of this process's
   * commands — while a request waits on it; then the request rejects with
   * `ERR_FLEET_UNAVAILABLE`. Counted from the later of the request's first call and Redis's
   * last answer: a slow Redis that keeps answering never trips it, however long the queue.
   * At least 100 ms (0 would fail every request before Redis could answer).
   * @default 30_000
   */
  readonly unavailableTimeout?: number;
  /**
   * Longest wait for one robots.txt store command from a connected Redis; a slower one counts
   * as a store failure (the process then fetches and caches robots.txt itself). The policy's
   * `storeTimeout` bounds each call too; whichever is shorter applies.
   * @default 30_000
   */
  readonly commandTimeout?: number;
  /**
   * How long a stored robots.txt entry is kept in Redis after it was written, ms (the entry
   * itself says when it expires; the key outlives that to allow revalidation and
   * stale-if-unreachable).
   * @default 2_592_000_000 (30 days)
   */
  readonly robotsRetention?: number;
  /**
   * Most bytes of a robots.txt body shared through Redis (plus the one byte the fetch reads past
   * its limit): set it to the policy's `robotsMaxBytes` when that is raised. A larger entry is
   * not stored (`ERR_FLEET_ENTRY_TOO_LARGE`, kept in its process only), and one found in Redis
   * (a foreign or tampered value) is never read: it counts as missing and is fetched again.
   * @default 512_000
   */
  readonly robotsMaxBytes?: number;
  /**
   * Waiters are woken by pub/sub; this is the bound on a wait when a notification is lost
   * (also how often a queued request renews its place), ms. At most `leaseTtl / 3` is used.
   * @default 1_000
   */
  readonly wakeFallback?: number;
  /**
   * Fleet state changes: `fleet-unavailable` when Redis stops answering, `fleet-available`
   * when it answers (again).
   * @default undefined
   */
  readonly onEvent?: (event: FleetEvent) => void;
}

/** Every default, used by the code and the README. */
export const FLEET_DEFAULTS = Object.freeze({
  url: 'redis://127.0.0.1:6379',
  keyPrefix: 'polite:',
  leaseTtl: 30_000,
  unavailableTimeout: 30_000,
  commandTimeout: 30_000,
  robotsRetention: 2_592_000_000,
  robotsMaxBytes: 512_000,
  wakeFallback: 1_000,
});

/** Inclusive bounds of each numeric option. */
export const FLEET_OPTION_BOUNDS = Object.freeze({
  leaseTtl: [100, 3_600_000],
  unavailableTimeout: [100, 3_600_000],
  commandTimeout: [1, 60_000],
  robotsRetention: [60_000, 31_536_000_000],
  // The policy's own bounds for its robotsMaxBytes.
  robotsMaxBytes: [512_000, 64 * 1024 * 1024],
  wakeFallback: [10, 60_000],
} as const);

export interface ResolvedFleetOptions {
  readonly url: string;
  readonly client: FleetClient | undefined;
  readonly keyPrefix: string;
  readonly leaseTtl: number;
  readonly unavailableTimeout: number;
  readonly commandTimeout: number;
  readonly robotsRetention: number;
  readonly robotsMaxBytes: number;
  readonly wakeFallback: number;
  readonly onEvent: ((event: FleetEvent) => void) | undefined;
}

function integer(options: RedisFleetOptions, name: keyof typeof FLEET_OPTION_BOUNDS): number {
  const value: unknown = options[name] ?? FLEET_DEFAULTS[name];
  const [min, max] = FLEET_OPTION_BOUNDS[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new FleetInvalidOptionError(name, value, `an integer from ${min} to ${max}`);
  }
  return value;
}

/** Validates once, at construction; names the first invalid option. */
export function resolveFleetOptions(options: RedisFleetOptions): ResolvedFleetOptions {
  if (typeof options !== 'object' || options === null) {
    throw new FleetInvalidOptionError('options', options, 'an object');
  }
  const url: unknown = options.url ?? FLEET_DEFAULTS.url;
  if (typeof url !== 'string' || !/^rediss?:\/\//i.test(url)) {
    throw new FleetInvalidOptionError('url', url, 'a redis:// or rediss:// URL');
  }
  const client: unknown = options.client;
  if (
    client !== undefined &&
    (typeof client !== 'object' ||
      client === null ||
      typeof (client as FleetClient).sendCommand !== 'function' ||
      typeof (client as FleetClient).duplicate !== 'function')
  ) {
    throw new FleetInvalidOptionError('client', client, 'a node-redis client or cluster client');
  }
  const keyPrefix: unknown = options.keyPrefix ?? FLEET_DEFAULTS.keyPrefix;
  if (typeof keyPrefix !== 'string' || keyPrefix.length > 256 || /[{}\s]/.test(keyPrefix)) {
    throw new FleetInvalidOptionError(
      'keyPrefix',
      keyPrefix,
      'a string of at most 256 characters without braces or spaces',
    );
  }
  const onEvent: unknown = options.onEvent;
  if (onEvent !== undefined && typeof onEvent !== 'function') {
    throw new FleetInvalidOptionError('onEvent', onEvent, 'a function');
  }
  const leaseTtl = integer(options, 'leaseTtl');
  return {
    url,
    client: client as FleetClient | undefined,
    keyPrefix,
    leaseTtl,
    unavailableTimeout: integer(options, 'unavailableTimeout'),
    commandTimeout: integer(options, 'commandTimeout'),
    robotsRetention: integer(options, 'robotsRetention'),
    robotsMaxBytes: integer(options, 'robotsMaxBytes'),
    wakeFallback: Math.min(integer(options, 'wakeFallback'), Math.floor(leaseTtl / 3)),
    onEvent: onEvent as ((event: FleetEvent) => void) | undefined,
  };
}
