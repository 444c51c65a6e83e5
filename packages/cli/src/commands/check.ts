import type { Command } from 'commander';
import { resolveAgent } from '../agent.js';
import type { CliContext } from '../context.js';
import { parseHttpUrl } from '../http-url.js';
import { timeoutOption } from '../timeout-option.js';
import { checkJson, formatCheck } from '../output/format-check.js';
import { writeJson } from '../output/write-json.js';
import { plural } from '../output/plural.js';
import { collectVerdicts, setVerdictsExit } from '../verdicts.js';
import type { AgentOptionValues } from '../agent-options.js';
import { addAgentOptions } from '../agent-options.js';

interface CheckOptionValues extends AgentOptionValues {
  readonly robots?: string;
  readonly json?: boolean;
  readonly timeout: number;
}

/**
 * Registers `polite check <url…> --agent <token> [--purpose] [--robots] [--user-agent] [--json]`.
 * Exit code 0 when every URL is allowed, 1 when any is denied.
 *
 * @example
 * ```ts
 * registerCheckCommand(program, context);
 * await program.parseAsync(['check', 'https://example.com/a', '--agent', 'ExampleBot'], { from: 'user' });
 * ```
 */
export function registerCheckCommand(program: Command, context: CliContext): void {
  const command = program
    .command('check')
    .description('say whether robots.txt lets an agent fetch each URL, and which rule decided')
    .argument('<url...>', 'absolute http(s) URLs to check');
  addAgentOptions(command);
  command
    .option(
      '-r, --robots <file|url>',
      'use this robots.txt for every URL instead of fetching each origin’s',
    )
    .addOption(timeoutOption())
    .option('--json', 'print a JSON document instead of text')
    .action(async (args: string[], options: CheckOptionValues) => {
      const agent = resolveAgent(options);
      const urls = args.map((arg) => parseHttpUrl(arg, 'URL'));
      const results = await collectVerdicts(
        urls,
        agent,
        options,
        context,
        (answered) =>
          `waiting for robots.txt: ${answered} of ${plural(urls.length, 'URL')} answered`,
      );
      if (options.json === true) writeJson(context.stdout, checkJson(agent, results));
      else context.stdout.write(formatCheck(agent, results, context.out));
      setVerdictsExit(context, results);
    });
}
