import { Configuration } from '@crawlee/core';
import { RobotsInvalidOptionError } from '@polite-crawler/fetch';
import {
  PAGE_OPTIONS,
  cacheSetting,
  functionOption,
  integerOption,
  oneOfOption,
  readOption,
  refuseUnknownOptions,
  robotsPolicyOption,
  usageOption,
} from '@polite-crawler/fetch/internal';
import type { RobotsPolicy } from '@polite-crawler/fetch';
import { CRAWLEE_OPTION_BOUNDS, DEFAULTS } from './defaults.js';
import type { DeprecatedNoindexHandling, NoindexHandling, PoliteCrawleeOptions } from './types.js';

/** The deprecated names of `noindex` values mapped onto fetch's. */
const NOINDEX_ALIASES: Readonly<
  Record<NoindexHandling | DeprecatedNoindexHandling, NoindexHandling>
> = {
  annotate: 'annotate',
  reject: 'reject',
  handle: 'annotate',
  skip: 'reject',
};

const GATE_METHODS = ['attach', 'robots', 'deniedNavigation', 'withPolicy'] as const;

/** Every option of {@link PoliteCrawleeOptions} (the compiler checks the list is complete). */
const OPTION_NAMES = Object.keys({
  noindex: true,
  usage: true,
  browser: true,
  userAgent: true,
  maxRedirects: true,
  maxHeadBytes: true,
  maxWaitingRequests: true,
  cache: true,
  config: true,
  now: true,
  onEvent: true,
} satisfies Record<keyof PoliteCrawleeOptions, true>);

/** Adapter options after validation, every default applied. */
export type ResolvedCrawleeOptions = ReturnType<typeof resolveCrawleeOptions>;

/**
 * Validates the policy and {@link PoliteCrawleeOptions} once, naming the bad option, and applies defaults.
 * @example
 * resolveCrawleeOptions(policy, { noindex: 'reject' }).maxRedirects; // 20
 */
export function resolveCrawleeOptions(policy: RobotsPolicy, options: PoliteCrawleeOptions = {}) {
  robotsPolicyOption('policy', policy);
  if (typeof options !== 'object' || options === null) {
    throw new RobotsInvalidOptionError('options', options, 'an object');
  }
  refuseUnknownOptions(options, OPTION_NAMES, 'politeCrawlee');
  const { browser } = options;
  if (
    browser !== undefined &&
    (typeof browser !== 'object' ||
      browser === null ||
      GATE_METHODS.some((method) => typeof browser[method] !== 'function'))
  ) {
    throw new RobotsInvalidOptionError('browser', browser, 'a gate from createPlaywrightGate()');
  }
  const now = functionOption('now', options.now) ?? ((): number => policy.clock.now());
  const onEvent = functionOption('onEvent', options.onEvent);
  return {
    policy,
    noindex:
      NOINDEX_ALIASES[
        oneOfOption(
          'noindex',
          options.noindex,
          ['annotate', 'reject', 'handle', 'skip'],
          DEFAULTS.noindex,
        )
      ],
    skipUsage: usageOption(options.usage),
    browser,
    userAgent: oneOfOption('userAgent', options.userAgent, ['policy', 'keep'], DEFAULTS.userAgent),
    maxRedirects: readOption('maxRedirects', PAGE_OPTIONS.maxRedirects, options.maxRedirects),
    maxHeadBytes: readOption('maxHeadBytes', PAGE_OPTIONS.maxHeadBytes, options.maxHeadBytes),
    maxWaitingRequests: integerOption(
      'maxWaitingRequests',
      options.maxWaitingRequests,
      CRAWLEE_OPTION_BOUNDS.maxWaitingRequests,
      DEFAULTS.maxWaitingRequests,
    ),
    // Left out, no cache (see `PoliteCrawleeOptions.cache` for why); `true` is fetch's bounded store.
    cache: cacheSetting(options.cache ?? DEFAULTS.cache),
    config: options.config ?? Configuration.getGlobalConfig(),
    now,
    onEvent,
  };
}
