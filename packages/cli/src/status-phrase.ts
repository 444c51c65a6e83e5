import type { RobotsTxtInfo } from './robots-source.js';

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
