import type { Command } from 'commander';

/** The raw values of the agent options, as commander parses them. */
export interface AgentOptionValues {
  readonly agent: string;
  readonly purpose?: string;
  readonly userAgent?: string;
}

/**
 * Adds `--agent` (required), `--purpose` and `--user-agent` to a command.
 *
 * @example
 * ```ts
 * addAgentOptions(program.command('check'));
 * ```
 */
export function addAgentOptions(command: Command): Command {
  return command
    .requiredOption(
      '-a, --agent <token>',
      'the crawler’s product token, matched against user-agent lines (e.g. ExampleBot)',
    )
    .option(
      '-p, --purpose <token>',
      'the crawler’s purpose token, matched against user-agent-purpose lines',
    )
    .option(
      '-u, --user-agent <string>',
      'the User-Agent header sent (must contain the agent and purpose tokens; default "<agent>/1.0 (polite-crawler CLI; +https://github.com/polite-crawler/polite-crawler[; <purpose>])")',
    );
}
