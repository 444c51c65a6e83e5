import type {
  Diagnostic,
  DiagnosticSeverity,
  RobotsTxtLineReport,
} from '@polite-crawler/robots-txt';
import type { LoadedRobots, RobotsTxtInfo } from '../robots-source.js';
import { quoteLine } from './describe-verdict.js';
import type { Style } from './style.js';
import { renderTable } from './table.js';
import { plural } from './plural.js';

/** One diagnostic in `polite lint --json`. */
export interface LintDiagnosticJson {
  /** 1-based line number in robots.txt. */
  readonly line: number;
  readonly severity: DiagnosticSeverity;
  /** A stable code, documented in the robots-txt package README. */
  readonly code: string;
  readonly message: string;
  /** The line as written (trimmed), or null when not available. */
  readonly text: string | null;
}

/** The shape of `polite lint --json`. */
export interface LintJson {
  readonly robotsTxt: RobotsTxtInfo;
  /** Every diagnostic, ordered by line. */
  readonly diagnostics: readonly LintDiagnosticJson[];
  readonly summary: {
    readonly errors: number;
    readonly warnings: number;
    readonly infos: number;
    /** Sitemap URLs the file lists. */
    readonly sitemaps: readonly string[];
  };
}

const SEVERITY_ORDER: Record<DiagnosticSeverity, number> = { error: 0, warning: 1, info: 2 };

function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      a.line - b.line ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.code.localeCompare(b.code),
  );
}

/**
 * The `--json` document of `lint`: the line report's diagnostics, each with the text of its
 * line as the parser read it.
 */
export function lintJson(loaded: LoadedRobots<RobotsTxtLineReport>): LintJson {
  const { parsed } = loaded;
  const diagnostics = sortDiagnostics(parsed.diagnostics).map((diagnostic) => ({
    line: diagnostic.line,
    severity: diagnostic.severity,
    code: diagnostic.code,
    message: diagnostic.message,
    text: parsed.lines[diagnostic.line - 1]?.text.trim() ?? null,
  }));
  const count = (severity: DiagnosticSeverity): number =>
    diagnostics.filter((diagnostic) => diagnostic.severity === severity).length;
  return {
    robotsTxt: loaded.info,
    diagnostics,
    summary: {
      errors: count('error'),
      warnings: count('warning'),
      infos: count('info'),
      sitemaps: parsed.sitemaps,
    },
  };
}

/**
 * The text report of `lint`: one row per diagnostic (line, severity, code, message, and the
 * line quoted), then a one-line summary.
 */
export function formatLint(report: LintJson, style: Style): string {
  const paint = (severity: DiagnosticSeverity): string =>
    severity === 'error'
      ? style.red(severity)
      : severity === 'warning'
        ? style.yellow(severity)
        : style.cyan(severity);
  const lines: string[] = [];
  const info = report.robotsTxt;
  const where =
    info.source === 'file' ? info.location : `${info.location} (HTTP ${info.httpStatus ?? '?'})`;
  lines.push(style.bold(where));
  if (report.diagnostics.length > 0) {
    const rows = report.diagnostics.flatMap((diagnostic) => {
      const row = [
        `  ${diagnostic.line}`,
        paint(diagnostic.severity),
        diagnostic.code,
        diagnostic.message,
      ];
      return diagnostic.text === null || diagnostic.text === ''
        ? [row]
        : [row, ['', '', '', style.dim(`| ${quoteLine({ text: diagnostic.text })}`)]];
    });
    lines.push(renderTable(rows));
  }
  const { errors, warnings, infos, sitemaps } = report.summary;
  const total = errors + warnings + infos;
  const counts = `${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')}`;
  const size = `${plural(info.bytes, 'byte')}${info.truncated ? ' parsed (truncated)' : ''}, ${plural(sitemaps.length, 'sitemap')}`;
  lines.push('');
  lines.push(
    total === 0
      ? `${style.green('no problems')} (${size})`
      : `${plural(total, 'problem')}: ${counts} (${size})`,
  );
  return `${lines.join('\n')}\n`;
}
