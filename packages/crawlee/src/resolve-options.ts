import { Configuration } from '@crawlee/core';
import { RobotsInvalidOptionError } from '@polite-crawler/fetch';
import {
  PAGE_OPTIONS,
  functionOption,
  integerOption,
  oneOfOption,
  readOption,
  robotsPolicyOption,
  usageOption,
} from '@polite-crawler/fetch/internal';
import type { RobotsPolicy, UsageCategory } from '@polite-crawler/fetch';
import { CRAWLEE_OPTION_BOUNDS, DEFAULTS } from './defaults.js';
import type { BrowserGate, CrawleeEvent, NoindexHandling, PoliteCrawleeOptions } from './types.js';

/** The deprecated names of `noindex` values mapped onto fetch's. */
const NOINDEX_ALIASES: Readonly<Record<NoindexHandling | 'handle' | 'skip', NoindexHandling>> = {
  annotate: 'annotate',
  reject: 'reject',
  handle: 'annotate',
  skip: 'reject',
};

/** Adapter options after validation, every default applied. */
export interface ResolvedCrawleeOptions {
  readonly policy: RobotsPolicy;
  readonly noindex: NoindexHandling;
  /** The usage categories whose `disallowed` pages are not handed to the handler. */
  readonly skipUsage: readonly UsageCategory[];
  readonly browser: BrowserGate | undefined;
  readonly userAgent: 'policy' | 'keep';
  readonly maxRedirects: number;
  readonly maxHeadBytes: number;
  readonly maxWaitingRequests: number;
  readonly config: Configuration;
  readonly now: () => number;
  readonly onEvent: ((event: CrawleeEvent) => void) | undefined;
}

/**
 * Validates the policy and {@link PoliteCrawleeOptions} once, naming the bad option, and applies defaults.
 * @example
 * resolveCrawleeOptions(policy, { noindex: 'reject' }).maxRedirects; // 20
 */
export function resolveCrawleeOptions(
  policy: RobotsPolicy,
  options: PoliteCrawleeOptions = {},
): ResolvedCrawleeOptions {
  robotsPolicyOption('policy', policy);
  if (typeof options !== 'object' || options === null) {
    throw new RobotsInvalidOptionError('options', options, 'an object');
  }
  const { browser } = options;
  if (
    browser !== undefined &&
    (typeof browser !== 'object' ||
      browser === null ||
      typeof browser.attach !== 'function' ||
      typeof browser.robots !== 'function' ||
      typeof browser.deniedNavigation !== 'function' ||
      typeof browser.withPolicy !== 'function')
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
    config: options.config ?? Configuration.getGlobalConfig(),
    now,
    onEvent,
  };
}
