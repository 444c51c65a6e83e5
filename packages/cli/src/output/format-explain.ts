import type { CliAgent } from '../agent.js';
import type { UrlAnswer } from '../url-answer.js';
import { answerReason } from '../url-answer.js';
import type { UrlVerdict } from './verdict-json.js';
import { verdictJson } from './verdict-json.js';
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
 */
export function explainJson(agent: CliAgent, answer: UrlAnswer): ExplainJson {
  return { agent: agentJson(agent), ...verdictJson(answer) };
}

const LABEL_WIDTH = 12;
const label = (name: string): string => name.padEnd(LABEL_WIDTH);
const cont = ' '.repeat(LABEL_WIDTH);

/**
 * The text report of `explain`: how robots.txt was obtained, which group was chosen and
 * why, the deciding line with its number and text, and the verdict.
 */
export function formatExplain(agent: CliAgent, answer: UrlAnswer, style: Style): string {
  const lines: string[] = [];
  lines.push(`${label('URL')}${answer.url}`);
  lines.push(`${label('Agent')}${agentLabel(agent)}`);
  lines.push(`${cont}${style.dim(`User-Agent: ${agent.userAgent}`)}`);
  lines.push('');
  lines.push(...sourceLines(answer, style));
  lines.push('');
  lines.push(...groupLines(agent, answer));
  lines.push('');
  lines.push(...ruleLines(answer, style));
  lines.push('');
  const usage = usageLines(answer, style);
  if (usage.length > 0) lines.push(...usage, '');
  const word = answer.allowed ? style.green('ALLOWED') : style.red('DENIED');
  lines.push(`${label('Verdict')}${style.bold(word)}`);
  return `${lines.join('\n')}\n`;
}

function sourceLines(answer: UrlAnswer, style: Style): string[] {
  const info = answer.robotsTxt;
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
  if (answer.stale) {
    lines.push(`${label('  stale')}the origin is unreachable now; the last good copy is in force`);
  }
  if (answer.crawlDelay !== undefined)
    lines.push(`${label('  delay')}crawl-delay ${answer.crawlDelay} s for this agent`);
  return lines;
}

function groupLines(agent: CliAgent, { verdict }: UrlAnswer): string[] {
  const token = agent.productToken;
  const purpose = agent.purpose;
  const groupCount = verdict?.groups.length ?? 0;
  let why: string;
  switch (verdict?.selection) {
    case 'product':
      why = `chosen by product token: the group${groupCount === 1 ? '' : 's'} naming ${token}`;
      break;
    case 'purpose':
      why = `chosen by purpose: no group names ${token}; ${groupCount === 1 ? 'the group' : 'the groups'} for purpose ${purpose ?? '?'} ${groupCount === 1 ? 'applies' : 'apply'}`;
      break;
    case 'global':
      why = `the * group: no group names ${token}${purpose === undefined ? '' : ` or purpose ${purpose}`}`;
      break;
    case 'none':
      why = `none: no group names ${token}${purpose === undefined ? '' : ` or purpose ${purpose}`}, and there is no * group`;
      break;
    case undefined:
      why = 'none: no rules were read';
      break;
  }
  const lines = [`${label('Group')}${why}`];
  if (groupCount > 1) lines.push(`${cont}(${groupCount} groups merged)`);
  verdict?.groupLines.forEach((line, i) => {
    lines.push(`${cont}line ${line}: ${quoteLine({ text: verdict.groupLineTexts[i] ?? '' })}`);
  });
  return lines;
}

function ruleLines(answer: UrlAnswer, style: Style): string[] {
  const info = answer.robotsTxt;
  const rule = answer.verdict?.rule;
  const path = answer.verdict?.path ?? '?';
  switch (answerReason(answer)) {
    case 'rule': {
      if (rule === undefined) return [`${label('Rule')}a rule matched`];
      return [
        `${label('Rule')}line ${rule.line}: ${style.bold(quoteLine(rule))}`,
        `${cont}${rule.kind} pattern ${JSON.stringify(rule.pattern)} matches ${path}`,
        `${cont}${style.dim('(the longest matching pattern decides; allow wins a tie)')}`,
      ];
    }
    case 'no-matching-rule':
      return [`${label('Rule')}none matches ${path}: allowed by default`];
    case 'no-applicable-group':
      return [`${label('Rule')}none: no group applies, so everything is allowed`];
    case 'robots-txt-path':
      return [`${label('Rule')}none needed: /robots.txt is always allowed`];
    case 'match-budget':
      return [
        `${label('Rule')}line ${rule?.line ?? '?'}: not ruled out within the match budget,`,
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
function usageLines({ verdict, contentUsage }: UrlAnswer, style: Style): string[] {
  if (verdict === undefined || contentUsage === undefined) return [];
  const { preferences } = contentUsage;
  if (contentUsage.reason !== 'rule' && preferences.extensions.length === 0) return [];
  const lines = categoryLines(
    preferences,
    (category) =>
      preferences.sources[category].flatMap((source) =>
        'line' in source ? [`line ${source.line}: ${quoteLine(source)}`] : [],
      ),
    style,
    LABEL_WIDTH,
  );
  for (const extension of preferences.extensions) {
    const where = 'line' in extension.source ? `, line ${extension.source.line}` : '';
    lines.push(
      `${cont}${extension.label}: ${extension.value} ${style.dim(`(not a vocabulary category${where})`)}`,
    );
  }
  lines.push(
    `${cont}${style.dim("(robots.txt only: a page's Content-Usage header may restrict further)")}`,
  );
  return lines;
}
