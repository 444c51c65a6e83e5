import type { FleetConnection } from './fleet-connection.js';
import type { FleetKeys } from './keys.js';
import { PACE_RENEW } from './scripts/pace-renew.js';
import { ROBOTS_CLAIM_RENEW } from './scripts/robots-claim.js';
import { luaScript } from './scripts/script.js';

const RENEW = luaScript(PACE_RENEW);
const CLAIM_RENEW = luaScript(ROBOTS_CLAIM_RENEW);
/** Leases renewed per script call (bounds one call's size). */
const RENEW_BATCH = 500;

/** A slot lease held by this process: renewed until released. */
export interface HeldLease {
  readonly id: string;
  readonly origin: string;
  /** The next start its grant booked (Redis ms), restored if Redis lost it. */
  readonly floor: number;
}

/**
 * Every lease and robots.txt claim this process holds, renewed every `leaseTtl / 3` (one
 * script call per 500 leases), and at once when Redis comes back after an outage — a restart
 * that lost every key gets the leases of requests still running back before new grants fill
 * their slots.
 */
export class LeaseBook {
  readonly #connection: FleetConnection;
  readonly #keys: FleetKeys;
  readonly #leaseTtl: number;
  readonly #leases = new Map<string, HeldLease>();
  readonly #claims = new Map<string, string>();
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

  hold(lease: HeldLease): void {
    this.#leases.set(lease.id, lease);
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

  /** Renews everything held now (one renewal at a time; a stalled Redis does not pile them up). */
  async renew(): Promise<void> {
    if (this.#renewing || (this.#leases.size === 0 && this.#claims.size === 0)) return;
    this.#renewing = true;
    try {
      const leases = [...this.#leases.values()];
      for (let i = 0; i < leases.length; i += RENEW_BATCH) {
        const batch = leases.slice(i, i + RENEW_BATCH);
        const keys = batch.flatMap((l) => [this.#keys.leases(l.origin), this.#keys.pace(l.origin)]);
        const args = [this.#leaseTtl, ...batch.flatMap((l) => [l.id, l.floor])];
        await this.#connection.fire(RENEW, keys, args);
      }
      if (this.#claims.size > 0) {
        const claims = [...this.#claims];
        await this.#connection.fire(
          CLAIM_RENEW,
          claims.map(([key]) => key),
          [this.#leaseTtl, ...claims.map(([, id]) => id)],
        );
      }
    } finally {
      this.#renewing = false;
    }
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
