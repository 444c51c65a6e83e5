import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  DEFAULTS,
  OPTION_BOUNDS,
  createMemoryRobotsStore,
  createPoliteFetch,
  createRobotsPolicy,
  deriveProductToken,
  isRobotsInvalidOptionError,
  politeInterceptor,
} from '@polite-crawler/fetch';
import type { PageOptions, PoliteFetchOptions, RobotsPolicyOptions } from '@polite-crawler/fetch';
import type { PAGE_OPTIONS } from '../../packages/fetch/src/options/option-table.js';
import { POLICY_OPTIONS } from '../../packages/fetch/src/options/option-table.js';
import {
  resolvePageOptions,
  resolvePolicyOptions,
} from '../../packages/fetch/src/options/options.js';
import type {
  ResolvedPageOptions,
  ResolvedPolicyOptions,
} from '../../packages/fetch/src/options/options.js';

const UA = 'ExampleBot/1.0 (+https://example.com/bot)';

function invalidOption(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    if (isRobotsInvalidOptionError(error)) return error.option;
    throw error;
  }
  throw new Error('expected an invalid-option error');
}

describe('DEFAULTS and OPTION_BOUNDS', () => {
  it('are frozen', () => {
    expect(Object.isFrozen(DEFAULTS)).toBe(true);
    expect(Object.isFrozen(OPTION_BOUNDS)).toBe(true);
  });

  it('keep RFC 9309’s floors', () => {
    expect(DEFAULTS.robotsMaxBytes).toBeGreaterThanOrEqual(500 * 1024);
    expect(OPTION_BOUNDS.robotsMaxBytes[0]).toBeGreaterThanOrEqual(500 * 1024);
    expect(OPTION_BOUNDS.robotsMaxRedirects[0]).toBe(5);
    expect(OPTION_BOUNDS.robotsMaxTtl[1]).toBe(24 * 3_600_000);
    expect(DEFAULTS.staleIfUnreachable).toBe(30 * 24 * 3_600_000);
  });

  it('every default of a bounded option lies within its bounds', () => {
    for (const [name, [min, max]] of Object.entries(OPTION_BOUNDS)) {
      const value = (DEFAULTS as Record<string, unknown>)[name];
      expect(typeof value, name).toBe('number');
      expect(value as number, name).toBeGreaterThanOrEqual(min);
      expect(value as number, name).toBeLessThanOrEqual(max);
    }
  });
});

describe('the option table and the public option types', () => {
  // Compiled (tsc checks test/), so a key on one side only, or a type that differs, fails the build.
  type Given<Options> = { [Name in keyof Options]-?: Exclude<Options[Name], undefined> };
  type Read<Resolved> = { [Name in keyof Resolved]: Exclude<Resolved[Name], undefined> };

  it('has exactly the keys of RobotsPolicyOptions and PageOptions, both ways', () => {
    expectTypeOf<keyof typeof POLICY_OPTIONS>().toEqualTypeOf<keyof RobotsPolicyOptions>();
    expectTypeOf<keyof typeof PAGE_OPTIONS>().toEqualTypeOf<keyof PageOptions>();
    expect(Object.keys(resolvePolicyOptions({ userAgent: UA })).sort()).toEqual(
      Object.keys(POLICY_OPTIONS).sort(),
    );
  });

  it('reads each option into the type the public type declares', () => {
    // `signature` is given as a key and read as the signer made from it.
    expectTypeOf<Read<Omit<ResolvedPolicyOptions, 'signature'>>>().toEqualTypeOf<
      Omit<Given<RobotsPolicyOptions>, 'signature'>
    >();
    // `usage` is given per category and read as the list of categories to reject; `cache` as
    // `true` or a store and read as the store (or `false`).
    expectTypeOf<Read<Omit<ResolvedPageOptions, 'rejectUsage' | 'cache'>>>().toEqualTypeOf<
      Omit<Given<PageOptions>, 'usage' | 'cache'>
    >();
    expect(resolvePageOptions({ usage: { 'train-ai': 'reject' } }).rejectUsage).toEqual([
      'train-ai',
    ]);
    // vocab-08's ai-use is a category like the others; an unknown one is refused.
    expect(
      resolvePageOptions({ usage: { 'ai-use': 'reject', search: 'annotate' } }).rejectUsage,
    ).toEqual(['ai-use']);
    expect(() => resolvePageOptions({ usage: { 'ai-input': 'reject' } as never })).toThrow(
      /'train-ai', 'ai-use', 'search' only \(not 'ai-input'\)/,
    );
  });
});

