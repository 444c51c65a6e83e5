import type { Dispatcher } from 'undici';
import { RobotsInvalidOptionError } from '../errors/errors.js';
import type { Pacer } from '../pacing/pacer.js';
import type { PoliteEvent } from '../policy/events.js';
import type { RobotsStore } from '../robots/robots-store.js';
import { systemClock } from '../time/clock.js';
import type { Clock } from '../time/clock.js';
import { IDENTITY_OPTIONS } from './identity.js';
import type { OptionSpec, ValueOf } from './option-spec.js';
import { functionOption, shaped } from './validate-option.js';
import type { PageOptions, RobotsPolicyOptions } from './option-types.js';
import { usageOption } from './usage-option.js';
import { DRIVABLE_DISPATCHER } from '../transport/dispatcher-guard.js';
import { signatureOption } from '../signature/request-signer.js';
import { cacheOption } from '../transport/http-cache.js';

const DAY = 86_400_000;
/** Largest `latencyFactor`: a hundred response times between two starts is already a crawl stop. */
const MAX_LATENCY_FACTOR = 100;

/** A finite number within `[0, max]` (not only an integer), else the option's error. */
function factorOption(name: string, value: unknown, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
    throw new RobotsInvalidOptionError(name, value, `a number from 0 to ${max}`);
  }
  return value;
}

/**
 * Every option of {@link createRobotsPolicy}: its default, limits and check, in the order they
 * are read (`productToken` and `purpose` after the `userAgent`). Their meaning (and why each
 * limit) is the TSDoc of {@link RobotsPolicyOptions}, which the compiler holds this to.
 */
export const POLICY_OPTIONS = {
  ...IDENTITY_OPTIONS,
  dispatcher: shaped<Dispatcher>(['dispatch', 'compose'], DRIVABLE_DISPATCHER),
  robotsHeadersTimeout: { default: 10_000, bounds: [1, 600_000] },
  robotsBodyTimeout: { default: 10_000, bounds: [1, 600_000] },
  robotsTimeout: { default: 30_000, bounds: [1, 600_000] },
  robotsMaxBytes: { default: 512_000, bounds: [512_000, 64 * 1024 * 1024] },
  robotsMaxRedirects: { default: 5, bounds: [5, 50] },
  robotsMaxTtl: { default: DAY, bounds: [1_000, DAY] },
  robotsMinTtl: { default: 60_000, bounds: [0, DAY], atMost: 'robotsMaxTtl' },
  unreachableRetryInterval: {
    default: 60_000,
    bounds: [1_000, DAY],
    atMost: 'maxUnreachableRetryInterval',
  },
  maxUnreachableRetryInterval: { default: 3_600_000, bounds: [1_000, DAY] },
  staleIfUnreachable: { default: 2_592_000_000, bounds: [0, 365 * DAY] }, // 30 days
  treat429AsUnreachable: { default: true },
  maxOrigins: { default: 10_000, bounds: [1, 1_000_000] },
  store: shaped<RobotsStore>(['get', 'set', 'delete']),
  pacer: shaped<Pacer>(['acquire', 'pause', 'close']),
  storeTimeout: { default: 2_000, bounds: [1, 60_000] },
  concurrency: { default: 1, bounds: [1, 10_000] },
  maxBodyHold: { default: 60_000, bounds: [0, 3_600_000] },
  minInterval: { default: 1_000, bounds: [0, 3_600_000] },
  crawlDelay: { default: 'honor', allowed: ['honor', 'ignore'] },
  maxCrawlDelay: { default: 30_000, bounds: [0, 3_600_000] },
  maxRetryAfter: { default: 600_000, bounds: [0, DAY] },
  maxBackoff: { default: 60_000, bounds: [0, DAY] },
  latencyFactor: {
    default: 1,
    read: (name: string, value: unknown) => factorOption(name, value, MAX_LATENCY_FACTOR, 1),
  },
  maxTrackedOrigins: { default: 10_000, bounds: [1, 1_000_000] },
  clock: shaped<Clock, Clock>(
    ['now', 'sleep'],
    'an object with now() and sleep(ms, signal)',
    systemClock,
  ),
  onEvent: {
    read: (name: string, value: unknown) =>
      functionOption(name, value as ((event: PoliteEvent) => void) | undefined),
  },
  signature: { read: (_name: string, value: unknown) => signatureOption(value) },
} as const satisfies {
  readonly [Name in keyof RobotsPolicyOptions]-?: OptionSpec<keyof RobotsPolicyOptions>;
};

