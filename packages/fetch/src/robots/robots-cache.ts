import { setMaxListeners } from 'node:events';
import { parseRobotsTxt } from '@polite-crawler/robots-txt';
import type { Agent, AgentRules, RobotsTxt } from '@polite-crawler/robots-txt';
import type { EventSink } from '../policy/events.js';
import { RobotsEntries } from './robots-entries.js';
import { fetchRobotsTxt } from './robots-fetcher.js';
import type { RobotsFetchOutcome, RobotsFetchSettings } from './robots-fetcher.js';
import { raceSignal } from '../time/signals.js';
import { ReaderClock } from './reader-clock.js';
import { capLifetime, trustedStoredEntry } from './stored-entry.js';
import { guardStore } from './store-guard.js';
import type { CacheState } from '../policy/decision.js';
import type {
  RobotsFetchClaim,
  RobotsFetchRecord,
  RobotsGoodCopy,
  RobotsStatus,
  RobotsStore,
  StoredRobots,
} from './robots-store.js';

/**
 * A robots.txt entry ready to answer checks.
 * @example
 * const entry: CacheEntry | undefined = cache.peek('https://example.com');
 */
export interface CacheEntry {
  readonly stored: StoredRobots;
  /** Status of the rules in force (`ok` when serving a stale good copy). */
  readonly inForce: RobotsStatus;
  /** Serving an older good copy because the origin is unreachable now. */
  readonly stale: boolean;
  /** The parsed copy in force, when `inForce` is `ok`. */
  readonly robots: RobotsTxt | undefined;
  /** Its rules for this crawler. */
  readonly rules: AgentRules | undefined;
}

/**
 * An entry and how this lookup obtained it.
 * @example
 * const { entry, state }: Resolved = await cache.resolve('https://example.com');
 */
export interface Resolved {
  readonly entry: CacheEntry;
  readonly state: CacheState;
}

/**
 * @example
 * new RobotsCache({ agent: 'ExampleBot', fetch: settings, maxOrigins: 10_000, store: undefined, storeTimeout: 2_000, minTtl: 60_000, maxTtl: 86_400_000, unreachableRetryInterval: 60_000, maxUnreachableRetryInterval: 3_600_000, staleIfUnreachable: 2_592_000_000, events });
 */
export interface RobotsCacheSettings {
  readonly agent: Agent;
  readonly fetch: RobotsFetchSettings;
  readonly maxOrigins: number;
  readonly store: RobotsStore | undefined;
  /** Longest wait for one store call (see {@link guardStore}). */
  readonly storeTimeout: number;
  readonly minTtl: number;
  readonly maxTtl: number;
  readonly unreachableRetryInterval: number;
  readonly maxUnreachableRetryInterval: number;
  readonly staleIfUnreachable: number;
  readonly events: EventSink;
}

const EMPTY = new Uint8Array(0);

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function fromBase64(body: string): Uint8Array {
  return body === '' ? EMPTY : new Uint8Array(Buffer.from(body, 'base64'));
}

/** The validators and `max-age` a response came with, as its good copy keeps them. */
function cachingOf({ etag, lastModified, maxAge }: RobotsFetchOutcome) {
  return {
    ...(etag === undefined ? {} : { etag }),
    ...(lastModified === undefined ? {} : { lastModified }),
    ...(maxAge === undefined ? {} : { maxAge }),
  };
}

/**
 * Whether `stored` (a store's copy) is the good copy `held` describes: same response (status,
 * size, validators). Its fetch time is not compared: a 304 elsewhere may have renewed it.
 */
function sameCopy(held: RobotsGoodCopy, stored: RobotsGoodCopy | undefined): boolean {
  return (
    stored !== undefined &&
    stored.body !== '' &&
    stored.bytes === held.bytes &&
    stored.truncated === held.truncated &&
    stored.httpStatus === held.httpStatus &&
    stored.etag === held.etag &&
    stored.lastModified === held.lastModified
  );
}

/**
 * `entry` as the in-memory cache keeps it: once its copy is parsed, without the copy's bytes
 * (the matcher needs the parsed rules only; the bytes of a 500 KB file were 667 KB of base64
 * per origin again). A store keeps the bytes; writes that need them read them back from it.
 */