describe('numeric options: accepted at each bound, refused just past it, naming the option', () => {
  const page = new Set(['maxRedirects', 'maxHeadBytes', 'responseTimeout']);
  for (const [name, [min, max]] of Object.entries(OPTION_BOUNDS)) {
    const make = (value: unknown) => () =>
      page.has(name)
        ? createPoliteFetch({ userAgent: UA, [name]: value })
        : // Alone: the other option of a pair defaults to what fits (no workaround needed).
          createRobotsPolicy({ userAgent: UA, [name]: value });
    it(`${name}: ${min}..${max}`, async () => {
      for (const ok of [min, max]) {
        const made = make(ok)() as { close(): Promise<void> };
        await made.close();
      }
      for (const bad of [min - 1, max + 1, min + 0.5, Number.NaN, String(min)]) {
        expect(invalidOption(make(bad)), `${name}=${String(bad)}`).toBe(name);
      }
    });
  }

  it('the option left out of a pair defaults to what fits the one given', () => {
    const resolve = (options: object) => resolvePolicyOptions({ userAgent: UA, ...options });
    expect(resolve({ robotsMaxTtl: 30_000 }).robotsMinTtl).toBe(30_000);
    expect(resolve({ robotsMaxTtl: 120_000 }).robotsMinTtl).toBe(DEFAULTS.robotsMinTtl);
    expect(resolve({ maxUnreachableRetryInterval: 30_000 }).unreachableRetryInterval).toBe(30_000);
    expect(resolve({ unreachableRetryInterval: 7_200_000 }).maxUnreachableRetryInterval).toBe(
      7_200_000,
    );
    expect(resolve({ unreachableRetryInterval: 5_000 }).maxUnreachableRetryInterval).toBe(
      DEFAULTS.maxUnreachableRetryInterval,
    );
  });

  it('a pair never settles on a value outside either option’s bounds', () => {
    // The one left out is moved to the other's value: that value must lie within its own bounds.
    type Bounded = keyof typeof OPTION_BOUNDS & keyof typeof DEFAULTS;
    const pairs = Object.entries(POLICY_OPTIONS).flatMap(([name, spec]) =>
      'atMost' in spec ? [[name, spec.atMost] as [Bounded, Bounded]] : [],
    );
    expect(pairs).toEqual([
      ['robotsMinTtl', 'robotsMaxTtl'],
      ['unreachableRetryInterval', 'maxUnreachableRetryInterval'],
    ]);
    for (const [lower, upper] of pairs) {
      const [lowMin, lowMax] = OPTION_BOUNDS[lower];
      const [highMin, highMax] = OPTION_BOUNDS[upper];
      expect(highMin, `${upper} lowers ${lower}`).toBeGreaterThanOrEqual(lowMin);
      expect(lowMax, `${lower} raises ${upper}`).toBeLessThanOrEqual(highMax);
      expect(DEFAULTS[lower]).toBeLessThanOrEqual(DEFAULTS[upper]);
    }
  });

  it('robotsMinTtl may not exceed robotsMaxTtl; unreachableRetryInterval not its cap', () => {
    expect(
      invalidOption(() =>
        createRobotsPolicy({ userAgent: UA, robotsMaxTtl: 1_000, robotsMinTtl: 1_001 }),
      ),
    ).toBe('robotsMinTtl');
    expect(
      invalidOption(() =>
        createRobotsPolicy({
          userAgent: UA,
          unreachableRetryInterval: 5_000,
          maxUnreachableRetryInterval: 4_999,
        }),
      ),
    ).toBe('unreachableRetryInterval');
  });
});

