import type { Explanation } from '@polite-crawler/fetch';
import type { RobotsTxtInfo } from './robots-source.js';
import type { UrlVerdictReason } from './output/verdict-json.js';

/**
 * The library's answer for one URL, as `check` and `explain` print it: the fields of the
 * policy's `Explanation` that an answer from a `--robots` file has too (robots-txt's `Verdict`
 * and `ContentUsageVerdict`, read from the parsed file), and where robots.txt came from.
 */
export interface UrlAnswer {
  readonly url: string;
  readonly allowed: boolean;
  /** robots-txt's verdict; undefined when no rules were read (robots.txt unavailable or unreachable). */
  readonly verdict: Explanation['verdict'];
  /** robots-txt's usage verdict; undefined when no rules were read. */
  readonly contentUsage: Explanation['contentUsage'];
  /** True when robots.txt is unreachable now and an older copy is in force. */
  readonly stale: boolean;
  /** Crawl-delay in seconds for this agent, when robots.txt sets one. */
  readonly crawlDelay: number | undefined;
  readonly robotsTxt: RobotsTxtInfo;
}

/**
 * The CLI's answer for a URL the policy explained.
 */
export function answerOf(explanation: Explanation, robotsTxt: RobotsTxtInfo): UrlAnswer {
  return {
    url: explanation.url,
    allowed: explanation.allowed,
    verdict: explanation.verdict,
    contentUsage: explanation.contentUsage,
    stale: explanation.stale,
    crawlDelay: explanation.robotsTxt.crawlDelay,
    robotsTxt,
  };
}

/**
 * Why the URL is allowed or not: the verdict's reason, or, when no rules were read, whether
 * robots.txt was `unavailable` (everything allowed) or `unreachable` (everything disallowed).
 */
export function answerReason(answer: UrlAnswer): UrlVerdictReason {
  if (answer.verdict !== undefined) return answer.verdict.reason;
  return answer.robotsTxt.status === 'unavailable' ? 'unavailable' : 'unreachable';
}
