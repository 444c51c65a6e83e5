import { LRUCache } from 'lru-cache';
import type { FleetConnection } from './fleet-connection.js';
import { keySlot } from './key-slot.js';
import type { FleetKeys } from './keys.js';
import { PACE_RENEW, PACE_RESTORE } from './scripts/pace-renew.js';
import { ROBOTS_CLAIM_RENEW } from './scripts/robots-claim.js';
import { luaScript } from './scripts/script.js';

const RENEW = luaScript(PACE_RENEW);
const CLAIM_RENEW = luaScript(ROBOTS_CLAIM_RENEW);
const RESTORE = luaScript(PACE_RESTORE);
/** Origins whose next start is remembered for {@link LeaseBook.restore}. */
const MAX_FLOORS = 10_000;
/** Leases renewed per script call (bounds one call's size). */
const RENEW_BATCH = 500;

/**
 * `items` in script calls: at most {@link RENEW_BATCH} each, and on a Redis Cluster only items
 * of one hash slot per call (a script's keys must share a slot, or Redis answers CROSSSLOT).
 */
function batches<T>(items: readonly T[], keyOf: (item: T) => string, cluster: boolean): T[][] {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const slot = cluster ? keySlot(keyOf(item)) : 0;
    let group = groups.get(slot);
    if (group === undefined) groups.set(slot, (group = []));
    group.push(item);
  }
  const calls: T[][] = [];
  for (const group of groups.values())
    for (let i = 0; i < group.length; i += RENEW_BATCH) calls.push(group.slice(i, i + RENEW_BATCH));
  return calls;
}

/** The next start a grant reported for an origin, with the grant's start and the local time seen. */
interface Floor {
  readonly floor: number;
  readonly start: number;
  readonly seenAt: number;
}

/** A slot lease held by this process: renewed until released. */
export interface HeldLease {
  readonly id: string;
  readonly origin: string;
  /** The next start its grant booked (Redis ms), restored if Redis lost it. */
  readonly floor: number;
}

/**
 * Every lease and robots.txt claim this process holds, renewed every `leaseTtl / 3` (one
 * script call per 500 leases; on a Redis Cluster, per slot), and at once when Redis comes back
 * after an outage — a restart that lost every key gets the leases of requests still running
 * back before new grants fill their slots.
 */
export class LeaseBook {
  readonly #connection: FleetConnection;
  readonly #keys: FleetKeys;
  readonly #leaseTtl: number;
  readonly #leases = new Map<string, HeldLease>();
  readonly #claims = new Map<string, string>();
  /**
   * Origin → the latest next start (Redis ms) a grant here reported, with when it was seen
   * locally; the least recently paced origin is forgotten first.
   */
  readonly #floors = new LRUCache<string, Floor>({ max: MAX_FLOORS });
  readonly #timer: NodeJS.Timeout;
  #renewing = false;

  constructor(connection: FleetConnection, keys: FleetKeys, leaseTtl: number) {
    this.#connection = connection;
    this.#keys = keys;
    this.#leaseTtl = leaseTtl;
    this.#timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(leaseTtl / 3)));
    // Renewal alone never keeps a process alive.
    this.#timer.unref();
  }

  hold(lease: HeldLease, start: number): void {
    this.#leases.set(lease.id, lease);
    const known = this.#floors.get(lease.origin);
    if (known !== undefined && known.floor >= lease.floor) return;
    this.#floors.set(lease.origin, { floor: lease.floor, start, seenAt: performance.now() });
  }

  /**
   * Redis is back after an outage: renews what is held and puts back the next start of every
   * origin paced here whose spacing may not be over yet (Redis may have lost it).
   */
  async recover(): Promise<void> {
    const now = performance.now();
    const floors: [string, number][] = [];
    const over: string[] = [];
    for (const [origin, known] of this.#floors.entries()) {
      // Local estimate of whether the spacing is still running (the grant's own clock offset).
      if (known.seenAt + (known.floor - known.start) + 1_000 < now) over.push(origin);
      else floors.push([origin, known.floor]);
    }
    // Deleted after the walk: the cache is not changed while it is iterated.
    for (const origin of over) this.#floors.delete(origin);
    // Sent in this tick, before the waiters woken by the reconnection ask again.
    const sent: Promise<void>[] = [];
    const cluster = this.#connection.cluster;
    for (const batch of batches(floors, ([origin]) => this.#keys.pace(origin), cluster)) {
      sent.push(
        this.#connection.fire(
          RESTORE,
          batch.map(([origin]) => this.#keys.pace(origin)),
          [this.#leaseTtl, ...batch.map(([, floor]) => floor)],
        ),
      );
    }
    sent.push(this.renew(true));
    await Promise.all(sent);
  }

  drop(id: string): void {
    this.#leases.delete(id);
  }

  holdClaim(claimKey: string, id: string): void {
    this.#claims.set(claimKey, id);
  }

  dropClaim(claimKey: string): void {
    this.#claims.delete(claimKey);
  }

  get size(): number {
    return this.#leases.size;
  }

  /**
   * Renews everything held now, all batches sent in this tick. One periodic renewal at a time
   * (a stalled Redis does not pile them up); `force` (after an outage) sends one regardless.
   */
  async renew(force = false): Promise<void> {
    if ((this.#renewing && !force) || (this.#leases.size === 0 && this.#claims.size === 0)) return;
    this.#renewing = true;
    const sent: Promise<void>[] = [];
    const cluster = this.#connection.cluster;
    const leases = [...this.#leases.values()];
    for (const batch of batches(leases, (l) => this.#keys.pace(l.origin), cluster)) {
      const keys = batch.map((l) => this.#keys.pace(l.origin));
      const args = [this.#leaseTtl, ...batch.flatMap((l) => [l.id, l.floor])];
      sent.push(this.#connection.fire(RENEW, keys, args));
    }
    for (const claims of batches([...this.#claims], ([key]) => key, cluster)) {
      sent.push(
        this.#connection.fire(
          CLAIM_RENEW,
          claims.map(([key]) => key),
          [this.#leaseTtl, ...claims.map(([, id]) => id)],
        ),
      );
    }
    try {
      await Promise.all(sent);
    } finally {
      this.#renewing = false;
    }
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