describe("prefetch's concurrency", () => {
  it(`is accepted from 1 to 10000 (default ${DEFAULTS.prefetchConcurrency}), refused just past either end`, async () => {
    const policy = createRobotsPolicy({ userAgent: UA });
    for (const concurrency of [1, 10_000]) await policy.prefetch([], { concurrency });
    for (const concurrency of [0, 10_001, 1.5]) {
      await expect(policy.prefetch([], { concurrency })).rejects.toMatchObject({
        code: 'ERR_ROBOTS_INVALID_OPTION',
        option: 'concurrency',
      });
    }
    await policy.close();
  });
});

describe('createMemoryRobotsStore options', () => {
  it('refuses options that are not an object, naming them', () => {
    for (const bad of [null, 'x', 5]) {
      expect(invalidOption(() => createMemoryRobotsStore(bad as never))).toBe('options');
    }
    expect(invalidOption(() => createMemoryRobotsStore({ maxOrigins: 0 }))).toBe('maxOrigins');
  });
});

describe('identity options', () => {
  it('derives the product token from a one-product User-Agent', () => {
    expect(deriveProductToken('ExampleBot/1.0 (+https://example.com/bot)')).toBe('ExampleBot');
    expect(deriveProductToken('Example-Bot_/2')).toBe('Example-Bot_');
    expect(deriveProductToken('Example-Bot_2')).toBeUndefined();
    expect(deriveProductToken('Mozilla/5.0 (compatible; ExampleBot/0.1)')).toBeUndefined();
    expect(deriveProductToken('Mozilla/5.0 (compatible; ExampleBot/0.1) Chrome/1')).toBeUndefined();
    expect(deriveProductToken('Example.Bot/1.0')).toBeUndefined();
    expect(deriveProductToken('(only a comment)')).toBeUndefined();
    const policy = createRobotsPolicy({ userAgent: UA });
    expect(policy.productToken).toBe('ExampleBot');
    expect(policy.userAgent).toBe(UA);
    expect(policy.purpose).toBeUndefined();
  });

  it('requires productToken when the User-Agent is ambiguous, and checks it is in the User-Agent', () => {
    const browserish = 'Mozilla/5.0 (compatible; ExampleBot/0.1; search; +https://example.com/bot)';
    expect(invalidOption(() => createRobotsPolicy({ userAgent: browserish }))).toBe('productToken');
    expect(
      createRobotsPolicy({ userAgent: browserish, productToken: 'examplebot' }).productToken,
    ).toBe('examplebot');
    expect(
      invalidOption(() => createRobotsPolicy({ userAgent: browserish, productToken: 'OtherBot' })),
    ).toBe('productToken');
    expect(
      invalidOption(() =>
        createRobotsPolicy({ userAgent: browserish, productToken: 'Example Bot' }),
      ),
    ).toBe('productToken');
    expect(
      invalidOption(() =>
        createRobotsPolicy({ userAgent: browserish, productToken: 'ExampleBot/0.1' }),
      ),
    ).toBe('productToken');
  });

  it('requires a purpose token that appears in the User-Agent', () => {
    const ua = 'Mozilla/5.0 (compatible; ExampleBot/0.1; search; +https://example.com/bot)';
    expect(
      createRobotsPolicy({ userAgent: ua, productToken: 'ExampleBot', purpose: 'search' }).purpose,
    ).toBe('search');
    expect(
      invalidOption(() =>
        createRobotsPolicy({ userAgent: ua, productToken: 'ExampleBot', purpose: 'ads' }),
      ),
    ).toBe('purpose');
    expect(
      invalidOption(() =>
        createRobotsPolicy({ userAgent: ua, productToken: 'ExampleBot', purpose: 'a b' }),
      ),
    ).toBe('purpose');
  });

  it('refuses a missing, empty, multi-line or oversized User-Agent', () => {
    for (const userAgent of [
      undefined,
      '',
      ' ExampleBot',
      'ExampleBot\r\nX-Evil: 1',
      `Bot/${'1'.repeat(1_100)}`,
      42,
    ]) {
      expect(
        invalidOption(() => createRobotsPolicy({ userAgent } as unknown as RobotsPolicyOptions)),
      ).toBe('userAgent');
    }
  });

  it('accepts a User-Agent of 1024 characters, refuses one of 1025', async () => {
    const head = 'ExampleBot/1.0 (+https://example.com/bot ';
    const at = `${head}${'x'.repeat(1_023 - head.length)})`;
    expect(at).toHaveLength(1_024);
    await createRobotsPolicy({ userAgent: at }).close();
    expect(invalidOption(() => createRobotsPolicy({ userAgent: `${at}1` }))).toBe('userAgent');
  });
});