function withoutBody(entry: CacheEntry): CacheEntry {
  const { stored } = entry;
  const { good } = stored;
  if (entry.robots === undefined || good === undefined || good.body === '') return entry;
  const { version, robotsUrl, latest, expiresAt } = stored;
  return {
    stored: { version, robotsUrl, latest, good: { ...good, body: '' }, expiresAt },
    inForce: entry.inForce,
    stale: entry.stale,
    robots: entry.robots,
    rules: entry.rules,
  };
}

/** `stored` as a store may hold it: a good copy whose bytes are not at hand is left out. */
function forStore(stored: StoredRobots): StoredRobots {
  const { good } = stored;
  if (good === undefined || good.body !== '' || good.bytes === 0) return stored;
  const { version, robotsUrl, latest, expiresAt } = stored;
  return { version, robotsUrl, latest, expiresAt };
}

function found(entry: CacheEntry): Resolved {
  return { entry, state: entry.stale ? 'stale' : 'hit' };
}

/**
 * The robots.txt cache: a bounded LRU of parsed entries in front of an optional async store,
 * with TTL, conditional revalidation, stale-if-unreachable and single-flight fetching (one
 * robots.txt request per origin however many callers wait for it).
 * @example
 * const { entry, state } = await cache.resolve('https://example.com', signal);
 */
export class RobotsCache {
  readonly #settings: RobotsCacheSettings;
  /** The settings' store, guarded: it never throws, rejects or hangs. */
  readonly #store: RobotsStore | undefined;
  readonly #hot: RobotsEntries<CacheEntry>;
  /** Puts stored entries' times on this process's clock (their writer's may be wrong). */
  readonly #readerClock: ReaderClock;
  /** What each origin's waiters wait for (the lookup in flight, or close()). */
  readonly #inflight = new Map<string, Promise<Resolved>>();
  /** The lookups in flight themselves, which close() waits for. */
  readonly #refreshing = new Set<Promise<Resolved>>();
  readonly #closing = new AbortController();

