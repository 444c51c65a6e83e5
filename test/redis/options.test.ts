/**
 * Option validation (each limit at the bound and just past it) and the errors. The README's
 * errors table is held to ERROR_CODES by the docs check (scripts/check-docs.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  FLEET_OPTION_BOUNDS,
  FleetUnavailableError,
  createRedisFleet,
  isFleetUnavailableError,
} from '@polite-crawler/redis';
import { useRedisRig } from './helpers/redis-rig.js';

const rig = useRedisRig('o');

describe('options', () => {
  const names = Object.keys(FLEET_OPTION_BOUNDS) as (keyof typeof FLEET_OPTION_BOUNDS)[];
  it.each(names)('%s: accepted at its bounds, refused just past them', async (name) => {
    const [min, max] = FLEET_OPTION_BOUNDS[name];
    for (const value of [min, max]) {
      const fleet = await createRedisFleet({ url: rig.redis.url, [name]: value });
      await fleet.close();
    }
    for (const value of [min - 1, max + 1, 1.5, Number.NaN]) {
      await expect(createRedisFleet({ url: rig.redis.url, [name]: value })).rejects.toMatchObject({
        code: 'ERR_FLEET_INVALID_OPTION',
        option: name,
      });
    }
  });

  it.each([
    ['url', 'http://127.0.0.1:6379'],
    ['keyPrefix', 'a{b}'],
    ['keyPrefix', 'x'.repeat(257)],
    ['client', {}],
    ['onEvent', 'not a function'],
  ])('refuses %s = %j', async (name, value) => {
    await expect(createRedisFleet({ [name]: value })).rejects.toMatchObject({
      code: 'ERR_FLEET_INVALID_OPTION',
      option: name,
    });
  });
});

describe('errors', () => {
  it('FleetUnavailableError carries its code on the error itself, and the guard knows it', () => {
    const error = new FleetUnavailableError('https://example.com', 30_000);
    expect(error.code).toBe('ERR_FLEET_UNAVAILABLE');
    expect(isFleetUnavailableError(error)).toBe(true);
    expect(isFleetUnavailableError(new Error('x'))).toBe(false);
    expect(error.message).toContain('https://example.com');
  });
});
