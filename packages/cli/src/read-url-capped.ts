import { readCapped } from '@polite-crawler/fetch/internal';
import { CliError } from './cli-error.js';
import { describeNetworkError } from './network-error.js';

/** What {@link readUrlCapped} read. */
export interface UrlInput {
  readonly kind: 'url';
  /** The URL as requested. */
  readonly url: string;
  /** The URL the body came from, after redirects. */
  readonly finalUrl: string;
  /** Every redirect target, in order. */
  readonly redirects: readonly string[];
  /** HTTP status of the final response. */
  readonly status: number;
  readonly contentType: string | undefined;
  /** The body read: at most `maxBytes + 1` decoded bytes, so that a cut can be detected. */
  readonly bytes: Uint8Array;
}

/** Options of {@link readUrlCapped}. */
export interface ReadUrlCappedOptions {
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly timeoutMs: number;
  readonly userAgent: string;
  /** Names the input in error messages, e.g. `robots.txt`. */
  readonly what: string;
}

/**
 * GETs `url` with Node's `fetch`, following up to `maxRedirects` redirects itself and
 * reading the (decompressed) body only up to `maxBytes + 1` bytes. Network failures,
 * timeouts and redirect loops become one {@link CliError} (exit code 4); any HTTP status is
 * returned for the caller to judge.
 *
 * @example
 * ```ts
 * const page = await readUrlCapped(new URL('http://127.0.0.1:8080/robots.txt'), {
 *   maxBytes: 512_000, maxRedirects: 5, timeoutMs: 10_000, userAgent: 'polite-cli', what: 'robots.txt',
 * });
 * ```
 */
export async function readUrlCapped(url: URL, options: ReadUrlCappedOptions): Promise<UrlInput> {
  const what = `cannot fetch ${options.what} ${url.href}`;
  const signal = AbortSignal.timeout(options.timeoutMs);
  const redirects: string[] = [];
  let current = url;
  for (;;) {
    let response: Response;
    try {
      response = await fetch(current, {
        redirect: 'manual',
        signal,
        headers: { 'user-agent': options.userAgent, accept: 'text/plain, */*;q=0.5' },
      });
    } catch (error) {
      throw CliError.input(what, describeNetworkError(error, options.timeoutMs), error);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel().catch(() => undefined);
      if (redirects.length >= options.maxRedirects) {
        throw CliError.input(what, `more than ${options.maxRedirects} redirects`);
      }
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw CliError.input(what, `redirect to an invalid URL (${location})`);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw CliError.input(what, `redirect to a non-HTTP URL (${next.href})`);
      }
      redirects.push(next.href);
      current = next;
      continue;
    }
    try {
      const { bytes } = await readCapped(response.body, options.maxBytes + 1);
      return {
        kind: 'url',
        url: url.href,
        finalUrl: current.href,
        redirects,
        status: response.status,
        contentType: response.headers.get('content-type') ?? undefined,
        bytes,
      };
    } catch (error) {
      throw CliError.input(what, describeNetworkError(error, options.timeoutMs), error);
    }
  }
}
