import { Configuration } from '@crawlee/core';
import { RobotsInvalidOptionError } from '@polite-crawler/fetch';
import type { RobotsPolicy } from '@polite-crawler/fetch';
import { BOUNDS, DEFAULTS } from './defaults.js';
import type { BrowserGate, CrawleeEvent, PoliteCrawleeOptions } from './types.js';

/** Adapter options after validation, every default applied. */
export interface ResolvedCrawleeOptions {
  readonly policy: RobotsPolicy;
  readonly noindex: 'handle' | 'skip';
  readonly browser: BrowserGate | undefined;
  readonly userAgent: 'policy' | 'keep';
  readonly maxRedirects: number;
  readonly maxHeadBytes: number;
  readonly config: Configuration;
  readonly now: () => number;
  readonly onEvent: ((event: CrawleeEvent) => void) | undefined;
}

const POLICY_METHODS = ['check', 'peek', 'schedule', 'noteResponse', 'directives'] as const;

function integerIn(name: keyof typeof BOUNDS, value: number | undefined): number {
  const [min, max] = BOUNDS[name];
  if (value === undefined) return DEFAULTS[name];
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RobotsInvalidOptionError(name, value, `an integer from ${min} to ${max}`);
  }
  return value;
}

function oneOf<T extends string>(
  name: string,
  value: T | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) {
    throw new RobotsInvalidOptionError(
      name,
      value,
      `one of ${allowed.map((v) => `'${v}'`).join(', ')}`,
    );
  }
  return value;
}

function functionOrUndefined(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') {
    throw new RobotsInvalidOptionError(name, value, 'a function');
  }
}

/**
 * Validates the policy and {@link PoliteCrawleeOptions} once, naming the bad option, and applies defaults.
 * @example
 * resolveCrawleeOptions(policy, { noindex: 'skip' }).maxRedirects; // 20
 */
export function resolveCrawleeOptions(
  policy: RobotsPolicy,
  options: PoliteCrawleeOptions = {},
): ResolvedCrawleeOptions {
  const isPolicy =
    typeof policy === 'object' &&
    policy !== null &&
    POLICY_METHODS.every(
      (method) => typeof (policy as unknown as Record<string, unknown>)[method] === 'function',
    ) &&
    typeof policy.userAgent === 'string';
  if (!isPolicy)
    throw new RobotsInvalidOptionError(
      'policy',
      policy,
      'a RobotsPolicy from createRobotsPolicy()',
    );
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
      typeof browser.deniedNavigation !== 'function')
  ) {
    throw new RobotsInvalidOptionError('browser', browser, 'a gate from createPlaywrightGate()');
  }
  functionOrUndefined('now', options.now);
  functionOrUndefined('onEvent', options.onEvent);
  return {
    policy,
    noindex: oneOf('noindex', options.noindex, ['handle', 'skip'], DEFAULTS.noindex),
    browser,
    userAgent: oneOf('userAgent', options.userAgent, ['policy', 'keep'], DEFAULTS.userAgent),
    maxRedirects: integerIn('maxRedirects', options.maxRedirects),
    maxHeadBytes: integerIn('maxHeadBytes', options.maxHeadBytes),
    config: options.config ?? Configuration.getGlobalConfig(),
    now: options.now ?? Date.now,
    onEvent: options.onEvent,
  };
}
