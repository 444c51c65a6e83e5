import { DEFAULTS } from '@polite-crawler/fetch';

/**
 * Every limit the CLI applies, with its default. Options that override one say so in
 * their help text.
 *
 * @example
 * ```ts
 * import { CLI_DEFAULTS } from '@polite-crawler/cli';
 * console.log(CLI_DEFAULTS.maxRobotsBytes); // 512000
 * ```
 */
export const CLI_DEFAULTS = Object.freeze({
  /**
   * Bytes of a robots.txt file that are read and parsed; the rest is ignored and reported
   * (RFC 9309 §2.5 asks for at least 500 KiB). Files are never read past this. The policy's
   * own limit (`robotsMaxBytes`), so that a file and a fetched robots.txt are cut alike.
   */
  maxRobotsBytes: DEFAULTS.robotsMaxBytes,
  /** Bytes looked at to decide whether a file is binary (it is when it holds a NUL byte). */
  binarySniffBytes: 8_192,
  /** Time allowed to fetch one robots.txt, redirects included (`--timeout` overrides it). */
  requestTimeoutMs: 10_000,
  /** Highest value `--timeout` accepts, ms. */
  requestTimeoutLimitMs: 600_000,
  /** URLs `check` looks up at once when it fetches robots.txt through the policy. */
  checkConcurrency: 16,
  /** Origins whose robots.txt one run keeps (check, explain, fetch, crawl): the policy's `maxOrigins`. */
  maxOrigins: DEFAULTS.maxOrigins,
  /**
   * Redirects followed when the CLI reads a robots.txt URL itself (RFC 9309 §2.3.1.2): the
   * policy's `robotsMaxRedirects`.
   */
  maxRedirects: DEFAULTS.robotsMaxRedirects,
  /** Bytes of an HTML page read to find links while crawling; the rest is not parsed. */
  maxHtmlBytes: 1_048_576,
  /** Links taken from one page while crawling. */
  maxLinksPerPage: 1_000,
  /** Links not followed that a crawl report lists one by one; more are only counted. */
  maxSkippedListed: 10_000,
  /**
   * Time a request of `fetch` and `crawl` may take from being sent to its last byte, ms (the
   * wait for its origin's pacing slot comes before; `--page-timeout` overrides it).
   */
  pageTimeoutMs: 30_000,
  /** Body bytes `fetch` reads to report a page's size; the rest is not read. */
  maxBodyBytes: 10_485_760,
  /** Pages requested by `crawl` unless `--max-pages` says otherwise. */
  maxPages: 50,
  /** Highest value `--max-pages` accepts. */
  maxPagesLimit: 100_000,
  /** Requests in flight at once during `crawl` (across origins) unless `--concurrency` says. */
  concurrency: 4,
  /** Highest value `--concurrency` accepts. */
  concurrencyLimit: 64,
  /** Minimum spacing between two demo requests to one origin, ms. */
  demoMinIntervalMs: 100,
  /** The demo honours its site's crawl-delay but waits at most this long between requests. */
  demoCrawlDelayCapMs: 250,
} as const);
