import type { Explanation } from '@polite-crawler/fetch';
import { isRobotsInvalidUrlError } from '@polite-crawler/fetch';
import type { CliAgent } from './agent.js';
import { CliError } from './cli-error.js';
import { createCliPolicy } from './cli-policy.js';
import { CLI_DEFAULTS } from './defaults.js';
import { createCaptureStore } from './capture-store.js';
import { robotsInfoFromReport } from './robots-report-info.js';
import type { UrlVerdict } from './url-verdict.js';
import { toUrlVerdict } from './verdict-from-robots.js';

/** Verdicts obtained through the polite policy, which fetches each origin's robots.txt. */
export interface PolicyVerdicts {
  verdict(url: URL): Promise<UrlVerdict>;
  close(): Promise<void>;
}

/**
 * Creates a robots policy for `agent` and answers for URLs the way a crawler using the
 * `fetch` package would: robots.txt fetched once per origin, RFC 9309 status handling, the
 * cache state reported. The deciding line's text is read from the body the policy fetched.
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
  const store = createCaptureStore(CLI_DEFAULTS.maxOrigins);
  const policy = createCliPolicy(agent, store, {
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
      const report = explanation.robotsTxt;
      const robotsTxt = robotsInfoFromReport(report);
      const crawlDelay = report.crawlDelay ?? null;
      if (explanation.verdict !== undefined) {
        const origin = explanation.origin;
        return toUrlVerdict(explanation.url, explanation.verdict, {
          robotsTxt,
          line: (n) => store.lineText(origin, n) ?? undefined,
          crawlDelay,
          stale: explanation.stale,
          ...(explanation.contentUsage === undefined ? {} : { usage: explanation.contentUsage }),
        });
      }
      return {
        url: explanation.url,
        allowed: explanation.allowed,
        reason: explanation.reason === 'unreachable' ? 'unreachable' : 'unavailable',
        selection: null,
        groups: [],
        groupCount: 0,
        rule: null,
        path: null,
        stale: explanation.stale,
        crawlDelay,
        usage: null,
        robotsTxt,
      };
    },
    close: () => policy.close(),
  };
}
