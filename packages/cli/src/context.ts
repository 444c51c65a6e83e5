import type { ExitCodeValue } from './exit-codes.js';
import { ExitCode } from './exit-codes.js';
import type { OutputStream, Style } from './output/style.js';
import { createStyle, wantsColor } from './output/style.js';

/** The outside world of one CLI run: where output goes and the environment. */
export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** What a command receives: the I/O, styles for each stream, and the exit code to set. */
export interface CliContext extends CliIo {
  /** Colours for stdout (off when piped, with `NO_COLOR`, …). */
  readonly out: Style;
  /** Colours for stderr. */
  readonly err: Style;
  /** The exit code the run ends with; commands set it. */
  exitCode: ExitCodeValue;
}

/**
 * A {@link CliContext} for `io`, deciding colours once per stream.
 *
 * @example
 * ```ts
 * const context = createContext({ stdout: process.stdout, stderr: process.stderr, env: process.env });
 * ```
 */
export function createContext(io: CliIo): CliContext {
  return {
    ...io,
    out: createStyle(wantsColor(io.stdout, io.env)),
    err: createStyle(wantsColor(io.stderr, io.env)),
    exitCode: ExitCode.ok,
  };
}
