const FLEET_UNAVAILABLE = Symbol.for('polite-crawler.redis.FleetUnavailableError');

/**
 * Redis could not be reached (or did not answer) for `unavailableTimeout` ms in total while a
 * request waited for its fleet-wide slot: politeness fails closed, so the request was not sent.
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
  /** How long this request waited for Redis, ms. */
  readonly waited: number;

  constructor(origin: string, waited: number, cause?: unknown) {
    super(
      `fleet unavailable: ${origin} (no answer from Redis within ${waited} ms; the request was not sent)`,
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
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 100));
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}

/**
 * Every error code this package throws or rejects with.
 * @example
 * ERROR_CODES.includes(error.code);
 */
export const ERROR_CODES = Object.freeze(['ERR_FLEET_UNAVAILABLE', 'ERR_FLEET_INVALID_OPTION']);
