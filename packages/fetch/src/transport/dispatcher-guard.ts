import type { Dispatcher } from 'undici';
import { RobotsInvalidOptionError } from '../errors/errors.js';

/** What the `dispatcher` option must be, as the refusal says it. */
export const DRIVABLE_DISPATCHER =
  "an undici Dispatcher that takes undici 8's handler API (undici 7 or 8; not undici 6, which Node 22 bundles)";

/**
 * Whether `value` is shaped like an undici dispatcher this package can compose its interceptors
 * onto (`dispatch` and `compose`). An `http.Agent` or a plain object is not.
 * @example
 * isDispatcherShaped(new Agent()); // true
 */
export function isDispatcherShaped(value: unknown): value is Dispatcher {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Dispatcher).dispatch === 'function' &&
    typeof (value as Dispatcher).compose === 'function'
  );
}

/**
 * `dispatcher` checked for use per call (`init.dispatcher`): refused with
 * {@link RobotsInvalidOptionError} naming `dispatcher` when it is not shaped like one.
 * @example
 * const dispatcher = dispatcherOption(init.dispatcher);
 */
export function dispatcherOption(value: unknown): Dispatcher {
  if (!isDispatcherShaped(value)) {
    throw new RobotsInvalidOptionError('dispatcher', value, DRIVABLE_DISPATCHER);
  }
  return value;
}

/**
 * An interceptor placed first on a caller's dispatcher: a dispatcher that *throws* when handed a
 * request refused it before sending anything (undici 6 checks the handler for its own callback
 * names, `onError` first, and throws; undici 7 and 8 report every failure to the handler). That
 * is turned into {@link RobotsInvalidOptionError} naming `dispatcher`, with the dispatcher's own
 * error as `cause`, instead of fetch's generic `TypeError: fetch failed`.
 * @example
 * const guarded = dispatcher.compose(refuseUndrivable(dispatcher));
 */
export function refuseUndrivable(dispatcher: Dispatcher): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    try {
      return dispatch(options, handler);
    } catch (error) {
      throw new RobotsInvalidOptionError('dispatcher', dispatcher, DRIVABLE_DISPATCHER, {
        cause: error,
      });
    }
  };
}

/**
 * The refusal behind a failed request, if {@link refuseUndrivable} made one: undici's fetch and
 * `request` hand it back as the `cause` of their own error.
 * @example
 * throw refusalIn(error) ?? error;
 */
export function refusalIn(error: unknown): RobotsInvalidOptionError | undefined {
  if (error instanceof RobotsInvalidOptionError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof RobotsInvalidOptionError ? cause : undefined;
}
