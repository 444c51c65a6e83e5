import type { Explanation } from '@polite-crawler/fetch';
import { isRobotsInvalidUrlError } from '@polite-crawler/fetch';
import type { CliAgent } from './agent.js';
import { CliError } from './cli-error.js';
import { createCliPolicy } from './cli-policy.js';
import { CLI_DEFAULTS } from './defaults.js';
import type { ExitCodeValue } from './exit-codes.js';
import { ExitCode } from './exit-codes.js';
import type { UrlVerdict } from './output/verdict-json.js';
import { verdictJson } from './output/verdict-json.js';
import type { LoadedRobots } from './robots-source.js';
import { robotsInfoFromReport } from './robots-report-info.js';
import { toRobotsAgent } from './robots-agent.js';

/** Verdicts obtained through the polite policy, which fetches each origin's robots.txt. */
export interface PolicyVerdicts {
  verdict(url: URL): Promise<UrlVerdict>;
  close(): Promise<void>;
}

/**
 * Answers for URLs the way a crawler using the `fetch` package would: robots.txt fetched once
 * per origin, RFC 9309 status handling, the cache state reported; the policy's `Explanation`
 * carries everything printed, the deciding line's text included.
 *
 * @example
 * ```ts
 * const verdicts = createPolicyVerdicts(agent);
 * try { console.log((await verdicts.verdict(new URL('https://example.com/a'))).allowed); }
 * finally { await verdicts.close(); }
 * ```
 */
export function createPolicyVerdicts(
  agent: CliAgent,
  timeoutMs: number = CLI_DEFAULTS.requestTimeoutMs,
): PolicyVerdicts {
  const policy = createCliPolicy(agent, {
    robotsTimeout: timeoutMs,
    robotsHeadersTimeout: timeoutMs,
    robotsBodyTimeout: timeoutMs,
  });
  return {
    async verdict(url) {
      let explanation: Explanation;
      try {
        explanation = await policy.explain(url);
      } catch (error) {
        if (isRobotsInvalidUrlError(error))
          throw CliError.usage(`invalid URL ${url.href}`, error.message);
        throw error;
      }
      return verdictJson({
        decision: explanation,
        contentUsage: explanation.contentUsage,
        crawlDelay: explanation.robotsTxt.crawlDelay,
        robotsTxt: robotsInfoFromReport(explanation.robotsTxt),
      });
    },
    close: () => policy.close(),
  };
}

/**
 * The verdict of a robots.txt read with `--robots` for one URL.
 *
 * @example
 * ```ts
 * const loaded = await loadRobots('./robots.txt', { userAgent: agent.userAgent });
 * verdictFromRobots(loaded, new URL('https://example.com/private'), agent).allowed;
 * ```
 */
export function verdictFromRobots(loaded: LoadedRobots, url: URL, agent: CliAgent): UrlVerdict {
  const robotsAgent = toRobotsAgent(agent);
  const verdict = loaded.robots.explain(url, robotsAgent);
  return verdictJson({
    decision: {
      url: url.href,
      allowed: verdict.allowed,
      reason: verdict.allowed ? 'allowed' : 'disallowed',
      verdict,
      stale: false,
    },
    contentUsage: loaded.robots.explainContentUsage(url, robotsAgent),
    crawlDelay: loaded.robots.crawlDelay(robotsAgent),
    robotsTxt: loaded.info,
  });
}

/**
 * The exit code for verdicts: `input` (4) when an origin could not be reached at all (robots.txt
 * unreachable without an HTTP answer: nothing can be fetched there, as `fetch` and `crawl` say
 * with the same code), else `denied` (1) when any URL is denied, else `ok`. For `input`, the
 * one `polite: …` line to print on stderr.
 *
 * @example
 * ```ts
 * const { code, failure } = verdictsExit(results);
 * ```
 */
export function verdictsExit(results: readonly UrlVerdict[]): {
  readonly code: ExitCodeValue;
  readonly failure?: string;
} {
  const unreachable = [
    ...new Map(
      results
        .filter((result) => result.reason === 'unreachable' && result.robotsTxt.httpStatus === null)
        .map((result) => [result.robotsTxt.location, result.robotsTxt] as const),
    ).values(),
  ];
  const [first] = unreachable;
  if (first !== undefined) {
    const more = unreachable.length > 1 ? ` (and ${unreachable.length - 1} more)` : '';
    return {
      code: ExitCode.input,
      failure: `cannot reach ${first.location}: ${first.failure ?? 'no answer'}${more}; its URLs are reported denied`,
    };
  }
  return { code: results.every((result) => result.allowed) ? ExitCode.ok : ExitCode.denied };
}
