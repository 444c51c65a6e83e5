import type { Dispatcher } from 'undici';

/*
 * Whether a request got past the HTTP cache to the network. A fresh copy served by undici's
 * cache, or a deduplicated follower of an identical GET, is no response of the origin's: it must
 * not ease a back-off (a "success" the server never gave) nor count as a response time. The
 * caller's mark rides in the dispatch options under a symbol (undici's interceptors pass options
 * on, a revalidation spreads them), and the interceptor just inside the cache sets it.
 */

const MARK: unique symbol = Symbol('polite-crawler.network-mark');

/** Set once a request is dispatched past the cache (a miss or a revalidation). */
export interface NetworkMark {
  sent: boolean;
}

type MarkedOptions = Dispatcher.DispatchOptions & { [MARK]?: NetworkMark };

/**
 * Carries `mark` with each request dispatched through it: compose it outside the cache, per call.
 * @example
 * const mark: NetworkMark = { sent: false };
 * await request(url, { dispatcher: pages.compose(carryMark(mark)) }); // mark.sent: false if cached
 */
export function carryMark(mark: NetworkMark): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) =>
    dispatch({ ...opts, [MARK]: mark } as MarkedOptions, handler);
}

/**
 * Sets the mark a request carries: composed just inside the cache, where what passes goes to the
 * network.
 * @example
 * transport.compose(markSent(), interceptors.cache({ store }));
 */
export function markSent(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const mark = (opts as MarkedOptions)[MARK];
    if (mark !== undefined) mark.sent = true;
    return dispatch(opts, handler);
  };
}
