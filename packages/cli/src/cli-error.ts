import type { ExitCodeValue } from './exit-codes.js';
import { ExitCode } from './exit-codes.js';

const brand = Symbol.for('polite-crawler.cli.CliError');

/**
 * Every code a {@link CliError} carries; each is in the README's errors table.
 *
 * @example
 * ```ts
 * CLI_ERROR_CODES.includes(error.code); // true for a CliError
 * ```
 */
export const CLI_ERROR_CODES = Object.freeze([
  'ERR_ROBOTS_CLI_USAGE',
  'ERR_ROBOTS_CLI_INPUT',
] as const);

/** The stable codes of {@link CliError}. */
export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];

/**
 * A failure the CLI reports as one line, `polite: <what failed>: <why>`, and an exit code.
 * `usage` errors are the caller's command line; `input` errors are files or URLs that
 * could not be read.
 *
 * @example
 * ```ts
 * throw CliError.input('cannot read ./robots.txt', 'no such file');
 * ```
 */
export class CliError extends Error {
  override readonly name = 'CliError' as const;
  readonly code: CliErrorCode;
  /** What failed, e.g. `cannot read ./robots.txt`. */
  readonly what: string;
  /** Why, e.g. `no such file`. */
  readonly why: string;
  readonly exitCode: ExitCodeValue;

  constructor(
    code: CliErrorCode,
    what: string,
    why: string,
    options?: { readonly cause?: unknown },
  ) {
    super(`${what}: ${why}`, options);
    this.code = code;
    this.what = what;
    this.why = why;
    this.exitCode = code === 'ERR_ROBOTS_CLI_USAGE' ? ExitCode.usage : ExitCode.input;
    Object.defineProperty(this, brand, { value: true });
  }

  /** A usage error (exit code 2). */
  static usage(what: string, why: string): CliError {
    return new CliError('ERR_ROBOTS_CLI_USAGE', what, why);
  }

  /** An input error (exit code 4). */
  static input(what: string, why: string, cause?: unknown): CliError {
    return new CliError('ERR_ROBOTS_CLI_INPUT', what, why, cause === undefined ? {} : { cause });
  }
}

/**
 * Whether `value` is a {@link CliError}, also across duplicate installs.
 *
 * @example
 * ```ts
 * if (isCliError(error)) process.exitCode = error.exitCode;
 * ```
 */
export function isCliError(value: unknown): value is CliError {
  return typeof value === 'object' && value !== null && brand in value;
}
