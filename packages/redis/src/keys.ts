import { keySlot, slotTag } from './key-slot.js';

/**
 * Key and channel names of one fleet (one `keyPrefix`). Every key of an origin carries the
 * origin as a hash tag (`{…}`), so one origin's keys live in one Redis Cluster slot and each
 * script touches a single slot.
 * @example
 * const keys = fleetKeys('polite:');
 * keys.pace('https://example.com'); // 'polite:{https://example.com}:pace'
 * fleetKeys('polite:', true).marker('https://example.com'); // 'polite:{…}:fleet', same slot
 */
export interface FleetKeys {
  /**
   * Hash: everything pacing depends on, lost whole or not at all: next start, Retry-After
   * pause, each slot lease's expiry (`l:<id>`), each process's settings, when it was created,
   * and the queue's ticket counter.
   */
  pace(origin: string): string;
  /** Hash: back-off after distress outcomes and the smoothed response time (`pace-outcome.ts`). */
  backoff(origin: string): string;
  /** Sorted set: waiting requests by id, scored by arrival ticket (first come, first served). */
  queue(origin: string): string;
  /** Sorted set: waiting requests by id, scored by when they count as gone (Redis ms). */
  queueExpiry(origin: string): string;
  /** Hash: the stored robots.txt entry (JSON) and its generation. */
  robots(origin: string): string;
  /** String: the id of the process fetching robots.txt now (single flight), with a TTL. */
  claim(origin: string): string;
  /**
   * Hash, no TTL: the fleet's latest key loss and Redis's eviction counter (see the README's
   * "Key loss"), on a single Redis. On a Redis Cluster each hash slot has a marker of its own
   * (see {@link FleetKeys.marker}).
   */
  readonly fleet: string;
  /**
   * The key-loss marker the scripts of `origin` read: {@link FleetKeys.fleet} on a single Redis;
   * on a Redis Cluster the marker of the origin's hash slot (`{prefix}{<tag>}:fleet`, the tag
   * chosen to hash to that slot), so that a grant touches one slot only.
   */
  marker(origin: string): string;
  /**
   * Redis Cluster: hash, no TTL, the witness of one master (`slot`: the first slot it serves):
   * gone when that master lost its keys (see `NODE_CHECK`).
   */
  witness(slot: number): string;
  /** Whether the layout is a Redis Cluster's (one marker per slot). */
  readonly cluster: boolean;
  /**
   * Pub/sub channel: `p <origin>` slot freed, `s <origin>` robots.txt stored, `r <origin>` claim
   * released, `l *` keys were lost (every holder puts its leases back).
   */
  readonly channel: string;
}

export function fleetKeys(prefix: string, cluster = false): FleetKeys {
  const key = (origin: string, kind: string): string => `${prefix}{${origin}}:${kind}`;
  const fleet = `${prefix}fleet`;
  const slotMarker = (slot: number): string => `${prefix}{${slotTag(slot)}}:fleet`;
  return {
    pace: (origin) => key(origin, 'pace'),
    backoff: (origin) => key(origin, 'backoff'),
    queue: (origin) => key(origin, 'queue'),
    queueExpiry: (origin) => key(origin, 'qexp'),
    robots: (origin) => key(origin, 'robots'),
    claim: (origin) => key(origin, 'claim'),
    fleet,
    marker: (origin) => (cluster ? slotMarker(keySlot(key(origin, 'pace'))) : fleet),
    witness: (slot) => `${prefix}{${slotTag(slot)}}:node`,
    cluster,
    channel: `${prefix}events`,
  };
}
