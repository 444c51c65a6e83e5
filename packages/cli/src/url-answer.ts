import type { Explanation } from '@polite-crawler/fetch';
import type { RobotsTxtInfo } from './robots-source.js';
import type { UrlVerdictReason } from './output/verdict-json.js';

/**
 * The library's answer for one URL, as `check` and `explain` print it: the fields of the
 * policy's `Explanation` that an answer from a `--robots` file has too (robots-txt's `Verdict`
 * and `ContentUsageVerdict`, read from the parsed file; both absent when no rules were read:
 * robots.txt unavailable or unreachable), and where robots.txt came from.
 */
export interface UrlAnswer extends Pick<
  Explanation,
  'url' | 'allowed' | 'verdict' | 'contentUsage' | 'stale'
> {
  /** Crawl-delay in seconds for this agent, when robots.txt sets one. */
  readonly crawlDelay: number | undefined;
  readonly robotsTxt: RobotsTxtInfo;
}

/**
 * Why the URL is allowed or not: the verdict's reason, or, when no rules were read, whether
 * robots.txt was `unavailable` (everything allowed) or `unreachable` (everything disallowed).
 */
export function answerReason(answer: UrlAnswer): UrlVerdictReason {
  if (answer.verdict !== undefined) return answer.verdict.reason;
  return answer.robotsTxt.status === 'unavailable' ? 'unavailable' : 'unreachable';
}
