import { IGNORED_KEYS } from './directive-keys.js';
import type { Diagnostic, DiagnosticCode, DiagnosticSeverity } from './types.js';

/**
 * Severity of every diagnostic code: `error` — the line has no effect as written (it is
 * ignored or can never match); `warning` — accepted, but non-standard or read differently
 * by other parsers; `info` — harmless.
 * @example
 * DIAGNOSTIC_SEVERITY['rule-outside-group']; // 'error'
 */
export const DIAGNOSTIC_SEVERITY = Object.freeze({
  'unknown-key': 'warning',
  'ignored-key': 'info',
  'rule-outside-group': 'error',
  'accepted-typo': 'warning',
  'missing-colon': 'warning',
  'invalid-product-token': 'warning',
  'invalid-purpose-token': 'warning',
  'empty-value': 'warning',
  'invalid-crawl-delay': 'error',
  'invalid-sitemap-url': 'error',
  'pattern-not-starting-with-slash': 'error',
  'line-too-long': 'warning',
  'input-truncated': 'warning',
  'invalid-utf8': 'warning',
  'byte-order-mark': 'info',
  'unparseable-line': 'error',
  'too-many-diagnostics': 'info',
  'invalid-usage-value': 'error',
  'unknown-usage-value': 'warning',
  'empty-usage-statement': 'warning',
  'usage-path-disallowed': 'error',
} satisfies Record<string, DiagnosticSeverity>);

/** The codes in a fixed order: the scanner's log names a code by its place here. */
export const DIAGNOSTIC_CODES: readonly DiagnosticCode[] = Object.freeze(
  Object.keys(DIAGNOSTIC_SEVERITY) as DiagnosticCode[],
);

function message(code: DiagnosticCode, detail: string | undefined): string {
  const d = detail ?? '';
  switch (code) {
    case 'unknown-key':
      return `Unknown key "${d}": the line is ignored.`;
    case 'ignored-key':
      return `"${d}" is known and ignored: ${IGNORED_KEYS[d] ?? 'not part of RFC 9309'}.`;
    case 'rule-outside-group':
      return `"${d}" before any user-agent line: the line is ignored (RFC 9309 §2.2.2).`;
    case 'accepted-typo':
      return `"${d}": a misspelling, read as intended.`;
    case 'missing-colon':
      return `No ":" after "${d}"; the space is read as the separator.`;
    case 'invalid-product-token':
      return d === ''
        ? 'The user-agent value has no product token (A-Z a-z _ -): the line names no crawler.'
        : `The user-agent value is not a product token; it is read as "${d}".`;
    case 'invalid-purpose-token':
      return d === ''
        ? 'The user-agent-purpose value has no purpose token (A-Z a-z 0-9 _ -): the line names no purpose.'
        : `The user-agent-purpose value is not a purpose token; it is read as "${d}".`;
    case 'empty-value':
      return `"${d}" has no value: the line names nothing.`;
    case 'invalid-crawl-delay':
      return `Crawl-delay "${d}" is not a non-negative number of seconds: the line is ignored.`;
    case 'invalid-sitemap-url':
      return `Sitemap "${d}" is not an absolute URL: the line is ignored.`;
    case 'pattern-not-starting-with-slash':
      return `Pattern "${d}" starts with neither "/" nor "*": it can never match a path.`;
    case 'line-too-long':
      return `The line is ${d} bytes long; it is read in full, but Google's parser cuts lines after 16663 bytes.`;
    case 'input-truncated':
      return `The file is larger than the limit of ${d} bytes: this line and the rest are ignored.`;
    case 'invalid-utf8':
      return 'The file is not valid UTF-8 (RFC 9309 §2.3): its non-ASCII octets are matched as they are, percent-encoded.';
    case 'byte-order-mark':
      return d === '3'
        ? 'A UTF-8 byte-order mark starts the file; it is skipped.'
        : `The file starts with ${d} byte(s) of a UTF-8 byte-order mark; they are skipped.`;
    case 'unparseable-line':
      return 'The line is not "key: value": it is ignored.';
    case 'too-many-diagnostics':
      return `More than ${d} diagnostics: the rest are not reported.`;
    case 'invalid-usage-value':
      return `Usage preference "${d}" is not a Structured Fields Dictionary (RFC 9651): every preference of the rule is unknown (vocab §6.5.1).`;
    case 'unknown-usage-value':
      return `The value of ${d} is not one of its two Tokens (y/n for Content-Usage, yes/no for Content-Signal): that preference is unknown.`;
    case 'empty-usage-statement':
      return d === ''
        ? 'The rule has no usage preference: an empty statement, so every preference is unknown for every path it is the longest match of.'
        : `Path "${d}" has no usage preference after it: an empty statement, so every preference is unknown for it.`;
    case 'usage-path-disallowed': {
      const at = d.lastIndexOf(' ');
      return `The group disallows every path of "${d.slice(0, at)}" (line ${d.slice(at + 1)}): the rule can never apply (attach §3.1).`;
    }
  }
}

/**
 * `log` with the `count`-th diagnostic (0-based) of a file added: the one at `max` becomes
 * `too-many-diagnostics`, later ones are dropped. The detail is cut at 60 characters.
 */
export function logDiagnostic(
  log: string | undefined,
  count: number,
  max: number,
  line: number,
  code: DiagnosticCode,
  detail = '',
): string | undefined {
  if (count > max) return log;
  const d = count === max ? String(max) : detail.length > 60 ? detail.slice(0, 60) + '…' : detail;
  const number = DIAGNOSTIC_CODES.indexOf(count === max ? 'too-many-diagnostics' : code);
  return (log ?? '') + `${line}\t${number}\t${d}\n`;
}

/**
 * The public {@link Diagnostic} objects of a file's log (one line per diagnostic:
 * `line<TAB>code number<TAB>detail`, the detail quoted by the message), sorted by line. Messages
 * and severities are made here, when `diagnostics` is first read, not while parsing.
 */
export function materializeDiagnostics(log: string | undefined): readonly Diagnostic[] {
  const out: Diagnostic[] = [];
  if (log !== undefined) {
    for (const entry of log.slice(0, -1).split('\n')) {
      const first = entry.indexOf('\t');
      const second = entry.indexOf('\t', first + 1);
      const code = DIAGNOSTIC_CODES[Number(entry.slice(first + 1, second))]!;
      out.push(
        Object.freeze({
          line: Number(entry.slice(0, first)),
          code,
          severity: DIAGNOSTIC_SEVERITY[code],
          message: message(code, entry.slice(second + 1)),
        }),
      );
    }
  }
  out.sort((a, b) => a.line - b.line);
  return Object.freeze(out);
}
