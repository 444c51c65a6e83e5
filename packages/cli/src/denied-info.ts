import type { RobotsDeniedError } from '@polite-crawler/fetch';
import type { DeniedInfo } from './crawl/crawl-report.js';

/**
 * The CLI's {@link DeniedInfo} for a refused request, quoting the deciding line with
 * `lineText(origin, line)`.
 *
 * @example
 * ```ts
 * deniedInfo(error, (origin, line) => linesOf(origin)?.line(line) ?? null);
 * ```
 */
export function deniedInfo(
  error: RobotsDeniedError,
  lineText: (origin: string, line: number) => string | null,
): DeniedInfo {
  const rule = error.rule;
  return {
    reason: error.reason,
    url: error.url,
    rule:
      rule === undefined
        ? null
        : {
            kind: rule.kind,
            pattern: rule.pattern,
            line: rule.line,
            text: lineText(error.origin, rule.line),
          },
    robotsTxt: `${error.origin}/robots.txt`,
    unreachable: null,
  };
}
