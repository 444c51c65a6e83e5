import { reportRobotsTxtLines } from '@polite-crawler/robots-txt';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { formatLint, lintJson } from '../output/format-lint.js';
import { writeJson } from '../output/write-json.js';
import { loadRobots } from '../robots-source.js';
import { timeoutOption } from '../int-option.js';

interface LintOptionValues {
  readonly json?: boolean;
  readonly userAgent: string;
  readonly timeout: number;
}

/**
 * Registers `polite lint <file|url> [--json]`: every parser diagnostic with its line.
 * Exit code 0 when clean or info only, 1 with warnings, 3 with errors.
 */
export function registerLintCommand(program: Command, context: CliContext): void {
  program
    .command('lint')
    .description('list every problem in a robots.txt file, with line numbers')
    .argument('<file|url>', 'a robots.txt file, or an http(s) URL to fetch it from')
    .option(
      '-u, --user-agent <string>',
      'the User-Agent header sent when fetching a URL',
      'polite-crawler-cli',
    )
    .addOption(timeoutOption())
    .option('--json', 'print a JSON document instead of text')
    .action(async (spec: string, options: LintOptionValues) => {
      const report = lintJson(
        await loadRobots(
          spec,
          { userAgent: options.userAgent, timeoutMs: options.timeout },
          reportRobotsTxtLines,
        ),
      );
      if (options.json === true) writeJson(context.stdout, report);
      else context.stdout.write(formatLint(report, context.out));
      context.exitCode =
        report.summary.errors > 0
          ? ExitCode.lintErrors
          : report.summary.warnings > 0
            ? ExitCode.lintWarnings
            : ExitCode.ok;
    });
}
