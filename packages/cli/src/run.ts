import { CommanderError } from 'commander';
import { isCliError } from './cli-error.js';
import type { CliIo } from './context.js';
import { createContext } from './context.js';
import type { ExitCodeValue } from './exit-codes.js';
import { ExitCode } from './exit-codes.js';
import { createProgram } from './program.js';

/**
 * Runs the `polite` command line `argv` (without `node` and the script) and resolves with
 * the exit code. Never throws: every failure is one `polite: <what failed>: <why>` line on
 * stderr and an exit code (see {@link ExitCode}).
 *
 * @example
 * ```ts
 * process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
 * ```
 */
export async function run(argv: readonly string[], io: CliIo): Promise<ExitCodeValue> {
  const context = createContext(io);
  const program = createProgram(context);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return context.exitCode;
  } catch (error) {
    return report(error, io);
  }
}

function report(error: unknown, io: CliIo): ExitCodeValue {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
      return ExitCode.ok;
    // `polite help <command>` exits 0; help shown because no command was given (already on
    // stderr) is a usage error.
    if (error.code === 'commander.help') return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    io.stderr.write(`polite: ${oneLine(error.message.replace(/^error: /, ''))}\n`);
    return ExitCode.usage;
  }
  if (isCliError(error)) {
    io.stderr.write(`polite: ${oneLine(error.message)}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`polite: internal error: ${oneLine(message)}\n`);
  if (io.env['POLITE_DEBUG'] !== undefined && error instanceof Error && error.stack !== undefined) {
    io.stderr.write(`${error.stack}\n`);
  }
  return ExitCode.internal;
}

function oneLine(text: string): string {
  return text
    .split(/\r?\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' ');
}
