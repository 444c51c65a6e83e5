import type { CliAgent } from '../agent.js';
import type { UrlVerdict } from './verdict-json.js';
import type { AgentJson } from './agent-json.js';
import { agentJson, agentLabel } from './agent-json.js';
import { quoteLine } from './describe-verdict.js';
import { statusPhrase } from '../robots-source.js';
import type { Style } from './style.js';
import { categoryLines } from './usage-lines.js';
import { plural } from './plural.js';

/** The shape of `polite explain --json`: the verdict plus the agent. */
export type ExplainJson = UrlVerdict & { readonly agent: AgentJson };

/**
 * The `--json` document of `explain`.
 *
 * @example
 * ```ts
 * JSON.stringify(explainJson(agent, verdict));
 * ```
 */
export function explainJson(agent: CliAgent, verdict: UrlVerdict): ExplainJson {
  return { agent: agentJson(agent), ...verdict };
}

const LABEL_WIDTH = 12;
const label = (name: string): string => name.padEnd(LABEL_WIDTH);
const cont = ' '.repeat(LABEL_WIDTH);

/**
 * The text report of `explain`: how robots.txt was obtained, which group was chosen and
 * why, the deciding line with its number and text, and the verdict.
 *
 * @example
 * ```ts
 * process.stdout.write(formatExplain(agent, verdict, createStyle(false)));
 * ```
 */
export function formatExplain(agent: CliAgent, verdict: UrlVerdict, style: Style): string {
  const lines: string[] = [];
  lines.push(`${label('URL')}${verdict.url}`);
  lines.push(`${label('Agent')}${agentLabel(agent)}`);
  lines.push(`${cont}${style.dim(`User-Agent: ${agent.userAgent}`)}`);
  lines.push('');
  lines.push(...sourceLines(verdict, style));
  lines.push('');
  lines.push(...groupLines(agent, verdict));
  lines.push('');
  lines.push(...ruleLines(verdict, style));
  lines.push('');
  const usage = usageLines(verdict, style);
  if (usage.length > 0) lines.push(...usage, '');
  const word = verdict.allowed ? style.green('ALLOWED') : style.red('DENIED');
  lines.push(`${label('Verdict')}${style.bold(word)}`);
  return `${lines.join('\n')}\n`;
}

function sourceLines(verdict: UrlVerdict, style: Style): string[] {
  const info = verdict.robotsTxt;
  const lines: string[] = [];
  lines.push(`${label('robots.txt')}${info.location}${info.source === 'file' ? ' (file)' : ''}`);
  if (info.source !== 'file') {
    const how =
      info.status === 'ok'
        ? `HTTP ${info.httpStatus ?? '?'}`
        : `${info.status}: ${statusPhrase(info)}${info.failure !== null && info.failure !== statusPhrase(info) ? ` (${info.failure})` : ''}`;
    const hops = info.redirects.length;
    lines.push(
      `${label('  obtained')}${how}${hops === 0 ? '' : ` after ${plural(hops, 'redirect')}`}`,
    );
    for (const target of info.redirects) lines.push(`${cont}${style.dim(`→ ${target}`)}`);
  }
  if (info.cache !== null) lines.push(`${label('  cache')}${info.cache}`);
  if (info.status === 'ok') {
    const size = info.truncated
      ? `${plural(info.bytes, 'byte')} parsed: the file is longer, the rest is ignored (RFC 9309 §2.5)`
      : `${plural(info.bytes, 'byte')} (read in full)`;
    lines.push(`${label('  size')}${size}`);
  }
  if (verdict.stale) {
    lines.push(`${label('  stale')}the origin is unreachable now; the last good copy is in force`);
  }
  if (verdict.crawlDelay !== null)
    lines.push(`${label('  delay')}crawl-delay ${verdict.crawlDelay} s for this agent`);
  return lines;
}

