import { Option } from 'commander';
import { CLI_DEFAULTS } from './defaults.js';
import { intOption } from './int-option.js';

/**
 * The `--timeout <ms>` option: time allowed to fetch one robots.txt, redirects included.
 */
export function timeoutOption(): Option {
  return new Option('--timeout <ms>', 'milliseconds allowed to fetch robots.txt')
    .argParser(intOption(1, CLI_DEFAULTS.requestTimeoutLimitMs))
    .default(CLI_DEFAULTS.requestTimeoutMs);
}
