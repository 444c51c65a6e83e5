import type { createClient } from '@redis/client';

/**
 * A node-redis client (`createClient()` from `redis` or `@redis/client`), connected by its owner.
 * @example
 * const client: FleetClient = await createClient({ url }).connect();
 */
export type FleetClient = ReturnType<typeof createClient>;
