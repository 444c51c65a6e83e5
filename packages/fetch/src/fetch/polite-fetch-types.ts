import type { RequestInit as UndiciRequestInit } from 'undici';
import type { RobotsDirectives } from '@polite-crawler/robots-tag';
import type { UsagePreferences } from '@polite-crawler/robots-txt';
import type { RobotsPolicy } from '../policy/robots-policy.js';

/**
 * A fetch Response plus the robots directives that apply to this crawler. The object is the
 * Response undici's fetch made; its type is the *global* `Response` (Node's, which is undici's),
 * so that `const response: Response = await politeFetch(url)` compiles in a consumer whatever
 * copy of undici's types it has.
 * @example
 * const response: PoliteResponse = await politeFetch(url); if (response.robots.noindex) skip();
 */
export interface PoliteResponse extends globalThis.Response {
  /** Robots-Tag / X-Robots-Tag header rules and `<head>` robots metas, for this crawler. */
  readonly robots: RobotsDirectives;
  /**
   * What the site says this content may be used for (IETF AIPREF): robots.txt's
   * `Content-Usage` / `Content-Signal` preferences for the final URL combined with the
   * response's `Content-Usage` field (any `disallowed` wins), with the statements behind each.
   */
  readonly usage: UsagePreferences;
}

/**
 * Request init accepted by a polite fetch: the global `RequestInit` (global `Headers`, bodies)
 * or undici's; `dispatcher` works per call with both.
 * @example
 * await politeFetch(url, { method: 'POST', body: 'q=1', dispatcher } satisfies PoliteRequestInit);
 */
export type PoliteRequestInit = UndiciRequestInit | globalThis.RequestInit;

/**
 * A request accepted by a polite fetch: a URL, or a Request (undici's or the global one).
 * @example
 * await politeFetch(new Request('https://example.com/') satisfies PoliteRequestInput);
 */
export type PoliteRequestInput = string | URL | { readonly url: string; readonly method: string };

/**
 * `fetch`, made polite: every request is gated by robots.txt and paced per origin, and every
 * response carries its robots directives.
 * @example
 * const politeFetch: PoliteFetch = createPoliteFetch({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
 */
export interface PoliteFetch {
  (input: PoliteRequestInput, init?: PoliteRequestInit | null): Promise<PoliteResponse>;
  readonly policy: RobotsPolicy;
  /** Closes the policy if this fetch created it (a shared policy is left open). */
  close(): Promise<void>;
}
