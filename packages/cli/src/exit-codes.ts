/**
 * The exit codes of the `polite` command. Each command documents which of them it uses;
 * the package README has the table.
 *
 * @example
 * ```ts
 * import { ExitCode } from '@polite-crawler/cli';
 * if (status === ExitCode.denied) console.log('some URL is disallowed');
 * ```
 */
export const ExitCode = Object.freeze({
  /** Everything went as hoped: all URLs allowed, a clean robots.txt, a page fetched. */
  ok: 0,
  /** A verdict the caller asked about is negative: a URL is denied, or lint found warnings. */
  denied: 1,
  /** lint found warnings but no errors (same value as {@link ExitCode.denied}). */
  lintWarnings: 1,
  /** The command line is wrong: unknown option, missing argument, invalid agent token or URL. */
  usage: 2,
  /** lint found at least one error-severity diagnostic. */
  lintErrors: 3,
  /** An input could not be read: missing or binary file, unreachable URL, HTTP error. */
  input: 4,
  /** A bug in polite itself (the message says so); set `POLITE_DEBUG=1` for the stack. */
  internal: 70,
} as const);

/** One of the values of {@link ExitCode}. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
