import type { RobotsFetchRecord, RobotsGoodCopy, StoredRobots } from './robots-store.js';

/** How long entries of each kind may be trusted from their fetch time (the policy's limits). */
export interface StoredEntryLimits {
  readonly maxTtl: number;
  readonly maxUnreachableRetryInterval: number;
}

const STATUSES: ReadonlySet<unknown> = new Set(['ok', 'unavailable', 'unreachable']);

const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

const isStringList = (value: unknown): value is readonly string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

const isOptional = (value: unknown, type: 'string' | 'number'): boolean =>
  value === undefined || typeof value === type;

function isRecord(value: unknown): value is RobotsFetchRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<RobotsFetchRecord>;
  return (
    STATUSES.has(record.status) &&
    isTime(record.fetchedAt) &&
    isStringList(record.redirects) &&
    isOptional(record.httpStatus, 'number') &&
    isOptional(record.retryAfterMs, 'number') &&
    (record.failure === undefined ||
      (typeof record.failure === 'object' &&
        record.failure !== null &&
        typeof record.failure.kind === 'string' &&
        typeof record.failure.message === 'string'))
  );
}

function isGoodCopy(value: unknown): value is RobotsGoodCopy {
  if (typeof value !== 'object' || value === null) return false;
  const copy = value as Partial<RobotsGoodCopy>;
  return (
    typeof copy.body === 'string' &&
    typeof copy.bytes === 'number' &&
    // Bytes were read, so they were stored (entries without them are never written to a store).
    (copy.body === '') === (copy.bytes === 0) &&
    typeof copy.truncated === 'boolean' &&
    typeof copy.httpStatus === 'number' &&
    isStringList(copy.redirects) &&
    isTime(copy.fetchedAt) &&
    isOptional(copy.etag, 'string') &&
    isOptional(copy.lastModified, 'string') &&
    isOptional(copy.maxAge, 'number')
  );
}

/**
 * A store's entry for `origin` as far as it can be trusted (a store is shared and outlives
 * processes: what it returns is input), or `undefined` when it is not one this library writes
 * for that origin. Its `expiresAt` is capped by the policy's limits from its fetch time.
 * @example
 * const entry = trustedStoredEntry(await store.get(origin), origin, limits);
 */
export function trustedStoredEntry(
  value: unknown,
  origin: string,
  limits: StoredEntryLimits,
): StoredRobots | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Partial<StoredRobots>;
  if (entry.version !== 1 || entry.robotsUrl !== `${origin}/robots.txt`) return undefined;
  if (!isTime(entry.expiresAt) || !isRecord(entry.latest)) return undefined;
  const { latest, good } = entry;
  if (good !== undefined && !isGoodCopy(good)) return undefined;
  // A 2xx outcome always comes with its copy: without it the rules are unknown.
  if (latest.status === 'ok' && good === undefined) return undefined;
  return capLifetime(entry as StoredRobots, limits);
}

/**
 * `entry` with its `expiresAt` no later than its latest fetch time plus the policy's longest
 * lifetime for that outcome (`robotsMaxTtl`, or `maxUnreachableRetryInterval` after a failure).
 * @example
 * const capped = capLifetime(readerClock.localize(origin, entry, now), limits);
 */
export function capLifetime(entry: StoredRobots, limits: StoredEntryLimits): StoredRobots {
  const { latest } = entry;
  const lifetime =
    latest.status === 'unreachable' ? limits.maxUnreachableRetryInterval : limits.maxTtl;
  const latestBound = latest.fetchedAt + lifetime;
  if (entry.expiresAt <= latestBound) return entry;
  return { ...entry, expiresAt: latestBound };
}
