import type { Dispatcher } from 'undici';

/*
 * Whether a request got past the HTTP cache to the network. A fresh copy served by undici's
 * cache, or a deduplicated follower of an identical GET, is no response of the origin's: it must
 * not ease a back-off (a "success" the server never gave) nor count as a response time. The
 * caller's mark rides in the dispatch options under a symbol (undici's interceptors pass options
 * on, a revalidation spreads them), and the interceptor just inside the cache sets it.
 *
 * The same ride stops what the cache would send once it has answered the request: for a copy
 * within its `stale-while-revalidate` window, undici's cache serves the stale copy and then
 * revalidates it in the background. That request belongs to no hop: its slot may be released
 * already (a second request to the origin at once, unpaced), and its answer would be noted
 * nowhere (a 503 or a Retry-After unheeded). It is not sent; the copy is revalidated by the
 * first request after the window, which goes through the gate and the pacer as every hop does.
 */

const MARK: unique symbol = Symbol('polite-crawler.network-mark');

/** Set once a request is dispatched past the cache (a miss or a revalidation). */
export interface NetworkMark {
  sent: boolean;
}

/**
 * What one dispatch carries past the cache: whether the cache has started a response for it
 * (from the store or the network), and the caller's mark, if it keeps one (the interceptor's slot
 * handler, just outside a cache composed inside it, carries itself, with no mark).
 */
export interface Carried {
  answered: boolean;
  readonly mark?: NetworkMark | undefined;
}

type MarkedOptions = Dispatcher.DispatchOptions & { [MARK]?: Carried };

/**
 * `opts`, a copy of the caller's options made for this dispatch, carrying `carried` past the
 * cache (set on it: no second copy).
 * @example
 * dispatch(carrying({ ...opts, headers }, slotHandler), slotHandler);
 */
export function carrying<O extends Dispatcher.DispatchOptions>(opts: O, carried: Carried): O {
  (opts as MarkedOptions)[MARK] = carried;
  return opts;
}

/**
 * Carries `mark` with each request dispatched through it: compose it outside the cache, per call.
 * @example
 * const mark: NetworkMark = { sent: false };
 * await request(url, { dispatcher: pages.compose(carryMark(mark)) }); // mark.sent: false if cached
 */
export function carryMark(mark: NetworkMark): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) =>
    dispatch(carrying({ ...opts }, { mark, answered: false }), handler);
}

/**
 * Notes in what a request carries when the cache starts its response: composed just outside the
 * cache, so that nothing between (politeFetch's tap holds an HTML response back while it reads
 * the head) delays the note past the cache's background revalidation, which it queues at once.
 * @example
 * transport.compose(markSent(), interceptors.cache({ store }), noteAnswered());
 */
export function noteAnswered(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const carried = (opts as MarkedOptions)[MARK];
    return dispatch(opts, carried === undefined ? handler : new Answering(handler, carried));
  };
}

type Controller = Dispatcher.DispatchController;
type HeaderObject = Record<string, string | string[] | undefined>;

/** A request's handler, noting in what it carries when its response starts. */
class Answering implements Dispatcher.DispatchHandler {
  readonly #handler: Dispatcher.DispatchHandler;
  readonly #carried: Carried;

  constructor(handler: Dispatcher.DispatchHandler, carried: Carried) {
    this.#handler = handler;
    this.#carried = carried;
  }

  onRequestStart(controller: Controller, context: unknown): void {
    this.#handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    ...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>
  ): void {
    this.#handler.onRequestUpgrade?.(...args);
  }

  onResponseStart(
    controller: Controller,
    statusCode: number,
    headers: HeaderObject,
    statusMessage?: string,
  ): void {
    this.#carried.answered = true;
    this.#handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    this.#handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: HeaderObject): void {
    this.#handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Controller, error: Error): void {
    this.#handler.onResponseError?.(controller, error);
  }
}

/**
 * Sets the mark a request carries, and refuses a request the cache sends after it has started
 * that request's response (a background revalidation, see above): composed just inside the
 * cache, where what passes goes to the network.
 * @example
 * transport.compose(markSent(), interceptors.cache({ store }));
 */
export function markSent(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const carried = (opts as MarkedOptions)[MARK];
    if (carried === undefined) return dispatch(opts, handler);
    if (carried.answered) {
      handler.onResponseError?.(
        refusedController,
        new Error('not sent: a background revalidation has no pacing slot'),
      );
      return true;
    }
    if (carried.mark !== undefined) carried.mark.sent = true;
    return dispatch(opts, handler);
  };
}

/** The controller of a request refused before it was sent: aborted, nothing to pause. */
const refusedController: Dispatcher.DispatchController = {
  aborted: true,
  paused: false,
  reason: null,
  abort: () => {},
  pause: () => {},
  resume: () => {},
};
