import type { Explanation } from '@polite-crawler/fetch';
import { isRobotsInvalidUrlError } from '@polite-crawler/fetch';
import { parseRobotsTxt } from '@polite-crawler/robots-txt';
import type { Command } from 'commander';
import pLimit from 'p-limit';
import type { CliAgent } from './agent.js';
import { addAgentOptions, resolveAgent } from './agent.js';
import type { AgentFlags } from './agent.js';
import { parseHttpUrl } from './http-url.js';
import { timeoutOption } from './int-option.js';
import { writeJson } from './output/write-json.js';
import { CliError } from './cli-error.js';
import { createCliPolicy } from './cli-policy.js';
import type { CliContext } from './context.js';
import { CLI_DEFAULTS } from './defaults.js';
import { startWaitNotice } from './output/progress-line.js';
import { ExitCode } from './exit-codes.js';
import type { UrlAnswer } from './url-answer.js';
import { loadRobots } from './robots-source.js';
import { neverAnswered, robotsInfoFromReport } from './robots-source.js';

/** Verdicts obtained through the polite policy, which fetches each origin's robots.txt. */
export interface PolicyVerdicts {
  verdict(url: URL): Promise<UrlAnswer>;
  close(): Promise<void>;
}

/**
 * Answers for URLs the way a crawler using the `fetch` package would: robots.txt fetched once
 * per origin, RFC 9309 status handling, the cache state reported; the policy's `Explanation`
 * carries everything printed, the deciding line's text included.
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
      const { robotsTxt } = explanation;
      return {
        ...explanation,
        crawlDelay: robotsTxt.crawlDelay,
        robotsTxt: robotsInfoFromReport(robotsTxt),
      };
    },
    close: () => policy.close(),
  };
}

/** What `check` and `explain` are given: the agent options, `--robots`, `--timeout`, `--json`. */
export interface VerdictOptionValues extends AgentFlags {
  readonly robots?: string;
  readonly json?: boolean;
  readonly timeout: number;
}

/**
 * Adds the options `check` and `explain` share to `command`, and its action: the verdicts of
 * the URLs given, from the robots.txt given with `--robots` (a file or URL, read once) or
 * through the policy (each origin's robots.txt, at most {@link CLI_DEFAULTS.checkConcurrency}
 * URLs at once, saying on a terminal what it waits for while robots.txt does not answer), then
 * what `print` returns (text as it is, anything else as JSON) and the exit code of
 * {@link setVerdictsExit}.
 *
 * @example
 * ```ts
 * verdictAction(program.command('check').argument('<url...>'), context, 'robots.txt for every URL',
 *   (answered, urls) => `${answered} of ${urls.length} answered`,
 *   (agent, verdicts, options) => (options.json === true ? checkJson(agent, verdicts) : formatCheck(agent, verdicts, context.out)));
 * ```
 */
export function verdictAction(
  command: Command,
  context: CliContext,
  robotsHelp: string,
  waiting: (answered: number, urls: readonly URL[]) => string,
  print: (agent: CliAgent, verdicts: UrlAnswer[], options: VerdictOptionValues) => string | object,
): void {
  addAgentOptions(command)
    .option('-r, --robots <file|url>', robotsHelp)
    .addOption(timeoutOption())
    .option('--json', 'print a JSON document instead of text')
    .action(async (args: string | string[], options: VerdictOptionValues) => {
      const agent = resolveAgent(options);
      const urls = [args].flat().map((arg) => parseHttpUrl(arg, 'URL'));
      const verdicts = await collectVerdicts(urls, agent, options, context, (answered) =>
        waiting(answered, urls),
      );
      const output = print(agent, verdicts, options);
      if (typeof output === 'string') context.stdout.write(output);
      else writeJson(context.stdout, output);
      setVerdictsExit(context, verdicts);
    });
}

async function collectVerdicts(
  urls: readonly URL[],
  agent: CliAgent,
  options: { readonly robots?: string; readonly timeout: number },
  context: CliContext,
  waiting: (answered: number) => string,
): Promise<UrlAnswer[]> {
  if (options.robots !== undefined) {
    const loaded = await loadRobots(
      options.robots,
      { userAgent: agent.userAgent, timeoutMs: options.timeout },
      parseRobotsTxt,
    );
    const rules = loaded.parsed.forAgent(agent);
    return urls.map((url) => {
      const verdict = rules.explain(url);
      return {
        url: url.href,
        allowed: verdict.allowed,
        verdict,
        contentUsage: rules.explainContentUsage(url),
        stale: false,
        crawlDelay: rules.crawlDelay,
        robotsTxt: loaded.info,
      };
    });
  }
  const verdicts = createPolicyVerdicts(agent, options.timeout);
  let answered = 0;
  const notice = startWaitNotice(context.stderr, context.err, () => waiting(answered));
  try {
    const limit = pLimit(CLI_DEFAULTS.checkConcurrency);
    return await Promise.all(
      urls.map((url) =>
        limit(async () => {
          const verdict = await verdicts.verdict(url);
          answered++;
          return verdict;
        }),
      ),
    );
  } finally {
    notice.stop();
    await verdicts.close();
  }
}

/**
 * Sets the exit code for verdicts: `input` (4) when an origin could not be reached at all
 * (robots.txt unreachable without an HTTP answer: nothing can be fetched there, as `fetch` and
 * `crawl` say with the same code), with one `polite: …` line on stderr; else `denied` (1) when
 * any URL is denied, else `ok`.
 */
function setVerdictsExit(context: CliContext, results: readonly UrlAnswer[]): void {
  const unreachable = [
    ...new Map(
      results
        .filter((result) => neverAnswered(result.robotsTxt) !== undefined)
        .map((result) => [result.robotsTxt.location, result.robotsTxt] as const),
    ).values(),
  ];
  const [first] = unreachable;
  if (first !== undefined) {
    const more = unreachable.length > 1 ? ` (and ${unreachable.length - 1} more)` : '';
    context.stderr.write(
      `polite: cannot reach ${first.location}: ${first.failure ?? 'no answer'}${more}; its URLs are reported denied\n`,
    );
    context.exitCode = ExitCode.input;
  } else
    context.exitCode = results.every((result) => result.allowed) ? ExitCode.ok : ExitCode.denied;
}
