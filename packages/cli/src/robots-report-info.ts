import type { RobotsTxtReport } from '@polite-crawler/fetch';
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
    bytes: report.bytes,
    truncated: report.truncated,
    failure: report.latest.failure?.message ?? null,
  };
}
