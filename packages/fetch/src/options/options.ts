import { isValidProductToken } from '@polite-crawler/robots-txt';
import { RobotsInvalidOptionError } from '../errors/errors.js';
import { systemClock } from '../time/clock.js';
import { booleanOption, functionOption, integerOption, oneOfOption } from './validate-option.js';
import type { Clock } from '../time/clock.js';
import type { PageOptions, RobotsPolicyOptions } from './option-types.js';
import type { UsageCategory } from '@polite-crawler/robots-tag';
import type { PoliteEvent } from '../policy/events.js';
import type { RobotsStore } from '../robots/robots-store.js';
import type { Dispatcher } from 'undici';
import type { Pacer } from '../pacing/pacer.js';

/** The brand `@polite-crawler/redis` puts on a fleet's store and pacer (its fleet id). */
const FLEET_BRAND = Symbol.for('polite-crawler.fleet');

/**
 * Every default of {@link createRobotsPolicy} and {@link createPoliteFetch}, in one frozen
 * object used by the code and the README alike. Times are milliseconds.
 * @example
 * createPoliteFetch({ userAgent, minInterval: DEFAULTS.minInterval * 2 });
 */
export const DEFAULTS = Object.freeze({
  robotsHeadersTimeout: 10_000,
  robotsBodyTimeout: 10_000,
  robotsTimeout: 30_000,
  /** RFC 9309 §2.5: at least 500 KiB. */
  robotsMaxBytes: 512_000,
  /** RFC 9309 §2.3.1.2: at least five consecutive redirects. */
  robotsMaxRedirects: 5,
  /** RFC 9309 §2.4: no longer than 24 hours. */
  robotsMaxTtl: 86_400_000,
  robotsMinTtl: 60_000,
  unreachableRetryInterval: 60_000,
  maxUnreachableRetryInterval: 3_600_000,
  /** 30 days. */
  staleIfUnreachable: 2_592_000_000,
  treat429AsUnreachable: true,
  maxOrigins: 10_000,
  /** A shared store slower than this counts as empty for that call. */
  storeTimeout: 2_000,
  concurrency: 1,
  minInterval: 1_000,
  crawlDelay: 'honor',
  maxCrawlDelay: 30_000,
  maxRetryAfter: 600_000,
  maxTrackedOrigins: 10_000,
  prefetchConcurrency: 16,
  maxRedirects: 20,
  noindex: 'annotate',
  scanMeta: true,
  maxHeadBytes: 262_144,
} as const);

/**
 * Inclusive `[min, max]` bounds of every numeric option; a value outside them (or not an
 * integer) throws {@link RobotsInvalidOptionError} naming the option.
 * @example
 * const [min] = OPTION_BOUNDS.robotsMaxBytes; // 512000: RFC 9309 asks for at least 500 KiB
 */
export const OPTION_BOUNDS = Object.freeze({
  robotsHeadersTimeout: [1, 600_000],
  robotsBodyTimeout: [1, 600_000],
  robotsTimeout: [1, 600_000],
  robotsMaxBytes: [DEFAULTS.robotsMaxBytes, 64 * 1024 * 1024],
  robotsMaxRedirects: [5, 50],
  robotsMaxTtl: [1_000, DEFAULTS.robotsMaxTtl],
  robotsMinTtl: [0, DEFAULTS.robotsMaxTtl],
  unreachableRetryInterval: [1_000, 86_400_000],
  maxUnreachableRetryInterval: [1_000, 86_400_000],
  staleIfUnreachable: [0, 365 * 86_400_000],
  maxOrigins: [1, 1_000_000],
  storeTimeout: [1, 60_000],
  concurrency: [1, 10_000],
  minInterval: [0, 3_600_000],
  maxCrawlDelay: [0, 3_600_000],
  maxRetryAfter: [0, 86_400_000],
  maxTrackedOrigins: [1, 1_000_000],
  maxRedirects: [0, 100],
  maxHeadBytes: [1_024, 16 * 1024 * 1024],
} as const satisfies Record<string, readonly [number, number]>);

