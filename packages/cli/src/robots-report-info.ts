import type { RobotsTxtReport } from '@polite-crawler/fetch';
import { describeFailure } from './network-error.js';
import type { RobotsTxtInfo } from './robots-source.js';

/**
 * The CLI's {@link RobotsTxtInfo} for a robots.txt the policy obtained.
 *
 * @example
 * ```ts
 * robotsInfoFromReport((await policy.explain(url)).robotsTxt).cache; // 'miss'
 * ```
 */
export function robotsInfoFromReport(report: RobotsTxtReport): RobotsTxtInfo {
  return {
    source: 'policy',
    location: report.url,
    status: report.status,
    httpStatus: report.httpStatus ?? null,
    redirects: report.redirects,
    cache: report.cache,
    bytes: report.parsedBytes,
    truncated: report.truncated,
    failure: report.latest.failure === undefined ? null : describeFailure(report.latest.failure),
  };
}

/**
 * Why nothing could be requested from an origin whose robots.txt never answered (unreachable
 * without an HTTP status: `fetch` and `crawl` exit 4 with it), or undefined when it answered.
 *
 * @example
 * ```ts
 * neverAnswered(info); // 'robots.txt unreachable (connection refused); nothing was requested'
 * ```
 */
export function neverAnswered(info: RobotsTxtInfo): string | undefined {
  return info.status === 'unreachable' && info.httpStatus === null
    ? `robots.txt unreachable (${info.failure ?? 'no answer'}); nothing was requested`
    : undefined;
}

/**
 * The status of a robots.txt that could not be used, e.g. `HTTP 503` or `connection refused`.
 *
 * @example
 * ```ts
 * statusPhrase(info); // 'HTTP 503'
 * ```
 */
export function statusPhrase(info: RobotsTxtInfo): string {
  if (info.httpStatus !== null) return `HTTP ${info.httpStatus}`;
  return info.failure ?? info.status;
}