/** Every option of {@link createPoliteFetch} about the pages themselves (see {@link PageOptions}). */
export const PAGE_OPTIONS = {
  maxRedirects: { default: 20, bounds: [0, 100] },
  noindex: { default: 'annotate', allowed: ['annotate', 'reject'] },
  usage: { read: (_name: string, value: unknown) => usageOption(value) },
  scanMeta: { default: true },
  maxHeadBytes: { default: 262_144, bounds: [1_024, 16 * 1024 * 1024] },
  responseTimeout: { default: 60_000, bounds: [1, 600_000] },
  cache: { read: (_name: string, value: unknown) => cacheOption(value) },
} as const satisfies { readonly [Name in keyof PageOptions]-?: OptionSpec<keyof PageOptions> };

/** The `concurrency` of {@link RobotsPolicy.prefetch} (robots.txt fetches at a time). */
export const PREFETCH_CONCURRENCY = {
  default: 16,
  bounds: [1, 10_000],
} as const satisfies OptionSpec;

/** A table's options after reading, every default applied. */
export type ResolvedOptions<Table> = { readonly [Name in keyof Table]: ValueOf<Table[Name]> };

type Literal = number | string | boolean;
type DefaultsOf<Table> = {
  readonly [
    Name in keyof Table as Table[Name] extends { default: Literal } ? Name : never
  ]: Table[Name] extends { default: infer D } ? D : never;
};
type BoundsOf<Table> = {
  readonly [
    Name in keyof Table as Table[Name] extends { bounds: object } ? Name : never
  ]: readonly [min: number, max: number];
};

/**
 * Every default of {@link createRobotsPolicy} and {@link createPoliteFetch} that is a plain
 * value, in one frozen object derived from the option table and checked against the README.
 * Times are milliseconds.
 * @example
 * createPoliteFetch({ userAgent, minInterval: DEFAULTS.minInterval * 2 });
 */
export const DEFAULTS = Object.freeze(
  Object.fromEntries(
    Object.entries<OptionSpec>({
      ...POLICY_OPTIONS,
      prefetchConcurrency: PREFETCH_CONCURRENCY,
      ...PAGE_OPTIONS,
    })
      .filter(([, spec]) => ['number', 'string', 'boolean'].includes(typeof spec.default))
      .map(([name, spec]) => [name, spec.default]),
  ),
) as DefaultsOf<typeof POLICY_OPTIONS & typeof PAGE_OPTIONS> & {
  readonly prefetchConcurrency: typeof PREFETCH_CONCURRENCY.default;
};

/**
 * Inclusive `[min, max]` bounds of every numeric option, derived from the option table; a value
 * outside them (or not an integer) throws {@link RobotsInvalidOptionError} naming the option.
 * @example
 * const [min] = OPTION_BOUNDS.robotsMaxBytes; // 512000: RFC 9309 asks for at least 500 KiB
 */
export const OPTION_BOUNDS = Object.freeze(
  Object.fromEntries(
    Object.entries<OptionSpec>({ ...POLICY_OPTIONS, ...PAGE_OPTIONS }).flatMap(([name, spec]) =>
      'bounds' in spec ? [[name, spec.bounds]] : [],
    ),
  ),
) as BoundsOf<typeof POLICY_OPTIONS & typeof PAGE_OPTIONS>;
