import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createMetaScanner,
  isRobotsTagUsageError,
  parseRobotsTagHeaders,
  ROBOTS_TAG_DIAGNOSTIC_CODES,
  ROBOTS_TAG_ERROR_CODES,
  RobotsTagUsageError,
  scanRobotsMeta,
} from '@polite-crawler/robots-tag';
import type {
  HeaderParseOptions,
  MetaScanOptions,
  RobotsDirectives,
  RobotsTagDiagnosticCode,
  RobotsTagHeaderInput,
} from '@polite-crawler/robots-tag';

describe('diagnostics', () => {
  it('every diagnostic code can actually be produced', () => {
    const seen = new Set<string>([
      ...parseRobotsTagHeaders(['x'.repeat(20_000), 'max-snippet: lots', '!!!']).diagnostics.map(
        (d) => d.code,
      ),
      ...scanRobotsMeta('<head>' + ' '.repeat(300_000)).diagnostics.map((d) => d.code),
    ]);
    expect([...seen].sort()).toEqual([...ROBOTS_TAG_DIAGNOSTIC_CODES].sort());
  });
});

describe('RobotsTagUsageError', () => {
  it('has a literal name, a stable code, the argument at fault and the value', () => {
    let caught: unknown;
    try {
      createMetaScanner({ maxHeadBytes: -1 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RobotsTagUsageError);
    expect(caught).toBeInstanceOf(Error);
    expect(caught).toMatchObject({
      name: 'RobotsTagUsageError',
      code: 'ERR_ROBOTS_TAG_INVALID_OPTION',
      argument: 'maxHeadBytes',
      value: -1,
    });
    expect((caught as Error).message).toBe(
      'invalid option: maxHeadBytes (expected a positive integer, got -1)',
    );
  });

  it('keeps the cause', () => {
    let caught: unknown;
    try {
      createMetaScanner({ encoding: 'no-such-encoding' });
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).cause).toBeInstanceOf(RangeError);
  });

  it('is recognised across copies of the package by its Symbol.for brand, and nothing else is', () => {
    const brand = Symbol.for('@polite-crawler/robots-tag.RobotsTagUsageError');
    const foreign = Object.assign(new Error('from another install'), { [brand]: true });
    expect(isRobotsTagUsageError(foreign)).toBe(true);
    expect(isRobotsTagUsageError(new Error('plain'))).toBe(false);
    expect(isRobotsTagUsageError({ code: 'ERR_ROBOTS_TAG_INVALID_OPTION' })).toBe(false);
    expect(isRobotsTagUsageError(null)).toBe(false);
    expect(isRobotsTagUsageError('ERR_ROBOTS_TAG_INVALID_OPTION')).toBe(false);
  });

  it('lists stable codes', () => {
    expect(ROBOTS_TAG_ERROR_CODES).toEqual([
      'ERR_ROBOTS_TAG_INVALID_OPTION',
      'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
    ]);
    expect(Object.isFrozen(ROBOTS_TAG_ERROR_CODES)).toBe(true);
    expect(Object.isFrozen(ROBOTS_TAG_DIAGNOSTIC_CODES)).toBe(true);
  });
});

describe('public types', () => {
  it('options are optional, readonly and typed', () => {
    expectTypeOf<HeaderParseOptions>().toEqualTypeOf<{ readonly maxFieldBytes?: number }>();
    expectTypeOf<MetaScanOptions['productTokens']>().toEqualTypeOf<readonly string[] | undefined>();
    expectTypeOf<MetaScanOptions['maxHeadBytes']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<MetaScanOptions['encoding']>().toEqualTypeOf<string | undefined>();
  });

  it('accepts every documented header input shape', () => {
    expectTypeOf<Headers>().toMatchTypeOf<RobotsTagHeaderInput>();
    expectTypeOf<string>().toMatchTypeOf<RobotsTagHeaderInput>();
    expectTypeOf<readonly string[]>().toMatchTypeOf<RobotsTagHeaderInput>();
    expectTypeOf<Array<[string, string]>>().toMatchTypeOf<RobotsTagHeaderInput>();
    expectTypeOf<Array<{ name: string; value: string }>>().toMatchTypeOf<RobotsTagHeaderInput>();
    expectTypeOf<
      Record<string, string | string[] | undefined>
    >().toMatchTypeOf<RobotsTagHeaderInput>();
    expectTypeOf<Map<string, string>>().toMatchTypeOf<RobotsTagHeaderInput>();
    expectTypeOf<number>().not.toMatchTypeOf<RobotsTagHeaderInput>();
  });

  it('directives expose the documented fields', () => {
    expectTypeOf<RobotsDirectives['maxImagePreview']>().toEqualTypeOf<
      'none' | 'standard' | 'large' | undefined
    >();
    expectTypeOf<RobotsDirectives['unavailableAfter']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<RobotsTagDiagnosticCode>().toEqualTypeOf<
      (typeof ROBOTS_TAG_DIAGNOSTIC_CODES)[number]
    >();
  });
});
