import type { RobotsTxtInfo } from '../robots-source.js';
import { statusPhrase } from '../robots-source.js';
import type { UrlAnswer } from '../url-answer.js';
import { answerReason } from '../url-answer.js';
import type { DeniedInfo, SourceLine } from './verdict-json.js';
import { plural } from './plural.js';

const MAX_QUOTED_LINE = 160;

/**
 * A robots.txt line for display: its text, cut at 160 characters.
 *
 * @example
 * ```ts
 * quoteLine({ line: 4, text: 'Disallow: /private/' }); // 'Disallow: /private/'
 * ```
 */
export function quoteLine(source: Pick<SourceLine, 'text'>): string {
  return source.text.length > MAX_QUOTED_LINE
    ? `${source.text.slice(0, MAX_QUOTED_LINE)}…`
    : source.text;
}

/**
 * One short phrase for how robots.txt was obtained, e.g. `HTTP 200, 345 bytes, cache miss`.
 */
export function describeSource(info: RobotsTxtInfo): string {
  const parts: string[] = [];
  if (info.source === 'file') parts.push('file');
  if (info.httpStatus !== null) parts.push(`HTTP ${info.httpStatus}`);
  if (info.redirects.length > 0) {
    parts.push(plural(info.redirects.length, 'redirect'));
  }
  if (info.status === 'ok')
    parts.push(`${plural(info.bytes, 'byte')}${info.truncated ? ' parsed (truncated)' : ''}`);
  else parts.push(info.status);
  if (info.failure !== null && info.httpStatus === null) parts.push(info.failure);
  if (info.cache !== null) parts.push(`cache ${info.cache}`);
  return parts.join(', ');
}

/**
 * Why the verdict is what it is, in one line: the deciding rule, or the reason no rule decided.
 *
 * @example
 * ```ts
 * describeDecider(answer); // 'Disallow: /private/ (line 9)'
 * ```
 */
export function describeDecider(answer: UrlAnswer): string {
  const rule = answer.verdict?.rule;
  switch (answerReason(answer)) {
    case 'rule':
      return rule === undefined ? 'a rule matched' : `${quoteLine(rule)} (line ${rule.line})`;
    case 'no-matching-rule':
      return 'no rule matches';
    case 'no-applicable-group':
      return 'no group applies to this agent and there is no * group';
    case 'robots-txt-path':
      return '/robots.txt is always allowed';
    case 'match-budget':
      return `line ${rule?.line ?? '?'} not ruled out within the match budget: disallowed (fail closed)`;
    case 'unavailable':
      return `robots.txt unavailable (${statusPhrase(answer.robotsTxt)}): everything allowed`;
    case 'unreachable':
      return `robots.txt unreachable (${statusPhrase(answer.robotsTxt)}): everything disallowed`;
  }
}

/**
 * The chosen group in a few words, e.g. `group "User-agent: *" (line 1)`; empty when no
 * group was read.
 *
 * @example
 * ```ts
 * describeGroup(answer); // 'group "User-agent-purpose: research" (line 7)'
 * ```
 */
export function describeGroup(answer: UrlAnswer): string {
  const lines = answer.verdict?.groupLines ?? [];
  const [first] = lines;
  const [text] = answer.verdict?.groupLineTexts ?? [];
  if (first === undefined || text === undefined) return '';
  const more = lines.length === 1 ? '' : ` + ${lines.length - 1} more`;
  return `group "${quoteLine({ text })}" (line ${first})${more}`;
}

/**
 * One line on why robots.txt refused a URL.
 *
 * @example
 * ```ts
 * describeDenied(denied); // 'Disallow: /private/ (line 4 of http://127.0.0.1:8080/robots.txt)'
 * ```
 */
export function describeDenied(
  denied: DeniedInfo,
  show: (url: string) => string = (url) => url,
): string {
  const robotsTxt = show(denied.robotsTxt);
  const why =
    denied.rule !== null
      ? `${quoteLine(denied.rule)} (line ${denied.rule.line} of ${robotsTxt})`
      : denied.reason === 'unreachable'
        ? `${robotsTxt} unreachable${denied.unreachable === null ? '' : ` (${denied.unreachable})`}: everything disallowed`
        : `disallowed by ${robotsTxt}`;
  return denied.reason === 'redirect-disallowed'
    ? `redirect to ${show(denied.url)} refused, never requested: ${why}`
    : why;
}
