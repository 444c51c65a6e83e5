import type { UsageCategory } from '@polite-crawler/robots-txt';
import { RobotsInvalidOptionError } from '../errors/errors.js';
import { PAGE_OPTIONS, POLICY_OPTIONS } from './option-table.js';
import { readOption } from './option-spec.js';
import type { OptionSpec } from './option-spec.js';
import type { ResolvedOptions } from './option-table.js';
import type { PageOptions, RobotsPolicyOptions } from './option-types.js';

/** The brand `@polite-crawler/redis` puts on a fleet's store and pacer (its fleet id). */
const FLEET_BRAND = Symbol.for('polite-crawler.fleet');

/**
 * Policy options after validation, every default applied.
 * @example
 * const { productToken, concurrency }: ResolvedPolicyOptions = resolvePolicyOptions({ userAgent });
 */
export type ResolvedPolicyOptions = ResolvedOptions<typeof POLICY_OPTIONS>;

/**
 * Page options after validation.
 * @example
 * const { maxRedirects }: ResolvedPageOptions = resolvePageOptions({});
 */
export type ResolvedPageOptions = Omit<ResolvedOptions<typeof PAGE_OPTIONS>, 'usage'> & {
  /** The categories whose `disallowed` pages are rejected (empty: annotate only). */
  readonly rejectUsage: readonly UsageCategory[];
};

/** Reads `table`'s options in order, then settles the `atMost` pairs (see {@link OptionSpec}). */
function resolveTable<Table extends Readonly<Record<string, OptionSpec>>>(
  table: Table,
  options: object,
): ResolvedOptions<Table> {
  const given = options as Record<string, unknown>;
  const resolved: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    resolved[name] = readOption(name, spec, given[name], resolved);
  }
  for (const [name, spec] of Object.entries(table)) {
    const upper = 'atMost' in spec ? spec.atMost : undefined;
    if (upper === undefined) continue;
    const [low, high] = [resolved[name] as number, resolved[upper] as number];
    if (given[name] === undefined) resolved[name] = Math.min(low, high);
    else if (given[upper] === undefined) resolved[upper] = Math.max(low, high);
    else if (low > high) {
      throw new RobotsInvalidOptionError(name, low, `at most ${upper} (${high})`);
    }
  }
  return resolved as ResolvedOptions<Table>;
}

/**
 * Validates and completes {@link RobotsPolicyOptions}; throws {@link RobotsInvalidOptionError}
 * naming the first bad option.
 * @example
 * const resolved = resolvePolicyOptions({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' }); // resolved.productToken === 'ExampleBot'
 */
export function resolvePolicyOptions(options: RobotsPolicyOptions): ResolvedPolicyOptions {
  if (typeof options !== 'object' || options === null) {
    throw new RobotsInvalidOptionError('options', options, 'an object');
  }
  const resolved = resolveTable(POLICY_OPTIONS, options);
  // A fleet's pacer and store go together (`...fleet.policyOptions`): a store of one's own
  // beside a fleet pacer (or the reverse) would share pacing but not robots.txt, or the reverse.
  const fleetOf = (value: object | undefined): unknown =>
    (value as Record<symbol, unknown> | undefined)?.[FLEET_BRAND];
  if (fleetOf(resolved.pacer) !== fleetOf(resolved.store)) {
    throw new RobotsInvalidOptionError(
      'store',
      resolved.store,
      "the fleet's own store with the fleet's pacer (spread ...fleet.policyOptions and pass no store of your own)",
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
  const { usage, ...page } = resolveTable(PAGE_OPTIONS, options);
  return { ...page, rejectUsage: usage };
}
