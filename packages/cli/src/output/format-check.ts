import type { CliAgent } from '../agent.js';
import type { UrlVerdict } from './verdict-json.js';
import type { AgentJson } from './agent-json.js';
import { agentJson, agentLabel } from './agent-json.js';
import { describeDecider, describeGroup, describeSource } from './describe-verdict.js';
import type { Style } from './style.js';

/** The shape of `polite check --json`. */
export interface CheckJson {
  readonly agent: AgentJson;
  /** Number of URLs allowed. */
  readonly allowed: number;
  /** Number of URLs denied. */
  readonly denied: number;
  /** One verdict per URL, in the order given. */
  readonly results: readonly UrlVerdict[];
}

/**
 * The `--json` document of `check`.
 *
 * @example
 * ```ts
 * JSON.stringify(checkJson(agent, verdicts));
 * ```
 */
export function checkJson(agent: CliAgent, results: readonly UrlVerdict[]): CheckJson {
  const allowed = results.filter((result) => result.allowed).length;
  return { agent: agentJson(agent), allowed, denied: results.length - allowed, results };
}

/**
 * The text report of `check`: one verdict and one reason line per URL, then the robots.txt
 * files consulted and a count.
 *
 * @example
 * ```ts
 * process.stdout.write(formatCheck(agent, verdicts, createStyle(false)));
 * ```
 */
export function formatCheck(agent: CliAgent, results: readonly UrlVerdict[], style: Style): string {
  const lines: string[] = [];
  for (const result of results) {
    const label = result.allowed ? style.green('ALLOWED') : style.red('DENIED ');
    lines.push(`${label}  ${result.url}`);
    const group = describeGroup(result);
    const stale = result.stale ? ' [stale copy: origin unreachable]' : '';
    lines.push(
      `         ${describeDecider(result)}${group === '' ? '' : style.dim(`; ${group}`)}${stale}`,
    );
  }
  const sources = new Map<string, string>();
  for (const result of results) {
    sources.set(result.robotsTxt.location, describeSource(result.robotsTxt));
  }
  lines.push('');
  for (const [location, description] of sources) {
    lines.push(style.dim(`robots.txt ${location} (${description})`));
  }
  const allowed = results.filter((result) => result.allowed).length;
  lines.push(`${agentLabel(agent)}: ${allowed} allowed, ${results.length - allowed} denied`);
  return `${lines.join('\n')}\n`;
}
