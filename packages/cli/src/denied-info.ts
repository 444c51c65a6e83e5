import type { RobotsDeniedError } from '@polite-crawler/fetch';
import type { DeniedInfo } from './crawl/crawl-report.js';

/**
 * The CLI's {@link DeniedInfo} (JSON) for a refused request; the deciding rule's line and text
 * come with the error.
 *
 * @example
 * ```ts
 * deniedInfo(error).rule?.text; // 'Disallow: /private/'
 * ```
 */
export function deniedInfo(error: RobotsDeniedError): DeniedInfo {
  const rule = error.rule;
  return {
    reason: error.reason,
    url: error.url,
    rule:
      rule === undefined
        ? null
        : { kind: rule.kind, pattern: rule.pattern, line: rule.line, text: rule.text },
    robotsTxt: `${error.origin}/robots.txt`,
    unreachable: null,
  };
}
