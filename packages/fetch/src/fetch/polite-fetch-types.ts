import type { RequestInit as UndiciRequestInit, Response } from 'undici';
import type { RobotsDirectives } from '@polite-crawler/robots-tag';
import type { RobotsPolicy } from '../policy/robots-policy.js';

/**
 * A fetch Response plus the robots directives that apply to this crawler.
 * @example
 * const response: PoliteResponse = await politeFetch(url); if (response.robots.noindex) skip();
 */
export interface PoliteResponse extends Response {
  /** Robots-Tag / X-Robots-Tag header rules and `<head>` robots metas, for this crawler. */
  readonly robots: RobotsDirectives;
}

/**
 * Request init accepted by a polite fetch: undici's, so `dispatcher` works per call.
 * @example
 * await politeFetch(url, { method: 'POST', body: 'q=1', dispatcher } satisfies PoliteRequestInit);
 */
export type PoliteRequestInit = UndiciRequestInit;

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
 * const politeFetch: PoliteFetch = createPoliteFetch({ userAgent: 'ExampleBot/1.0' });
 */
export interface PoliteFetch {
  (input: PoliteRequestInput, init?: PoliteRequestInit): Promise<PoliteResponse>;
  readonly policy: RobotsPolicy;
  /** Closes the policy if this fetch created it (a shared policy is left open). */
  close(): Promise<void>;
}
