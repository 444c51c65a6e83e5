import type { KEY_NAMES } from './directive-keys.js';
import { parseWith } from './parse-robots-txt.js';
import type { Diagnostic, ParseOptions } from './types.js';

/**
 * The directive a line carries, by its canonical key: `user-agent`, `user-agent-purpose`,
 * `allow`, `disallow`, `sitemap`, `crawl-delay`, `host`, `content-usage`, `content-signal`;
 * `other`: known to other crawlers, ignored here; `unknown`.
 */
export type LineKey = (typeof KEY_NAMES)[number];

/** How the parser read one line. */
export interface LineReport {
  /** 1-based line number. */
  readonly line: number;
  /** The line as the parser read it, its line break excluded (what a linter quotes). */
  readonly text: string;
  /** The directive's key; `undefined` when the line has none (blank, comment, unparseable). */
  readonly key: LineKey | undefined;
  /** The key as written, trimmed. */
  readonly keyText: string | undefined;
  /** The value as written, trimmed, comment removed. */
  readonly value: string | undefined;
  /** Nothing but whitespace. */
  readonly isEmpty: boolean;
  /** Has a `#` comment. */
  readonly hasComment: boolean;
  /** Only a comment (and whitespace). */
  readonly isComment: boolean;
  /** Reads as `key: value` (or `key value`), known key or not. */
  readonly hasDirective: boolean;
  /** The key is an accepted misspelling (`useragent`, `disallaw`, `site-map`…). */
  readonly isAcceptableTypo: boolean;
  /** Longer than `PARSE_DEFAULTS.longLineBytes`. */
  readonly isLineTooLong: boolean;
  /** `key value` without the colon. */
  readonly isMissingColonSeparator: boolean;
}

/** The per-line view of a parse: what a linter or `explain` tool shows. */
export interface RobotsTxtLineReport {
  /** One entry per line, including the empty line after a final line break. */
  readonly lines: readonly LineReport[];
  readonly sitemaps: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  readonly parsedBytes: number;
  readonly truncated: boolean;
}

/**
 * Parses like {@link parseRobotsTxt} and reports how every line was read. Slower and
 * larger than a plain parse: meant for linting and tooling, not for the crawl path.
 * @example
 * const report = reportRobotsTxtLines('useragent: *\nDisallow /x\n');
 * report.lines[0]?.isAcceptableTypo; // true
 * report.lines[1]?.isMissingColonSeparator; // true
 * report.lines.length; // 3 (the empty line after the final line break counts)
 */
export function reportRobotsTxtLines(
  body: string | Uint8Array,
  options?: ParseOptions,
): RobotsTxtLineReport {
  const lines: LineReport[] = [];
  const parsed = parseWith(body, options, (line) => lines.push(Object.freeze(line)));
  return Object.freeze({
    lines: Object.freeze(lines),
    sitemaps: parsed.sitemaps,
    diagnostics: parsed.diagnostics,
    parsedBytes: parsed.parsedBytes,
    truncated: parsed.truncated,
  });
}
