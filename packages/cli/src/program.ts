import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerCheckCommand } from './commands/check.js';
import { registerCrawlCommand } from './commands/crawl.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerExplainCommand } from './commands/explain.js';
import { registerFetchCommand } from './commands/fetch.js';
import { registerKeysCommand } from './commands/keys.js';
import { registerLintCommand } from './commands/lint.js';
import type { CliContext } from './context.js';
import { ExitCode } from './exit-codes.js';

function packageVersion(): string {
  try {
    const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
    const parsed = JSON.parse(text) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * The `polite` command with all its subcommands, writing to `context`'s streams. Commander
 * errors are thrown (not printed, not exiting) so that {@link run} reports them in one line.
 *
 * @example
 * ```ts
 * const program = createProgram(createContext({ stdout: process.stdout, stderr: process.stderr, env: process.env }));
 * await program.parseAsync(['lint', 'robots.txt'], { from: 'user' });
 * ```
 */
export function createProgram(context: CliContext): Command {
  const program = new Command('polite')
    .description(
      'Check URLs against robots.txt, explain verdicts, lint robots.txt files, and fetch or crawl politely.',
    )
    .version(packageVersion(), '-V, --version')
    .exitOverride()
    .showSuggestionAfterError()
    .configureOutput({
      writeOut: (text) => void context.stdout.write(text),
      writeErr: (text) => void context.stderr.write(text),
      // run() prints errors itself, as one `polite: …` line.
      outputError: () => undefined,
      getOutHasColors: () => context.out.enabled,
      getErrHasColors: () => context.err.enabled,
    })
    .addHelpText(
      'after',
      `
Exit codes:
  ${ExitCode.ok}   success (all allowed, clean robots.txt, page fetched)
  ${ExitCode.denied}   a URL is denied by robots.txt; lint: warnings
  ${ExitCode.usage}   usage error (bad option, URL or agent token)
  ${ExitCode.lintErrors}   lint: errors
  ${ExitCode.input}   an input could not be read (file, URL, network)
  ${ExitCode.internal}  internal error (a bug; POLITE_DEBUG=1 prints the stack)`,
    );
  registerCheckCommand(program, context);
  registerExplainCommand(program, context);
  registerLintCommand(program, context);
  registerFetchCommand(program, context);
  registerCrawlCommand(program, context);
  registerDemoCommand(program, context);
  registerKeysCommand(program, context);
  return program;
}
