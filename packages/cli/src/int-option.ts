import { InvalidArgumentError, Option } from 'commander';
import { CLI_DEFAULTS } from './defaults.js';

/**
 * A commander argument parser for an integer option between `min` and `max`; anything else
 * is a usage error naming the accepted range.
 *
 * @example
 * ```ts
 * command.option('--max-pages <n>', 'pages to fetch', intOption(1, 100_000), 50);
 * ```
 */
export function intOption(min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value.trim()))
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    const parsed = Number(value.trim());
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    }
    return parsed;
  };
}

/** A time limit in ms, from 1 to {@link CLI_DEFAULTS.requestTimeoutLimitMs}. */
const timeLimit = (flags: string, description: string, defaultMs: number): Option =>
  new Option(flags, description)
    .argParser(intOption(1, CLI_DEFAULTS.requestTimeoutLimitMs))
    .default(defaultMs);

/** The `--timeout <ms>` option: time allowed to fetch one robots.txt, redirects included. */
export const timeoutOption = (): Option =>
  timeLimit(
    '--timeout <ms>',
    'milliseconds allowed to fetch robots.txt',
    CLI_DEFAULTS.requestTimeoutMs,
  );

/** The `--page-timeout <ms>` option of `fetch` and `crawl` (see `pageDispatcher`). */
export const pageTimeoutOption = (): Option =>
  timeLimit(
    '--page-timeout <ms>',
    'milliseconds a request may take from being sent to its last byte',
    CLI_DEFAULTS.pageTimeoutMs,
  );
