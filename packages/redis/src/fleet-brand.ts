/**
 * Marks the store and pacer of one fleet (the value is the fleet's id), so that a policy can
 * tell a fleet pacer given with a store of another fleet, or with none of a fleet's.
 * @example
 * (pacer as Record<symbol, unknown>)[FLEET_BRAND] === (store as Record<symbol, unknown>)[FLEET_BRAND];
 */
export const FLEET_BRAND: unique symbol = Symbol.for('polite-crawler.fleet') as never;
