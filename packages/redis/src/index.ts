export { createRedisFleet } from './redis-fleet.js';
export type { FleetPolicyOptions, RedisFleet } from './redis-fleet.js';
export { FLEET_DEFAULTS, FLEET_OPTION_BOUNDS } from './options.js';
export type { RedisFleetOptions } from './options.js';
export type { FleetEvent, FleetState } from './events.js';
export type { FleetClient, FleetClusterClient, FleetNodeClient } from './fleet-client.js';
export {
  ERROR_CODES,
  FleetEntryTooLargeError,
  FleetInvalidOptionError,
  FleetRedisError,
  FleetUnavailableError,
  isFleetEntryTooLargeError,
  isFleetRedisError,
  isFleetUnavailableError,
} from './errors.js';
export { FLEET_BRAND } from './fleet-brand.js';
export { ROBOTS_METADATA_MAX_BYTES } from './robots-entry.js';
export { fleetKeys } from './keys.js';
export type { FleetKeys } from './keys.js';
export type { FleetPacer, FleetSlot } from './redis-pacer.js';