  constructor(settings: RobotsCacheSettings) {
    this.#settings = settings;
    this.#store =
      settings.store === undefined
        ? undefined
        : guardStore(settings.store, settings.storeTimeout, settings.fetch.clock);
    this.#hot = new RobotsEntries<CacheEntry>(settings.maxOrigins, settings.fetch.clock);
    this.#readerClock = new ReaderClock(settings.maxOrigins);
    // A shared store's claimFetch listens to it once per origin in flight: no fixed bound.
    setMaxListeners(0, this.#closing.signal);
  }

  /** The fresh in-memory entry for `origin`, if any (no I/O). */
  peek(origin: string): CacheEntry | undefined {
    const entry = this.#hot.get(origin);
    return entry !== undefined && entry.stored.expiresAt > this.#settings.fetch.clock.now()
      ? entry
      : undefined;
  }

  /** The latest in-memory entry for `origin`, fresh or expired (no I/O, recency unchanged). */
  latest(origin: string): CacheEntry | undefined {
    return this.#hot.peek(origin);
  }

  /** The entry for `origin`, fetching robots.txt when needed; `signal` only stops this caller's wait. */
  resolve(origin: string, signal?: AbortSignal): Promise<Resolved> {
    const cached = this.peek(origin);
    if (cached !== undefined) return Promise.resolve(found(cached));
    let pending = this.#inflight.get(origin);
    if (pending === undefined) {
      const refresh = this.#refresh(origin);
      this.#refreshing.add(refresh);
      const settled = (): boolean => this.#refreshing.delete(refresh);
      refresh.then(settled, settled);
      // Its waiters let go at close() at once, whatever the lookup still waits for (one
      // subscription per origin in flight, not per waiter).
      pending = raceSignal(refresh, this.#closing.signal).finally(() =>
        this.#inflight.delete(origin),
      );
      this.#inflight.set(origin, pending);
    }
    return signal === undefined ? pending : raceSignal(pending, signal);
  }

  /** Forgets `origin` in memory and in the store. */
  async forget(origin: string): Promise<void> {
    this.#hot.delete(origin);
    await this.#store?.delete(origin);
  }

  /**
   * Stops in-flight fetches (their waiters reject with the close reason); resolves once they
   * have all let go of their connections and store calls.
   */
  close(reason: Error): Promise<void> {
    const settling = [...this.#refreshing];
    this.#closing.abort(reason);
    this.#hot.clear();
    return Promise.allSettled(settling).then(() => undefined);
  }

  async #refresh(origin: string): Promise<Resolved> {
    const store = this.#store;
    const { clock } = this.#settings.fetch;
    let previous = this.#hot.get(origin);
    /** The store's entry, read before fetching: it has the bytes the in-memory entry dropped. */
    let fromStore: StoredRobots | undefined;
    if (store !== undefined) {
      // Missing or expired here: another process sharing the store may have a fresher copy.
      const stored = await this.#readStore(store, origin);
      fromStore = stored;
      if (
        stored !== undefined &&
        (previous === undefined || stored.latest.fetchedAt > previous.stored.latest.fetchedAt)
      ) {
        const now = clock.now();
        previous = this.#materialize(stored, undefined, now);
        if (stored.expiresAt > now) return this.#keep(origin, previous);
      }
    }
    // A shared store may single-flight the fetch across processes: wait for another process's
    // outcome instead of fetching it again.
    let claim: RobotsFetchClaim | undefined;
    if (store?.claimFetch !== undefined) {
      claim = await store.claimFetch(origin, this.#closing.signal);
      if (!claim.fetch) {
        const stored = await this.#readStore(store, origin);
        const now = clock.now();
        if (stored !== undefined && stored.expiresAt > now) {
          return this.#keep(origin, this.#materialize(stored, undefined, now));
        }
        // Stored and gone again (or unreadable): fetch it here rather than wait on.
      }
    }
    try {
      return await this.#fetchAndStore(origin, previous, fromStore);
    } finally {
      if (claim?.fetch === true) await claim.release();
    }
  }

  async #readStore(store: RobotsStore, origin: string): Promise<StoredRobots | undefined> {
    const stored = trustedStoredEntry(await store.get(origin), origin, this.#settings);
    this.#closing.signal.throwIfAborted();
    if (stored === undefined) return undefined;
    // Its lifetime counts on this process's clock too: at most robotsMaxTtl from first sight.
    const now = this.#settings.fetch.clock.now();
    return capLifetime(this.#readerClock.localize(origin, stored, now), this.#settings);
  }

  #keep(origin: string, entry: CacheEntry): Resolved {
    const kept = withoutBody(entry);
    this.#hot.set(origin, kept);
    return found(kept);
  }

  async #fetchAndStore(
    origin: string,
    previous: CacheEntry | undefined,
    fromStore: StoredRobots | undefined,
  ): Promise<Resolved> {
    const { fetch: fetchSettings, events } = this.#settings;
    const { clock } = fetchSettings;
    const good = previous?.stored.good;
    // The bytes of the previous good copy, when a store is in use: the entry's own, or the
    // store's copy of the same response (the in-memory entry drops them once parsed).
    const goodBody =
      good === undefined || this.#store === undefined
        ? undefined
        : good.body !== ''
          ? good.body
          : sameCopy(good, fromStore?.good)
            ? fromStore!.good!.body
            : undefined;
    // Validators only for a copy that can be put back in force when the answer is a 304 — and,
    // with a store, written to it again (its bytes at hand; else a plain GET brings them).
    const restorable =
      this.#store === undefined ? previous?.robots !== undefined : goodBody !== undefined;
    const validators =
      restorable && (good?.etag !== undefined || good?.lastModified !== undefined)
        ? good
        : undefined;
    const robotsUrl = `${origin}/robots.txt`;
    const started = clock.now();
    const outcome = await fetchRobotsTxt(robotsUrl, fetchSettings, {
      signal: this.#closing.signal,
      ...(validators === undefined ? {} : { validators }),
    });
    const now = clock.now();
    if (events.wants('robots-fetched')) {
      events.emit({
        type: 'robots-fetched',
        origin,
        robotsUrl,
        status: outcome.status,
        ...(outcome.httpStatus === undefined ? {} : { httpStatus: outcome.httpStatus }),
        notModified: outcome.notModified,
        redirects: outcome.redirects,
        bytes: Math.min(outcome.body?.byteLength ?? 0, fetchSettings.maxBytes),
        truncated: outcome.truncated,
        ...(outcome.failure === undefined ? {} : { failure: outcome.failure }),
        duration: now - started,
      });
    }
    const stored = this.#nextStored(robotsUrl, outcome, previous, goodBody, now);
    const entry = withoutBody(this.#materialize(stored, { outcome, previous }, now));
    this.#hot.set(origin, entry);
    await this.#store?.set(origin, forStore(stored));
    const state: CacheState = outcome.notModified ? 'revalidated' : entry.stale ? 'stale' : 'miss';
    return { entry, state };
  }

  /** How long a copy is used: its `max-age` less the `Age` a cache reported, within the limits. */
  #ttl(maxAge: number | undefined, age: number | undefined): number {
    const { minTtl, maxTtl } = this.#settings;
    const lifetime = maxAge === undefined ? maxTtl : maxAge - (age ?? 0);
    return Math.min(maxTtl, Math.max(minTtl, lifetime));
  }

  #nextStored(
    robotsUrl: string,
    outcome: RobotsFetchOutcome,
    previous: CacheEntry | undefined,
    /** The bytes of `previous`'s good copy, when a store is in use and they are at hand. */
    previousBody: string | undefined,
    now: number,
  ): StoredRobots {
    const latest: RobotsFetchRecord = {
      status: outcome.status,
      redirects: outcome.redirects,
      fetchedAt: now,
      ...(outcome.httpStatus === undefined ? {} : { httpStatus: outcome.httpStatus }),
      ...(outcome.failure === undefined ? {} : { failure: outcome.failure }),
      ...(outcome.retryAfterMs === undefined ? {} : { retryAfterMs: outcome.retryAfterMs }),
    };
    // Whole literals, not a spread of a shared part: the spread's objects held about 140 B more
    // per cached origin (heap of a 10,000-origin cache, measured).
    const entry = (expiresAt: number, good?: RobotsGoodCopy): StoredRobots =>
      good === undefined
        ? { version: 1, robotsUrl, latest, expiresAt }
        : { version: 1, robotsUrl, latest, good, expiresAt };
    const held = previous?.stored.good;
    const previousGood =
      held === undefined || previousBody === undefined ? held : { ...held, body: previousBody };
    if (outcome.status === 'ok') {
      const body = outcome.body ?? EMPTY;
      const good: RobotsGoodCopy =
        outcome.notModified && previousGood !== undefined
          ? // A 304 updates what it carries and leaves the rest of the stored response as it was.
            { ...previousGood, fetchedAt: now, ...cachingOf(outcome) }
          : {
              // Without a store the parsed copy is kept instead of the bytes.
              body: this.#settings.store === undefined ? '' : toBase64(body),
              bytes: Math.min(body.byteLength, this.#settings.fetch.maxBytes),
              truncated: outcome.truncated,
              httpStatus: outcome.httpStatus ?? 200,
              redirects: outcome.redirects,
              fetchedAt: now,
              ...cachingOf(outcome),
            };
      return entry(now + this.#ttl(good.maxAge, outcome.age), good);
    }
    if (outcome.status === 'unavailable') {
      return entry(now + this.#ttl(outcome.maxAge, outcome.age));
    }
    const { unreachableRetryInterval: retry, maxUnreachableRetryInterval: maxRetry } =
      this.#settings;
    const expiresAt = now + Math.min(maxRetry, Math.max(retry, outcome.retryAfterMs ?? retry));
    const staleUntil = (previousGood?.fetchedAt ?? 0) + this.#settings.staleIfUnreachable;
    if (previousGood !== undefined && staleUntil > now) {
      return entry(Math.min(expiresAt, staleUntil), previousGood);
    }
    return entry(expiresAt);
  }

  #materialize(
    stored: StoredRobots,
    fresh: { outcome: RobotsFetchOutcome; previous: CacheEntry | undefined } | undefined,
    /** The time `stored` was decided at (read once: a second reading could disagree). */
    now: number,
  ): CacheEntry {
    const { good, latest } = stored;
    const stale =
      latest.status === 'unreachable' &&
      good !== undefined &&
      good.fetchedAt + this.#settings.staleIfUnreachable > now;
    let inForce: RobotsStatus = stale ? 'ok' : latest.status;
    if (good === undefined && inForce === 'ok') inForce = 'unavailable';
    let robots: RobotsTxt | undefined;
    if (inForce === 'ok' && good !== undefined) {
      const fetchedNow = fresh?.outcome.status === 'ok' && !fresh.outcome.notModified;
      robots = fetchedNow
        ? this.#parse(fresh.outcome.body ?? EMPTY)
        : (fresh?.previous?.robots ?? this.#parse(fromBase64(good.body)));
    }
    return { stored, inForce, stale, robots, rules: robots?.forAgent(this.#settings.agent) };
  }

  #parse(body: Uint8Array): RobotsTxt {
    return parseRobotsTxt(body, { maxBytes: this.#settings.fetch.maxBytes });
  }
}