describe('object options', () => {
  it('validates dispatcher, store, clock, onEvent, crawlDelay, treat429AsUnreachable', () => {
    const cases: [string, unknown][] = [
      ['dispatcher', {}],
      ['store', { get: () => undefined }],
      ['clock', { now: () => 0 }],
      ['onEvent', 'log'],
      ['crawlDelay', 'sometimes'],
      ['treat429AsUnreachable', 'yes'],
    ];
    for (const [name, value] of cases) {
      expect(invalidOption(() => createRobotsPolicy({ userAgent: UA, [name]: value }))).toBe(name);
    }
    expect(invalidOption(() => createRobotsPolicy(null as unknown as RobotsPolicyOptions))).toBe(
      'options',
    );
  });

  it('validates pacer: an object with acquire, pause and close', () => {
    for (const value of [null, 'scheduler', { acquire: () => undefined, pause: () => undefined }]) {
      expect(
        invalidOption(() => createRobotsPolicy({ userAgent: UA, pacer: value as never })),
      ).toBe('pacer');
    }
  });

  it('pairs a fleet pacer with its own fleet store only (Symbol.for brand)', async () => {
    const brand = Symbol.for('polite-crawler.fleet');
    const pacerOf = (fleet: string | undefined) => ({
      ...(fleet === undefined ? {} : { [brand]: fleet }),
      acquire: () => ({ release: () => undefined }),
      pause: () => undefined,
      close: () => Promise.resolve(),
    });
    const storeOf = (fleet: string | undefined) =>
      Object.assign(createMemoryRobotsStore(), fleet === undefined ? {} : { [brand]: fleet });
    const refused: [string | undefined, string | undefined][] = [
      ['a', undefined], // a store of one's own beside the fleet pacer
      [undefined, 'a'], // the fleet store beside a pacer of one's own
      ['a', 'b'], // two fleets mixed
    ];
    for (const [pacerFleet, storeFleet] of refused) {
      const options = { userAgent: UA, pacer: pacerOf(pacerFleet), store: storeOf(storeFleet) };
      expect(invalidOption(() => createRobotsPolicy(options))).toBe('store');
      expect(invalidOption(() => createPoliteFetch(options))).toBe('store');
    }
    // The fleet pacer without any store is refused too: robots.txt would not be shared.
    expect(invalidOption(() => createRobotsPolicy({ userAgent: UA, pacer: pacerOf('a') }))).toBe(
      'store',
    );
    const accepted: [string | undefined, string | undefined][] = [
      ['a', 'a'],
      [undefined, undefined],
    ];
    for (const [pacerFleet, storeFleet] of accepted) {
      const policy = createRobotsPolicy({
        userAgent: UA,
        pacer: pacerOf(pacerFleet),
        store: storeOf(storeFleet),
      });
      await policy.close();
    }
  });

  it('validates the page options and the shared policy', () => {
    expect(
      invalidOption(() => createPoliteFetch({ userAgent: UA, noindex: 'drop' as 'reject' })),
    ).toBe('noindex');
    expect(
      invalidOption(() => createPoliteFetch({ userAgent: UA, scanMeta: 1 as unknown as boolean })),
    ).toBe('scanMeta');
    expect(invalidOption(() => createPoliteFetch({ policy: {} as never }))).toBe('policy');
    const policy = createRobotsPolicy({ userAgent: UA });
    // Refused by the types too: a policy has its own options, which would be silently ignored.
    for (const besides of [{ userAgent: UA }, { minInterval: 5 }, { concurrency: 2 }]) {
      const options = { policy, ...besides } as unknown as PoliteFetchOptions;
      expect(invalidOption(() => createPoliteFetch(options))).toBe('policy');
    }
    expect(() => createPoliteFetch({ policy, minInterval: 5 } as never)).toThrow(/minInterval/);
    const shared = createPoliteFetch({ policy });
    expect(shared.policy).toBe(policy);
  });

  it('createMemoryRobotsStore validates maxOrigins', () => {
    expect(invalidOption(() => createMemoryRobotsStore({ maxOrigins: 0 }))).toBe('maxOrigins');
    expect(createMemoryRobotsStore({ maxOrigins: 1 })).toBeDefined();
  });

  it('messages say what failed and why', () => {
    try {
      createRobotsPolicy({ userAgent: UA, concurrency: 0 });
    } catch (error) {
      expect((error as Error).message).toBe(
        'Invalid option: concurrency (an integer from 1 to 10000; got 0)',
      );
      expect(error).toMatchObject({
        name: 'RobotsInvalidOptionError',
        code: 'ERR_ROBOTS_INVALID_OPTION',
        value: 0,
      });
      expect(error).toBeInstanceOf(TypeError);
    }
    expect.assertions(3);
  });
});

