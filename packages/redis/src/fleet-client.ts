import type { RedisClusterType, createClient } from '@redis/client';

/** A node-redis single-node client (`createClient()` from `redis` or `@redis/client`). */
export type FleetNodeClient = ReturnType<typeof createClient>;

/**
 * A node-redis Redis Cluster client (`createCluster()` from `redis` or `@redis/client`), as
 * `createCluster({ rootNodes })` makes it (no modules, functions or scripts of its own; RESP3).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- node-redis's own defaults
export type FleetClusterClient = RedisClusterType<{}, {}, {}, 3, {}>;

/**
 * A node-redis client, connected by its owner: a single-node client (`createClient`) or a
 * Redis Cluster client (`createCluster`).
 * @example
 * const client: FleetClient = await createClient({ url }).connect();
 * const cluster: FleetClient = await createCluster({ rootNodes: [{ url }] }).connect();
 */
export type FleetClient = FleetNodeClient | FleetClusterClient;

/** Whether `client` is a Redis Cluster client (it has masters and per-node clients). */
export function isClusterClient(client: FleetClient): client is FleetClusterClient {
  return (
    typeof (client as Partial<FleetClusterClient>).nodeClient === 'function' && 'masters' in client
  );
}
