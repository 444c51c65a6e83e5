import type { CliAgent } from '../agent.js';
import type { UrlAnswer } from '../url-answer.js';
import type { UrlVerdict } from './verdict-json.js';
import { verdictJson } from './verdict-json.js';
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
 */
export function checkJson(agent: CliAgent, answers: readonly UrlAnswer[]): CheckJson {
  const allowed = answers.filter((answer) => answer.allowed).length;
  return {
    agent: agentJson(agent),
    allowed,
    denied: answers.length - allowed,
    results: answers.map(verdictJson),
  };
}

/**
 * The text report of `check`: one verdict and one reason line per URL, then the robots.txt
 * files consulted and a count.
 */
export function formatCheck(agent: CliAgent, results: readonly UrlAnswer[], style: Style): string {
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