type NumericOption = keyof typeof OPTION_BOUNDS;

/**
 * Policy options after validation, every default applied.
 * @example
 * const { productToken, concurrency }: ResolvedPolicyOptions = resolvePolicyOptions({ userAgent });
 */
export interface ResolvedPolicyOptions {
  readonly userAgent: string;
  readonly productToken: string;
  readonly purpose: string | undefined;
  readonly dispatcher: Dispatcher | undefined;
  readonly robotsHeadersTimeout: number;
  readonly robotsBodyTimeout: number;
  readonly robotsTimeout: number;
  readonly robotsMaxBytes: number;
  readonly robotsMaxRedirects: number;
  readonly robotsMaxTtl: number;
  readonly robotsMinTtl: number;
  readonly unreachableRetryInterval: number;
  readonly maxUnreachableRetryInterval: number;
  readonly staleIfUnreachable: number;
  readonly treat429AsUnreachable: boolean;
  readonly maxOrigins: number;
  readonly store: RobotsStore | undefined;
  readonly pacer: Pacer | undefined;
  readonly storeTimeout: number;
  readonly concurrency: number;
  readonly minInterval: number;
  readonly crawlDelay: 'honor' | 'ignore';
  readonly maxCrawlDelay: number;
  readonly maxRetryAfter: number;
  readonly maxTrackedOrigins: number;
  readonly clock: Clock;
  readonly onEvent: ((event: PoliteEvent) => void) | undefined;
}

/**
 * Page options after validation.
 * @example
 * const { maxRedirects }: ResolvedPageOptions = resolvePageOptions({});
 */
export interface ResolvedPageOptions {
  readonly maxRedirects: number;
  readonly noindex: 'annotate' | 'reject';
  /** The categories whose `disallowed` pages are rejected (empty: annotate only). */
  readonly rejectUsage: readonly UsageCategory[];
  readonly scanMeta: boolean;
  readonly maxHeadBytes: number;
}

function numberOption(options: object, name: NumericOption): number {
  const value: unknown = (options as Record<string, unknown>)[name];
  return integerOption(name, value, OPTION_BOUNDS[name], DEFAULTS[name]);
}

const USAGE_CATEGORIES: readonly UsageCategory[] = ['train-ai', 'search'];

/**
 * The `usage` option: an object whose keys are vocabulary categories and whose values are
 * `'annotate'` or `'reject'`; the categories to reject. An unknown category is refused (a typo
 * would otherwise silently annotate only).
 * @example
 * usageOption({ 'train-ai': 'reject' }); // ['train-ai']
 */
export function usageOption(value: unknown): readonly UsageCategory[] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RobotsInvalidOptionError(
      'usage',
      value,
      "an object such as { 'train-ai': 'reject' }",
    );
  }
  const rejected: UsageCategory[] = [];
  for (const [key, action] of Object.entries(value)) {
    if (!(USAGE_CATEGORIES as readonly string[]).includes(key)) {
      throw new RobotsInvalidOptionError(
        'usage',
        value,
        `categories ${USAGE_CATEGORIES.map((c) => `'${c}'`).join(', ')} only (not '${key}')`,
      );
    }
    if (oneOfOption(`usage.${key}`, action, ['annotate', 'reject'], 'annotate') === 'reject') {
      rejected.push(key as UsageCategory);
    }
  }
  return Object.freeze(rejected);
}

/**
 * The product token a User-Agent names when it names exactly one product: the part before
 * `/` of its only product (comments in parentheses are ignored). `undefined` when ambiguous
 * (`Mozilla/5.0 (…) ExampleBot/1.0`), browser-compatible (`Mozilla/5.0 (compatible; ExampleBot/1.0)`,
 * where the crawler is named inside the comment) or not a valid token.
 * @example
 * deriveProductToken('ExampleBot/1.0 (+https://example.com/bot)'); // 'ExampleBot'
 */
