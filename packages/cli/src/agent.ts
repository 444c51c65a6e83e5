import { isValidProductToken, isValidPurposeToken } from '@polite-crawler/robots-txt';
import type { Command } from 'commander';
import { CliError } from './cli-error.js';

/** The crawler identity a command works for, validated; also a robots-txt `Agent`. */
export interface CliAgent {
  /** The product token matched against `user-agent` lines, e.g. `ExampleBot`. */
  readonly productToken: string;
  /** The purpose token matched against `user-agent-purpose` lines, if any. */
  readonly purpose?: string;
  /** The User-Agent header sent with every request. */
  readonly userAgent: string;
}

/** The raw `--agent`, `--purpose` and `--user-agent` values (see {@link addAgentOptions}). */
export interface AgentFlags {
  readonly agent: string;
  readonly purpose?: string | undefined;
  readonly userAgent?: string | undefined;
}

/**
 * Validates the agent flags and builds the User-Agent header: the one given, or
 * `<agent>/1.0 (polite-crawler CLI; +https://github.com/polite-crawler/polite-crawler[; <purpose>])`. An invalid token, or a User-Agent that
 * does not contain the product and purpose tokens, is a usage error (exit code 2).
 *
 * @example
 * ```ts
 * resolveAgent({ agent: 'ExampleBot', purpose: 'search' }).userAgent;
 * // 'ExampleBot/1.0 (polite-crawler CLI; +https://github.com/polite-crawler/polite-crawler; search)'
 * ```
 */
export function resolveAgent(flags: AgentFlags): CliAgent {
  const { agent, purpose } = flags;
  if (!isValidProductToken(agent)) {
    throw CliError.usage(
      `invalid --agent ${JSON.stringify(agent)}`,
      'a product token is letters, "_" and "-" only (RFC 9309 §2.2.1), e.g. ExampleBot',
    );
  }
  if (purpose !== undefined && !isValidPurposeToken(purpose)) {
    throw CliError.usage(
      `invalid --purpose ${JSON.stringify(purpose)}`,
      'a purpose token is letters, digits, "_" and "-" only, e.g. search',
    );
  }
  const userAgent =
    flags.userAgent ??
    `${agent}/1.0 (polite-crawler CLI; +https://github.com/polite-crawler/polite-crawler${purpose === undefined ? '' : `; ${purpose}`})`;
  if (/[\r\n\0]/.test(userAgent) || userAgent.trim() === '') {
    throw CliError.usage('invalid --user-agent', 'it must be one non-empty line');
  }
  const lower = userAgent.toLowerCase();
  if (!lower.includes(agent.toLowerCase())) {
    throw CliError.usage(
      `invalid --user-agent ${JSON.stringify(userAgent)}`,
      `it must contain the product token ${agent} (RFC 9309 §2.2.1)`,
    );
  }
  if (purpose !== undefined && !lower.includes(purpose.toLowerCase())) {
    throw CliError.usage(
      `invalid --user-agent ${JSON.stringify(userAgent)}`,
      `it must contain the purpose token ${purpose} (draft-illyes-rep-purpose)`,
    );
  }
  return { productToken: agent, ...(purpose === undefined ? {} : { purpose }), userAgent };
}

/**
 * Adds `--agent` (required), `--purpose` and `--user-agent` to a command.
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
