/**
 * Key and channel names of one fleet (one `keyPrefix`). Every key of an origin carries the
 * origin as a hash tag (`{…}`), so one origin's keys live in one Redis Cluster slot and each
 * script touches a single slot.
 * @example
 * const keys = fleetKeys('polite:');
 * keys.pace('https://example.com'); // 'polite:{https://example.com}:pace'
 */
export interface FleetKeys {
  /** Hash: next start, Retry-After pause, ticket counter and each process's pacing settings. */
  pace(origin: string): string;
  /** Hash: back-off after distress outcomes and the smoothed response time (`pace-outcome.ts`). */
  backoff(origin: string): string;
  /** Sorted set: slot leases by id, scored by expiry (Redis ms). */
  leases(origin: string): string;
  /** Sorted set: waiting requests by id, scored by arrival ticket (first come, first served). */
  queue(origin: string): string;
  /** Sorted set: waiting requests by id, scored by when they count as gone (Redis ms). */
  queueExpiry(origin: string): string;
  /** Hash: the stored robots.txt entry (JSON) and its generation. */
  robots(origin: string): string;
  /** String: the id of the process fetching robots.txt now (single flight), with a TTL. */
  claim(origin: string): string;
  /** Pub/sub channel: `p <origin>` slot freed, `s <origin>` robots.txt stored, `r <origin>` claim released. */
  readonly channel: string;
}

export function fleetKeys(prefix: string): FleetKeys {
  const key = (origin: string, kind: string): string => `${prefix}{${origin}}:${kind}`;
  return {
    pace: (origin) => key(origin, 'pace'),
    backoff: (origin) => key(origin, 'backoff'),
    leases: (origin) => key(origin, 'leases'),
    queue: (origin) => key(origin, 'queue'),
    queueExpiry: (origin) => key(origin, 'qexp'),
    robots: (origin) => key(origin, 'robots'),
    claim: (origin) => key(origin, 'claim'),
    channel: `${prefix}events`,
  };
}