export function deriveProductToken(userAgent: string): string | undefined {
  let depth = 0;
  let outside = '';
  for (const char of userAgent) {
    if (char === '(') depth += 1;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) outside += char;
  }
  const products = outside.split(/[ \t]+/).filter((part) => part.length > 0);
  if (products.length !== 1) return undefined;
  const name = products[0]!.split('/')[0]!;
  // `Mozilla/5.0 (compatible; ExampleBot/1.0; …)` names the crawler inside the comment.
  if (name.toLowerCase() === 'mozilla') return undefined;
  return isValidProductToken(name) ? name : undefined;
}

// Field-value per RFC 9110 §5.5: visible ASCII, spaces and tabs (obs-text is refused too).
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/;
const PURPOSE_TOKEN = /^[A-Za-z0-9_-]+$/;

/**
 * Validates and completes {@link RobotsPolicyOptions}; throws {@link RobotsInvalidOptionError}
 * naming the first bad option.
 * @example
 * const resolved = resolvePolicyOptions({ userAgent: 'ExampleBot/1.0' }); // resolved.productToken === 'ExampleBot'
 */
export function resolvePolicyOptions(options: RobotsPolicyOptions): ResolvedPolicyOptions {
  if (typeof options !== 'object' || options === null) {
    throw new RobotsInvalidOptionError('options', options, 'an object');
  }
  const { userAgent } = options as { userAgent: unknown };
  if (typeof userAgent !== 'string' || userAgent.length > 1_024 || !HEADER_VALUE.test(userAgent)) {
    throw new RobotsInvalidOptionError(
      'userAgent',
      userAgent,
      'a non-empty header value of at most 1024 visible ASCII characters',
    );
  }
  const given: unknown = options.productToken;
  let productToken: string;
  if (given === undefined) {
    const derived = deriveProductToken(userAgent);
    if (derived === undefined) {
      throw new RobotsInvalidOptionError(
        'productToken',
        given,
        'required when userAgent does not name exactly one product (e.g. "ExampleBot/1.0 (+https://…)")',
      );
    }
    productToken = derived;
  } else {
    if (typeof given !== 'string' || !isValidProductToken(given)) {
      throw new RobotsInvalidOptionError(
        'productToken',
        given,
        'a product token of letters, "_" and "-" (RFC 9309 §2.2.1)',
      );
    }
    if (!userAgent.toLowerCase().includes(given.toLowerCase())) {
      throw new RobotsInvalidOptionError(
        'productToken',
        given,
        'a case-insensitive substring of userAgent',
      );
    }
    productToken = given;
  }
  const purpose: unknown = options.purpose;
  if (purpose !== undefined) {
    if (typeof purpose !== 'string' || !PURPOSE_TOKEN.test(purpose)) {
      throw new RobotsInvalidOptionError(
        'purpose',
        purpose,
        'a purpose token of letters, digits, "_" and "-"',
      );
    }
    if (!userAgent.toLowerCase().includes(purpose.toLowerCase())) {
      throw new RobotsInvalidOptionError(
        'purpose',
        purpose,
        'a substring of userAgent (draft-illyes-rep-purpose)',
      );
    }
  }
  const dispatcher: unknown = options.dispatcher;
  if (
    dispatcher !== undefined &&
    (typeof dispatcher !== 'object' ||
      dispatcher === null ||
      typeof (dispatcher as Dispatcher).dispatch !== 'function')
  ) {
    throw new RobotsInvalidOptionError('dispatcher', dispatcher, 'an undici Dispatcher');
  }
  const store: unknown = options.store;
  if (
    store !== undefined &&
    (typeof store !== 'object' ||
      store === null ||
      typeof (store as RobotsStore).get !== 'function' ||
      typeof (store as RobotsStore).set !== 'function' ||
      typeof (store as RobotsStore).delete !== 'function')
  ) {
    throw new RobotsInvalidOptionError(
      'store',
      store,
      'an object with get, set and delete methods',
    );
  }
  const pacer: unknown = options.pacer;
  if (
    pacer !== undefined &&
    (typeof pacer !== 'object' ||
      pacer === null ||
      typeof (pacer as Pacer).acquire !== 'function' ||
      typeof (pacer as Pacer).pause !== 'function' ||
      typeof (pacer as Pacer).close !== 'function')
  ) {
    throw new RobotsInvalidOptionError(
      'pacer',
      pacer,
      'an object with acquire, pause and close methods',
    );
  }
  // A fleet's pacer and store go together (`...fleet.policyOptions`): a store of one's own
  // beside a fleet pacer (or the reverse) would share pacing but not robots.txt, or the reverse.
  const fleetOf = (value: unknown): unknown =>
    typeof value === 'object' && value !== null
      ? (value as Record<symbol, unknown>)[FLEET_BRAND]
      : undefined;
  if (fleetOf(pacer) !== fleetOf(store)) {
    throw new RobotsInvalidOptionError(
      'store',
      store,
      "the fleet's own store with the fleet's pacer (spread ...fleet.policyOptions and pass no store of your own)",
    );
  }
  const clock: unknown = options.clock;
  if (
    clock !== undefined &&
    (typeof clock !== 'object' ||
      clock === null ||
      typeof (clock as Clock).now !== 'function' ||
      typeof (clock as Clock).sleep !== 'function')
  ) {
    throw new RobotsInvalidOptionError(
      'clock',
      clock,
      'an object with now() and sleep(ms, signal)',
    );
  }
  const onEvent = functionOption('onEvent', options.onEvent);
  // Of each pair, the one left out defaults to what fits the one given (a lower robotsMaxTtl
  // lowers the default robotsMinTtl with it); two given that contradict each other are refused.
  const robotsMaxTtl = numberOption(options, 'robotsMaxTtl');
  const robotsMinTtl =
    options.robotsMinTtl === undefined
      ? Math.min(DEFAULTS.robotsMinTtl, robotsMaxTtl)
      : numberOption(options, 'robotsMinTtl');
  const maxUnreachableRetryInterval =
    options.maxUnreachableRetryInterval === undefined &&
    options.unreachableRetryInterval !== undefined
      ? Math.max(
          DEFAULTS.maxUnreachableRetryInterval,
          numberOption(options, 'unreachableRetryInterval'),
        )
      : numberOption(options, 'maxUnreachableRetryInterval');
  const unreachableRetryInterval =
    options.unreachableRetryInterval === undefined
      ? Math.min(DEFAULTS.unreachableRetryInterval, maxUnreachableRetryInterval)
      : numberOption(options, 'unreachableRetryInterval');
  const resolved: ResolvedPolicyOptions = {
    userAgent,
    productToken,
    purpose: purpose,
    dispatcher: dispatcher as Dispatcher | undefined,
    robotsHeadersTimeout: numberOption(options, 'robotsHeadersTimeout'),
    robotsBodyTimeout: numberOption(options, 'robotsBodyTimeout'),
    robotsTimeout: numberOption(options, 'robotsTimeout'),
    robotsMaxBytes: numberOption(options, 'robotsMaxBytes'),
    robotsMaxRedirects: numberOption(options, 'robotsMaxRedirects'),
    robotsMaxTtl,
    robotsMinTtl,
    unreachableRetryInterval,
    maxUnreachableRetryInterval,
    staleIfUnreachable: numberOption(options, 'staleIfUnreachable'),
    treat429AsUnreachable: booleanOption(
      'treat429AsUnreachable',
      options.treat429AsUnreachable,
      DEFAULTS.treat429AsUnreachable,
    ),
    maxOrigins: numberOption(options, 'maxOrigins'),
    store: store as RobotsStore | undefined,
    pacer: pacer as Pacer | undefined,
    storeTimeout: numberOption(options, 'storeTimeout'),
    concurrency: numberOption(options, 'concurrency'),
    minInterval: numberOption(options, 'minInterval'),
    crawlDelay: oneOfOption(
      'crawlDelay',
      options.crawlDelay,
      ['honor', 'ignore'],
      DEFAULTS.crawlDelay,
    ),
    maxCrawlDelay: numberOption(options, 'maxCrawlDelay'),
    maxRetryAfter: numberOption(options, 'maxRetryAfter'),
    maxTrackedOrigins: numberOption(options, 'maxTrackedOrigins'),
    clock: (clock as Clock | undefined) ?? systemClock,
    onEvent,
  };
  if (resolved.robotsMinTtl > resolved.robotsMaxTtl) {
    throw new RobotsInvalidOptionError(
      'robotsMinTtl',
      resolved.robotsMinTtl,
      `at most robotsMaxTtl (${resolved.robotsMaxTtl})`,
    );
  }
  if (resolved.unreachableRetryInterval > resolved.maxUnreachableRetryInterval) {
    throw new RobotsInvalidOptionError(
      'unreachableRetryInterval',
      resolved.unreachableRetryInterval,
      `at most maxUnreachableRetryInterval (${resolved.maxUnreachableRetryInterval})`,
    );
  }
  return resolved;
}

