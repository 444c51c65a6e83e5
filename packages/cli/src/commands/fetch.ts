import type { PoliteResponse } from '@polite-crawler/fetch';
import { createPoliteFetch, isRobotsDeniedError } from '@polite-crawler/fetch';
import { readCapped } from '@polite-crawler/fetch/internal';
import type { Command } from 'commander';
import { addAgentOptions, resolveAgent } from '../agent.js';
import type { AgentFlags } from '../agent.js';
import { CliError } from '../cli-error.js';
import { createCliPolicy } from '../cli-policy.js';
import type { CliContext } from '../context.js';
import type { DeniedInfo } from '../output/verdict-json.js';
import { CLI_DEFAULTS } from '../defaults.js';
import { deniedInfo } from '../output/verdict-json.js';
import { ExitCode } from '../exit-codes.js';
import { parseHttpUrl } from '../http-url.js';
import { describeNetworkError } from '../network-error.js';
import { pageDispatcher, pageTimeoutOption } from '../page-time-limit.js';
import type { FetchedJson } from '../output/format-fetch.js';
import { directivesJson, fetchJson, formatFetch, usageJson } from '../output/format-fetch.js';
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
 *
 * @example
 * ```ts
 * registerFetchCommand(program, context);
 * await program.parseAsync(['fetch', 'http://127.0.0.1:8080/', '--agent', 'ExampleBot'], { from: 'user' });
 * ```
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
      let denied: DeniedInfo | null = null;
      let response: FetchedJson | null = null;
      try {
        let answer: PoliteResponse | undefined;
        const notice = startWaitNotice(
          context.stderr,
          context.err,
          () => `waiting for ${url.origin} (robots.txt first, then the page)`,
        );
        try {
          answer = await politeFetch(url);
        } catch (error) {
          if (!isRobotsDeniedError(error)) {
            throw CliError.input(`cannot fetch ${url.href}`, describeNetworkError(error), error);
          }
          denied = deniedInfo(error);
          if (error.reason !== 'disallowed') {
            const info = robotsInfoFromReport((await policy.explain(error.url)).robotsTxt);
            const why = neverAnswered(info);
            if (why !== undefined) throw CliError.input(`cannot fetch ${url.href}`, why);
            if (info.status === 'unreachable')
              denied = { ...denied, unreachable: statusPhrase(info) };
          }
        } finally {
          notice.stop();
        }
        if (answer !== undefined) {
          let body;
          try {
            body = await readCapped(answer.body, CLI_DEFAULTS.maxBodyBytes);
          } catch (error) {
            throw CliError.input(
              `cannot read the body of ${url.href}`,
              describeNetworkError(error),
              error,
            );
          }
          const finalUrl = answer.url === '' ? url.href : answer.url;
          response = {
            finalUrl,
            redirected: answer.redirected,
            status: answer.status,
            statusText: answer.statusText,
            contentType: answer.headers.get('content-type'),
            bytes: body.bytes.byteLength,
            complete: !body.truncated,
            robots: directivesJson(answer.robots),
            usage: usageJson(answer.usage),
          };
        }
      } finally {
        await policy.close();
        await dispatcher.close();
      }
      const result = fetchJson(agent, url.href, { denied, response });
      if (options.json === true) writeJson(context.stdout, result);
      else context.stdout.write(formatFetch(result, context.out));
      context.exitCode = denied === null ? ExitCode.ok : ExitCode.denied;
    });
}
