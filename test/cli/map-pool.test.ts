import { CLI_DEFAULTS } from '@polite-crawler/cli';
import { describe, expect, it } from 'vitest';
import { mapPool } from '../../packages/cli/src/map-pool.js';

/** Runs `count` tasks that each wait for the next microtask turns, recording concurrency. */
async function run(count: number, limit: number): Promise<{ results: number[]; peak: number }> {
  let running = 0;
  let peak = 0;
  const results = await mapPool(
    Array.from({ length: count }, (_, index) => index),
    limit,
    async (item) => {
      running++;
      peak = Math.max(peak, running);
      // Finish in reverse order of start, to show that the result order is the input order.
      for (let turn = 0; turn < count - item; turn++) await Promise.resolve();
      running--;
      return item * 2;
    },
  );
  return { results, peak };
}

describe('mapPool', () => {
  const limit = CLI_DEFAULTS.checkConcurrency;

  it(`runs ${limit} tasks at once when given exactly ${limit}`, async () => {
    const { results, peak } = await run(limit, limit);
    expect(peak).toBe(limit);
    expect(results).toEqual(Array.from({ length: limit }, (_, index) => index * 2));
  });

  it(`never runs more than ${limit} when given ${limit + 1}, and keeps the order`, async () => {
    const { results, peak } = await run(limit + 1, limit);
    expect(peak).toBe(limit);
    expect(results).toEqual(Array.from({ length: limit + 1 }, (_, index) => index * 2));
  });

  it('handles an empty list and rejects with the first failure', async () => {
    expect(await mapPool([], 4, () => Promise.resolve(1))).toEqual([]);
    await expect(
      mapPool([1, 2], 4, (item) =>
        item === 2 ? Promise.reject(new Error('two')) : Promise.resolve(item),
      ),
    ).rejects.toThrow('two');
  });
});
