import { interceptors } from 'undici';
import type { Dispatcher } from 'undici';
import { signInterceptor } from '../signature/sign-interceptor.js';
import type { RequestSigner } from '../signature/request-signer.js';
import { httpCacheInterceptors } from './http-cache.js';
import type { HttpCacheStore } from './http-cache.js';

/*
 * The one place the transport's dispatcher chain is composed. A request leaves through, from the
 * outside in:
 *
 *   response tap (per call)  ->  deduplicate  ->  cache  ->  signer  ->  the dispatcher given
 *
 * - the gate (robots.txt) and the pacer run before all of it (the redirect walker), so a URL
 *   robots.txt now disallows is refused even when a copy is cached;
 * - the tap is outside the cache, so it reads Robots-Tag and robots metas of the response the
 *   caller gets, from the network or from the store;
 * - the signer is innermost, so what leaves is signed as it leaves (each hop, each
 *   revalidation), and the signature's nonce keeps neither the cache key nor the deduplication
 *   key apart.
 * robots.txt requests take the signed dispatcher without the cache (robots.txt has a cache of
 * its own, with RFC 9309's rules).
 *
 * The adapters (Crawlee's HTTP client, Playwright's route handler) send through the same chain
 * when their `cache` is on, with undici's `decompress` outermost: what they hand their host is
 * the decoded body (the store keeps it as the server sent it).
 */

/**
 * The dispatcher of every request a policy sends (robots.txt and pages): `base`, signed when a
 * signer is given.
 * @example
 * const dispatcher = transportDispatcher(new Agent(), signer);
 */
export function transportDispatcher(
  base: Dispatcher,
  signer: RequestSigner | undefined,
): Dispatcher {
  return signer === undefined ? base : base.compose(signInterceptor(signer));
}

/**
 * The dispatcher of page requests: `transport` (a {@link transportDispatcher}) behind the HTTP
 * cache and the deduplication of identical GETs in flight, when caching is on.
 * @example
 * const pages = pageDispatcher(policy.dispatcher, store);
 */
export function pageDispatcher(transport: Dispatcher, store: HttpCacheStore | false): Dispatcher {
  return store === false ? transport : transport.compose(...httpCacheInterceptors(store));
}

/**
 * The dispatcher an adapter sends page hops through when its `cache` is on: the
 * {@link pageDispatcher} (signed, cached, identical GETs deduplicated) with undici's
 * `decompress` outside it, so that the body handed to Crawlee or the browser is decoded.
 * @example
 * const dispatcher = adapterDispatcher(policy.dispatcher, cacheOption(true));
 */
export function adapterDispatcher(
  transport: Dispatcher,
  store: HttpCacheStore | false,
): Dispatcher {
  return pageDispatcher(transport, store).compose(interceptors.decompress());
}
