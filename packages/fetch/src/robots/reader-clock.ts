import type { StoredRobots } from './robots-store.js';

/** A time a store's writer stamped, and the same moment on this process's clock. */
interface Sighting {
  /** As written (the writer's clock). */
  readonly written: number;
  /** On this process's clock: never later than when this process first read it. */
  readonly seen: number;
}

/** What this process remembers of one origin's future-dated entry. */
interface EntrySightings {
  readonly latest: Sighting;
  readonly good: Sighting | undefined;
}

/** `written` on this process's clock: the remembered sighting of that same stamp, or now. */
function sight(written: number, remembered: Sighting | undefined, now: number): Sighting {
  if (remembered !== undefined && remembered.written === written) return remembered;
  return { written, seen: Math.min(written, now) };
}

/**
 * Puts the times of entries read from a shared store on this process's clock. A writer's
 * clock may be wrong: an entry it stamped ten years ahead would otherwise be fresh for ten
 * years, and its good copy served stale for ten years more. A fetch time later than now is
 * taken as the moment this process first read it (remembered, so that reading the same entry
 * again does not move it), and the lifetime caps then count from there. Only future-dated
 * entries are remembered (at most `max` origins, the oldest forgotten first): any other stamp
 * is already at or before the first sighting.
 * @example
 * const clock = new ReaderClock(10_000);
 * const local = clock.localize(origin, trustedEntry, Date.now());
 */
export class ReaderClock {
  readonly #max: number;
  readonly #sightings = new Map<string, EntrySightings>();

  constructor(max: number) {
    this.#max = max;
  }

  /** `entry` with its fetch times no later than this process's first sighting of them. */
  localize(origin: string, entry: StoredRobots, now: number): StoredRobots {
    const remembered = this.#sightings.get(origin);
    const latest = sight(entry.latest.fetchedAt, remembered?.latest, now);
    const good =
      entry.good === undefined ? undefined : sight(entry.good.fetchedAt, remembered?.good, now);
    const ahead = latest.seen < latest.written || (good !== undefined && good.seen < good.written);
    this.#sightings.delete(origin);
    if (!ahead) return entry;
    this.#sightings.set(origin, { latest, good });
    if (this.#sightings.size > this.#max) {
      // Map keeps insertion order: the first key is the origin sighted longest ago.
      this.#sightings.delete(this.#sightings.keys().next().value as string);
    }
    return {
      ...entry,
      latest: { ...entry.latest, fetchedAt: latest.seen },
      ...(entry.good === undefined || good === undefined
        ? {}
        : { good: { ...entry.good, fetchedAt: good.seen } }),
    };
  }
}