/**
 * Validates and completes {@link PageOptions}.
 * @example
 * resolvePageOptions({ noindex: 'reject' }).maxRedirects; // 20
 */
export function resolvePageOptions(options: PageOptions): ResolvedPageOptions {
  return {
    maxRedirects: numberOption(options, 'maxRedirects'),
    noindex: oneOfOption('noindex', options.noindex, ['annotate', 'reject'], DEFAULTS.noindex),
    rejectUsage: usageOption(options.usage),
    scanMeta: booleanOption('scanMeta', options.scanMeta, DEFAULTS.scanMeta),
    maxHeadBytes: numberOption(options, 'maxHeadBytes'),
  };
}

/**
 * Validates the `concurrency` of {@link RobotsPolicy.prefetch}.
 * @example
 * resolvePrefetchConcurrency(undefined); // 16
 */
export function resolvePrefetchConcurrency(value: unknown): number {
  return integerOption('concurrency', value, [1, 10_000], DEFAULTS.prefetchConcurrency);
}

/** Every option of {@link RobotsPolicyOptions} (checked complete by the compiler). */
const POLICY_OPTION_NAMES = Object.keys({
  userAgent: true,
  productToken: true,
  purpose: true,
  dispatcher: true,
  robotsHeadersTimeout: true,
  robotsBodyTimeout: true,
  robotsTimeout: true,
  robotsMaxBytes: true,
  robotsMaxRedirects: true,
  robotsMaxTtl: true,
  robotsMinTtl: true,
  unreachableRetryInterval: true,
  maxUnreachableRetryInterval: true,
  staleIfUnreachable: true,
  treat429AsUnreachable: true,
  maxOrigins: true,
  store: true,
  pacer: true,
  storeTimeout: true,
  concurrency: true,
  minInterval: true,
  crawlDelay: true,
  maxCrawlDelay: true,
  maxRetryAfter: true,
  maxTrackedOrigins: true,
  clock: true,
  onEvent: true,
} satisfies Record<keyof RobotsPolicyOptions, true>);

/**
 * The first option that belongs to a policy, given beside a shared `policy` (which already has
 * its own): `undefined` when there is none.
 * @example
 * policyOptionBesidePolicy({ policy, minInterval: 5 }); // 'minInterval'
 */
export function policyOptionBesidePolicy(options: object): string | undefined {
  return POLICY_OPTION_NAMES.find(
    (name) => (options as Record<string, unknown>)[name] !== undefined,
  );
}
