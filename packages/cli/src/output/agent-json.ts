import type { CliAgent } from '../agent.js';

/** The `agent` object of every `--json` output. */
export interface AgentJson {
  readonly productToken: string;
  readonly purpose: string | null;
  readonly userAgent: string;
}

/**
 * The JSON form of an agent (`purpose` is null when none was given).
 *
 * @example
 * ```ts
 * agentJson(agent); // { productToken: 'ExampleBot', purpose: null, userAgent: 'ExampleBot/1.0 (polite-crawler CLI; +https://github.com/polite-crawler/polite-crawler)' }
 * ```
 */
export function agentJson(agent: CliAgent): AgentJson {
  return {
    productToken: agent.productToken,
    purpose: agent.purpose ?? null,
    userAgent: agent.userAgent,
  };
}

/**
 * The agent for people: `ExampleBot` or `ExampleBot (purpose: search)`.
 *
 * @example
 * ```ts
 * agentLabel(agent); // 'ExampleBot (purpose: search)'
 * ```
 */
export function agentLabel(agent: CliAgent): string {
  return agent.purpose === undefined
    ? agent.productToken
    : `${agent.productToken} (purpose: ${agent.purpose})`;
}