function groupLines(agent: CliAgent, verdict: UrlVerdict): string[] {
  const token = agent.productToken;
  const purpose = agent.purpose;
  let why: string;
  switch (verdict.selection) {
    case 'product':
      why = `chosen by product token: the group${verdict.groupCount === 1 ? '' : 's'} naming ${token}`;
      break;
    case 'purpose':
      why = `chosen by purpose: no group names ${token}; ${verdict.groupCount === 1 ? 'the group' : 'the groups'} for purpose ${purpose ?? '?'} ${verdict.groupCount === 1 ? 'applies' : 'apply'}`;
      break;
    case 'global':
      why = `the * group: no group names ${token}${purpose === undefined ? '' : ` or purpose ${purpose}`}`;
      break;
    case 'none':
      why = `none: no group names ${token}${purpose === undefined ? '' : ` or purpose ${purpose}`}, and there is no * group`;
      break;
    case null:
      why = 'none: no rules were read';
      break;
  }
  const lines = [`${label('Group')}${why}`];
  if (verdict.groupCount > 1) lines.push(`${cont}(${verdict.groupCount} groups merged)`);
  for (const group of verdict.groups) lines.push(`${cont}line ${group.line}: ${quoteLine(group)}`);
  return lines;
}

function ruleLines(verdict: UrlVerdict, style: Style): string[] {
  const info = verdict.robotsTxt;
  switch (verdict.reason) {
    case 'rule': {
      const rule = verdict.rule;
      if (rule === null) return [`${label('Rule')}a rule matched`];
      return [
        `${label('Rule')}line ${rule.line}: ${style.bold(quoteLine(rule))}`,
        `${cont}${rule.kind} pattern ${JSON.stringify(rule.pattern)} matches ${verdict.path ?? '?'}`,
        `${cont}${style.dim('(the longest matching pattern decides; allow wins a tie)')}`,
      ];
    }
    case 'no-matching-rule':
      return [`${label('Rule')}none matches ${verdict.path ?? '?'}: allowed by default`];
    case 'no-applicable-group':
      return [`${label('Rule')}none: no group applies, so everything is allowed`];
    case 'robots-txt-path':
      return [`${label('Rule')}none needed: /robots.txt is always allowed`];
    case 'match-budget':
      return [
        `${label('Rule')}line ${verdict.rule?.line ?? '?'}: not ruled out within the match budget,`,
        `${cont}so it counts as matching: disallowed (fail closed)`,
      ];
    case 'unavailable':
      return [
        `${label('Rule')}none: robots.txt is unavailable (${statusPhrase(info)}),`,
        `${cont}so every URL is allowed (RFC 9309 §2.3.1.3)`,
      ];
    case 'unreachable':
      return [
        `${label('Rule')}none: robots.txt is unreachable (${statusPhrase(info)}),`,
        `${cont}so every URL is disallowed (RFC 9309 §2.3.1.4)`,
      ];
  }
}

/**
 * The usage preferences robots.txt states for the URL, each with the line(s) that set it;
 * nothing when robots.txt states none for this agent and path.
 */
function usageLines(verdict: UrlVerdict, style: Style): string[] {
  const usage = verdict.usage;
  if (usage === null || (usage.reason !== 'rule' && usage.extensions.length === 0)) return [];
  const quote = (line: number): string => {
    const rule = usage.rules.find((candidate) => candidate.line === line);
    return rule === undefined ? `line ${line}` : `line ${line}: ${quoteLine(rule)}`;
  };
  const lines = categoryLines(
    usage,
    (category) => usage.lines[category].map(quote),
    style,
    LABEL_WIDTH,
  );
  for (const extension of usage.extensions) {
    const where = extension.line === null ? '' : `, line ${extension.line}`;
    lines.push(
      `${cont}${extension.label}: ${extension.value} ${style.dim(`(not a vocabulary category${where})`)}`,
    );
  }
  lines.push(
    `${cont}${style.dim("(robots.txt only: a page's Content-Usage header may restrict further)")}`,
  );
  return lines;
}
