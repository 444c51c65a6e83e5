import { RobotsInvalidOptionError } from '@polite-crawler/fetch';
import {
  PAGE_OPTIONS,
  cacheSetting,
  functionOption,
  oneOfOption,
  readOption,
  refuseUnknownOptions,
  robotsPolicyOption,
} from '@polite-crawler/fetch/internal';
import { DEFAULTS } from './defaults.js';
import type { PlaywrightGateOptions } from './types.js';

/** Every option of {@link PlaywrightGateOptions} (the compiler checks the list is complete). */
const OPTION_NAMES = Object.keys({
  policy: true,
  maxRedirects: true,
  userAgent: true,
  pace: true,
  metas: true,
  maxHeadBytes: true,
  cache: true,
  onEvent: true,
} satisfies Record<keyof PlaywrightGateOptions, true>);

/** Gate options after validation, every default applied. */
export type ResolvedGateOptions = ReturnType<typeof resolveGateOptions>;

/**
 * Validates {@link PlaywrightGateOptions} once, naming the bad option, and applies defaults.
 * @example
 * resolveGateOptions({ policy, maxRedirects: 5 }).pace; // 'all'
 */
export function resolveGateOptions(options: PlaywrightGateOptions) {
  if (typeof options !== 'object' || options === null) {
    throw new RobotsInvalidOptionError('options', options, 'an object with a policy');
  }
  refuseUnknownOptions(options, OPTION_NAMES, 'createPlaywrightGate');
  const policy = robotsPolicyOption('policy', options.policy);
  const onEvent = functionOption('onEvent', options.onEvent);
  return {
    policy,
    maxRedirects: readOption('maxRedirects', PAGE_OPTIONS.maxRedirects, options.maxRedirects),
    userAgent: oneOfOption(
      'userAgent',
      options.userAgent,
      ['policy', 'browser'],
      DEFAULTS.userAgent,
    ),
    pace: oneOfOption('pace', options.pace, ['all', 'documents'], DEFAULTS.pace),
    metas: oneOfOption('metas', options.metas, ['served', 'rendered', 'both'], DEFAULTS.metas),
    maxHeadBytes: readOption('maxHeadBytes', PAGE_OPTIONS.maxHeadBytes, options.maxHeadBytes),
    cache: cacheSetting(options.cache ?? DEFAULTS.cache),
    onEvent,
  };
}