describe('unknown option keys (plain JavaScript typos)', () => {
  const refused = (
    make: () => unknown,
  ): { option: string; suggestion?: string; message: string } => {
    try {
      make();
    } catch (error) {
      if (isRobotsInvalidOptionError(error))
        return {
          option: error.option,
          message: error.message,
          ...(error.suggestion === undefined ? {} : { suggestion: error.suggestion }),
        };
      throw error;
    }
    throw new Error('expected an invalid-option error');
  };

  it('are refused by every factory, naming the key and the closest known option', () => {
    const typo = { userAgent: UA, minIntervall: 250 } as unknown as RobotsPolicyOptions;
    for (const make of [
      () => createRobotsPolicy(typo),
      () => createPoliteFetch(typo),
      () => politeInterceptor(typo),
    ]) {
      expect(refused(make)).toMatchObject({ option: 'minIntervall', suggestion: 'minInterval' });
    }
    expect(refused(() => createRobotsPolicy(typo)).message).toBe(
      'Invalid option: minIntervall (not an option of createRobotsPolicy; did you mean minInterval?; got 250)',
    );
  });

  it('suggests by case-insensitive edit distance (swaps count once), and nothing when far', () => {
    const bad = (key: string): RobotsPolicyOptions => ({ userAgent: UA, [key]: 1 });
    expect(refused(() => createRobotsPolicy(bad('concurency'))).suggestion).toBe('concurrency');
    expect(refused(() => createRobotsPolicy(bad('useragent'))).suggestion).toBe('userAgent');
    expect(refused(() => createRobotsPolicy(bad('robotsTiemout'))).suggestion).toBe(
      'robotsTimeout',
    );
    const far = refused(() => createRobotsPolicy(bad('retries')));
    expect(far).toEqual({
      option: 'retries',
      message: 'Invalid option: retries (not an option of createRobotsPolicy; got 1)',
    });
  });

  it('each factory knows its own options: page options belong to createPoliteFetch only', async () => {
    const politeFetch = createPoliteFetch({ userAgent: UA, maxRedirects: 3, scanMeta: false });
    await politeFetch.close();
    const withPage = { userAgent: UA, maxRedirects: 3 } as unknown as RobotsPolicyOptions;
    expect(refused(() => createRobotsPolicy(withPage)).option).toBe('maxRedirects');
    expect(refused(() => politeInterceptor(withPage)).option).toBe('maxRedirects');
    const policy = createRobotsPolicy({ userAgent: UA });
    try {
      const shared = { policy, maxRedirect: 3 } as unknown as PoliteFetchOptions;
      expect(refused(() => createPoliteFetch(shared))).toMatchObject({
        option: 'maxRedirect',
        suggestion: 'maxRedirects',
      });
    } finally {
      await policy.close();
    }
  });
});
