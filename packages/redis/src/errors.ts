const FLEET_UNAVAILABLE = Symbol.for('polite-crawler.redis.FleetUnavailableError');

/**
 * Redis could not be reached, or answered nothing at all, for `unavailableTimeout` ms while a
 * request waited for its fleet-wide slot (a slow Redis that keeps answering never causes it): politeness fails closed, so the request was not sent.
 * @example
 * try { await politeFetch(url); } catch (error) {
 *   if (isFleetUnavailableError(error)) retryLater(url);
 * }
 */
export class FleetUnavailableError extends Error {
  override readonly name = 'FleetUnavailableError';
  readonly code = 'ERR_FLEET_UNAVAILABLE';
  /** The origin whose slot was asked for. */
  readonly origin: string;
  /** How long Redis had been silent when the request gave up, ms. */
  readonly waited: number;

  constructor(origin: string, waited: number, cause?: unknown) {
    super(
      `fleet unavailable: ${origin} (no answer from Redis for ${waited} ms; the request was not sent)`,
      cause === undefined ? undefined : { cause },
    );
    this.origin = origin;
    this.waited = waited;
    Object.defineProperty(this, FLEET_UNAVAILABLE, { value: true });
  }
}

/**
 * Whether `error` is a {@link FleetUnavailableError}, also across duplicate installs.
 * @example
 * if (isFleetUnavailableError(error)) console.log(error.code); // 'ERR_FLEET_UNAVAILABLE'
 */
export function isFleetUnavailableError(error: unknown): error is FleetUnavailableError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[FLEET_UNAVAILABLE] === true
  );
}

/**
 * A fleet option is invalid (thrown by `createRedisFleet`, naming the option).
 * @example
 * try { await createRedisFleet({ leaseTtl: 0 }); } catch (error) { console.log(error.option); }
 */
export class FleetInvalidOptionError extends TypeError {
  override readonly name = 'FleetInvalidOptionError';
  readonly code = 'ERR_FLEET_INVALID_OPTION';
  readonly option: string;

  constructor(option: string, value: unknown, expected: string) {
    super(`invalid fleet option: ${option} (${describe(value)}; expected ${expected})`);
    this.option = option;
  }
}

function describe(value: unknown): string {
  // A URL's credentials never reach a message (it is logged, reported, shown).
  if (typeof value === 'string')
    return JSON.stringify(value.replace(/\/\/[^/@\s]*@/, '//<credentials>@').slice(0, 100));
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}

const FLEET_REDIS = Symbol.for('polite-crawler.redis.FleetRedisError');

/**
 * Redis answered a fleet command with an error (out of memory, a command refused by an ACL, a
 * key the fleet cannot repair…): politeness fails closed, the request was not sent. The
 * message names the error's class only (`redisCode`, e.g. `OOM`, `NOPERM`), never Redis's or a
 * script's own text.
 * @example
 * if (error.code === 'ERR_FLEET_REDIS') console.warn(error.redisCode);
 */
export class FleetRedisError extends Error {
  override readonly name = 'FleetRedisError';
  readonly code = 'ERR_FLEET_REDIS';
  /** The first word of Redis's error reply (`OOM`, `WRONGTYPE`, `NOPERM`, `ERR`…), or `CONNECTION`. */
  readonly redisCode: string;

  constructor(redisCode: string) {
    super(`fleet command refused by Redis (${redisCode}); the request was not sent`);
    this.redisCode = redisCode;
    Object.defineProperty(this, FLEET_REDIS, { value: true });
  }

  /** Wraps what a node-redis call rejected with, keeping only its class. */
  static from(error: unknown): FleetRedisError {
    if (error instanceof FleetRedisError) return error;
    const message = error instanceof Error ? error.message : '';
    const word = /^([A-Z][A-Z_]{1,30})\b/.exec(message)?.[1];
    return new FleetRedisError(word ?? 'CONNECTION');
  }
}

/**
 * Whether `error` is a {@link FleetRedisError}, also across duplicate installs.
 * @example
 * if (isFleetRedisError(error)) console.log(error.redisCode);
 */
export function isFleetRedisError(error: unknown): error is FleetRedisError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[FLEET_REDIS] === true
  );
}

const FLEET_ENTRY_TOO_LARGE = Symbol.for('polite-crawler.redis.FleetEntryTooLargeError');

/**
 * A robots.txt entry too large to share through Redis: its body is over the fleet's
 * `robotsMaxBytes` (plus the one byte read past it), or its metadata over 64 KiB. The store's
 * `set` rejects with it and sends nothing; the policy counts that as a store failure and keeps
 * the entry in its own process only. An oversized entry found in Redis is never read (its
 * bytes never leave Redis): `get` reports it missing, and the next fetch replaces it.
 * @example
 * if (error.code === 'ERR_FLEET_ENTRY_TOO_LARGE') console.warn(error.part, error.bytes, error.limit);
 */
export class FleetEntryTooLargeError extends RangeError {
  override readonly name = 'FleetEntryTooLargeError';
  readonly code = 'ERR_FLEET_ENTRY_TOO_LARGE';
  readonly origin: string;
  /** Which part is over its limit. */
  readonly part: 'body' | 'metadata';
  readonly bytes: number;
  readonly limit: number;

  constructor(origin: string, part: 'body' | 'metadata', bytes: number, limit: number) {
    super(
      `robots.txt entry of ${origin} not stored: its ${part} is ${bytes} bytes (limit ${limit})`,
    );
    this.origin = origin;
    this.part = part;
    this.bytes = bytes;
    this.limit = limit;
    Object.defineProperty(this, FLEET_ENTRY_TOO_LARGE, { value: true });
  }
}

/**
 * Whether `error` is a {@link FleetEntryTooLargeError}, also across duplicate installs.
 * @example
 * if (isFleetEntryTooLargeError(error)) console.log(error.limit);
 */
export function isFleetEntryTooLargeError(error: unknown): error is FleetEntryTooLargeError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[FLEET_ENTRY_TOO_LARGE] === true
  );
}

/**
 * Every error code this package throws or rejects with.
 * @example
 * ERROR_CODES.includes(error.code);
 */
export const ERROR_CODES = Object.freeze([
  'ERR_FLEET_UNAVAILABLE',
  'ERR_FLEET_INVALID_OPTION',
  'ERR_FLEET_REDIS',
  'ERR_FLEET_ENTRY_TOO_LARGE',
]);
