import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { checkJson, formatCheck } from '../output/format-check.js';
import { plural } from '../output/plural.js';
import { verdictAction } from '../verdicts.js';

/**
 * Registers `polite check <url…> --agent <token> [--purpose] [--robots] [--user-agent] [--json]`.
 * Exit code 0 when every URL is allowed, 1 when any is denied.
 */
export function registerCheckCommand(program: Command, context: CliContext): void {
  const command = program
    .command('check')
    .description('say whether robots.txt lets an agent fetch each URL, and which rule decided')
    .argument('<url...>', 'absolute http(s) URLs to check');
  verdictAction(
    command,
    context,
    'use this robots.txt for every URL instead of fetching each origin’s',
    (answered, urls) =>
      `waiting for robots.txt: ${answered} of ${plural(urls.length, 'URL')} answered`,
    (agent, verdicts, options) =>
      options.json === true
        ? checkJson(agent, verdicts)
        : formatCheck(agent, verdicts, context.out),
  );
}
