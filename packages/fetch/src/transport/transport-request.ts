import { request } from 'undici';
import type { Dispatcher } from 'undici';
import { carryMark } from './network-mark.js';
import type { NetworkMark } from './network-mark.js';

/**
 * One hop an adapter sends through the policy's transport (no redirect followed: the redirect
 * walker decides each hop).
 * @example
 * const hop: TransportHop = { method: 'GET', headers: { 'user-agent': policy.userAgent } };
 */
export interface TransportHop {
  readonly method: string;
  readonly headers: Record<string, string | string[]>;
  readonly body?: string | Buffer | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Set when the hop got past the HTTP cache to the network (see `NetworkMark`). */
  readonly mark?: NetworkMark | undefined;
}

/**
 * Sends `hop` to `url` with undici's `request` through `dispatcher` (an {@link adapterDispatcher}):
 * resolves once the response headers are in, the body left to read (or dump).
 * @example
 * const { statusCode, headers, body } = await requestThrough(dispatcher, url, hop);
 */
export function requestThrough(
  dispatcher: Dispatcher,
  url: URL,
  hop: TransportHop,
): Promise<Dispatcher.ResponseData> {
  return request(url, {
    dispatcher: hop.mark === undefined ? dispatcher : dispatcher.compose(carryMark(hop.mark)),
    method: hop.method.toUpperCase(),
    headers: hop.headers,
    body: hop.body ?? null,
    ...(hop.signal === undefined ? {} : { signal: hop.signal }),
  });
}
