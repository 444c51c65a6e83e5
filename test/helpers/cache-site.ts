/**
 * The site every HTTP-cache test crawls, whichever entry point it goes through (politeFetch,
 * the interceptor, the Crawlee HTTP client, the Playwright gate): a page fresh for an hour, a
 * page revalidated by `ETag`, one by `Last-Modified`, and a big page nobody may store (only the
 * deduplication of identical GETs in flight can spare a request for it). The server's record
 * (`hits`) is what the site owner saw.
 */
import { routes, send, startServer } from './recording-server.js';
import type { Answer, RecordingServer, ServerOptions } from './recording-server.js';

export const ALLOW_ALL = 'User-agent: *\nAllow: /\n';

/** `/fresh`: HTML fresh for an hour, with a header and a meta directive (read from the copy too). */
export const FRESH_HTML =
  '<html><head><meta name="robots" content="noindex"></head><body>fresh page</body></html>';
export const ETAG = '"v1"';
export const ETAG_BODY = 'version one';
export const LAST_MODIFIED = 'Mon, 02 Nov 2026 10:00:00 GMT';
/**
 * `/swr`: stale at once, and within its `stale-while-revalidate` window for a minute. HTML, so
 * that politeFetch's tap holds the response back while it reads the head (the cache's background
 * revalidation is queued before the caller sees the response start).
 */
export const SWR_BODY = '<html><head><title>swr</title></head><body>stale is fine</body></html>';
/** `/big`: `no-store`, big enough that five identical GETs sent at once overlap in flight. */
export const BIG_BODY = 'x'.repeat(300_000);

export interface CacheSiteOptions extends ServerOptions {
  /** robots.txt, read on each request for it (a test may change it). @default ALLOW_ALL */
  readonly robots?: () => string;
  /** Holds `/big`'s answer until this promise settles. */
  readonly holdBig?: () => Promise<unknown> | undefined;
}

/**
 * Starts the cache test site: `/robots.txt`, `/fresh` (`max-age=3600`), `/etag` (`no-cache`,
 * 304 to `If-None-Match: "v1"`), `/dated` (`no-cache`, 304 to its `If-Modified-Since`),
 * `/swr` (`max-age=0, stale-while-revalidate=60`, 304 to `If-None-Match: "v1"`), `/big`
 * (`no-store`), `/fail` (500), 404 otherwise.
 */
export function startCacheSite(options: CacheSiteOptions = {}): Promise<RecordingServer> {
  const robots = options.robots ?? (() => ALLOW_ALL);
  return startServer(
    routes({
      '/robots.txt': () => send(robots(), 'text/plain'),
      '/fresh': send(FRESH_HTML, 'text/html', {
        'cache-control': 'max-age=3600',
        'x-robots-tag': 'nosnippet',
      }),
      '/etag': (_req, _res, seen): Answer =>
        seen.headers['if-none-match'] === ETAG
          ? { status: 304, headers: { etag: ETAG, 'cache-control': 'no-cache' } }
          : send(ETAG_BODY, 'text/plain', {
              etag: ETAG,
              'cache-control': 'no-cache',
              'x-robots-tag': 'noindex',
            }),
      '/dated': (_req, _res, seen): Answer =>
        seen.headers['if-modified-since'] === LAST_MODIFIED
          ? { status: 304, headers: {} }
          : send('dated', 'text/plain', {
              'last-modified': LAST_MODIFIED,
              'cache-control': 'no-cache',
            }),
      '/swr': (_req, _res, seen): Answer =>
        seen.headers['if-none-match'] === ETAG
          ? { status: 304, headers: { etag: ETAG } }
          : send(SWR_BODY, 'text/html', {
              etag: ETAG,
              'cache-control': 'max-age=0, stale-while-revalidate=60',
            }),
      '/fail': { status: 500, headers: { 'content-type': 'text/plain' }, body: 'broken' },
      '/big': (): Answer => {
        const hold = options.holdBig?.();
        const answer = send(BIG_BODY, 'text/plain', { 'cache-control': 'no-store' });
        return hold === undefined ? answer : { ...answer, hold };
      },
    }),
    options,
  );
}
