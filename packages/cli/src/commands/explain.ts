import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { explainJson, formatExplain } from '../output/format-explain.js';
import { verdictAction } from '../verdicts.js';

/**
 * Registers `polite explain <url> --agent <token> [--purpose] [--robots] [--user-agent] [--json]`:
 * the whole chain from robots.txt to verdict. Exit code 0 when allowed, 1 when denied.
 */
export function registerExplainCommand(program: Command, context: CliContext): void {
  const command = program
    .command('explain')
    .description(
      'explain a verdict: how robots.txt was obtained, which group and which line decided',
    )
    .argument('<url>', 'an absolute http(s) URL');
  verdictAction(
    command,
    context,
    'use this robots.txt instead of fetching the origin’s',
    (_answered, [url]) => `waiting for ${url?.origin ?? ''}/robots.txt`,
    (agent, [verdict], options) =>
      options.json === true
        ? explainJson(agent, verdict!)
        : formatExplain(agent, verdict!, context.out),
  );
}
