import type { PoliteFetch, PoliteResponse, RobotsPolicy } from '@polite-crawler/fetch';
import { createPoliteFetch, isRobotsDeniedError } from '@polite-crawler/fetch';
import { readCapped } from '@polite-crawler/fetch/internal';
import type { Command } from 'commander';
import { addAgentOptions, resolveAgent } from '../agent.js';
import type { AgentFlags } from '../agent.js';
import { CliError } from '../cli-error.js';
import { createCliPolicy } from '../cli-policy.js';
import type { CliContext } from '../context.js';
import { CLI_DEFAULTS } from '../defaults.js';
import { ExitCode } from '../exit-codes.js';
import { parseHttpUrl } from '../http-url.js';
import { describeNetworkError } from '../network-error.js';
import { pageTimeoutOption } from '../int-option.js';
import { pageDispatcher } from '../page-time-limit.js';
import type { FetchOutcome } from '../output/format-fetch.js';
import { fetchJson, formatFetch } from '../output/format-fetch.js';
import { writeJson } from '../output/write-json.js';
import { startWaitNotice } from '../output/progress-line.js';
import { neverAnswered, robotsInfoFromReport, statusPhrase } from '../robots-source.js';

interface FetchOptionValues extends AgentFlags {
  readonly pageTimeout: number;
  readonly json?: boolean;
}

/**
 * Registers `polite fetch <url> --agent <token> [--purpose] [--user-agent] [--json]`: one
 * request through the polite fetch. Exit code 0 when a response arrived, 1 when robots.txt
 * refused the URL (nothing was sent), 4 when the request failed.
 */
export function registerFetchCommand(program: Command, context: CliContext): void {
  const command = program
    .command('fetch')
    .description('fetch one URL politely and show its status, size, type and robots directives')
    .argument('<url>', 'an absolute http(s) URL');
  addAgentOptions(command);
  command
    .addOption(pageTimeoutOption())
    .option('--json', 'print a JSON document instead of text')
    .action(async (arg: string, options: FetchOptionValues) => {
      const agent = resolveAgent(options);
      const url = parseHttpUrl(arg, 'URL');
      const dispatcher = pageDispatcher(options.pageTimeout);
      const policy = createCliPolicy(agent, { minInterval: 0, dispatcher });
      const politeFetch = createPoliteFetch({ policy });
      let outcome: FetchOutcome;
      try {
        outcome = await fetchOutcome(politeFetch, policy, url, context);
      } finally {
        await policy.close();
        await dispatcher.close();
      }
      if (options.json === true) writeJson(context.stdout, fetchJson(agent, url.href, outcome));
      else context.stdout.write(formatFetch(url.href, outcome, context.out));
      context.exitCode = 'denied' in outcome ? ExitCode.denied : ExitCode.ok;
    });
}

/**
 * What the library answered for `url`: the response and the start of its body, or the refusal.
 * A request that failed, or an origin whose robots.txt never answered, is a {@link CliError}.
 */
async function fetchOutcome(
  politeFetch: PoliteFetch,
  policy: RobotsPolicy,
  url: URL,
  context: CliContext,
): Promise<FetchOutcome> {
  let response: PoliteResponse;
  const notice = startWaitNotice(
    context.stderr,
    context.err,
    () => `waiting for ${url.origin} (robots.txt first, then the page)`,
  );
  try {
    response = await politeFetch(url);
  } catch (error) {
    if (!isRobotsDeniedError(error)) {
      throw CliError.input(`cannot fetch ${url.href}`, describeNetworkError(error), error);
    }
    if (error.reason === 'disallowed') return { denied: error, unreachable: null };
    const info = robotsInfoFromReport((await policy.explain(error.url)).robotsTxt);
    const why = neverAnswered(info);
    if (why !== undefined) throw CliError.input(`cannot fetch ${url.href}`, why);
    return {
      denied: error,
      unreachable: info.status === 'unreachable' ? statusPhrase(info) : null,
    };
  } finally {
    notice.stop();
  }
  try {
    return { response, body: await readCapped(response.body, CLI_DEFAULTS.maxBodyBytes), url };
  } catch (error) {
    throw CliError.input(`cannot read the body of ${url.href}`, describeNetworkError(error), error);
  }
}
