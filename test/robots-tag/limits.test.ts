import { describe, expect, it } from 'vitest';
import {
  createMetaScanner,
  isRobotsTagUsageError,
  parseRobotsTagHeaders,
  ROBOTS_TAG_DEFAULTS,
  scanRobotsMeta,
} from '@polite-crawler/robots-tag';
import type {
  HeaderParseOptions,
  MetaScanOptions,
  RobotsTagRules,
} from '@polite-crawler/robots-tag';

/** The error `fn` throws, or `undefined`. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

const names = (result: RobotsTagRules): string[] => result.rules.map((r) => r.name);
const codes = (result: RobotsTagRules): string[] => result.diagnostics.map((d) => d.code);

/** A field value of exactly `length` characters whose last member is `last`. */
function fieldOf(length: number, last: string): string {
  const filler = 'noarchive, ';
  const room = length - last.length;
  const value = filler.repeat(Math.floor(room / filler.length)).padEnd(room, ' ') + last;
  expect(value).toHaveLength(length);
  return value;
}

describe('ROBOTS_TAG_DEFAULTS', () => {
  it('is frozen and holds the documented limits', () => {
    expect(Object.isFrozen(ROBOTS_TAG_DEFAULTS)).toBe(true);
    expect(ROBOTS_TAG_DEFAULTS).toEqual({
      maxFieldBytes: 16_384,
      minFieldBytes: 8_192,
      maxHeadBytes: 262_144,
    });
  });
});

describe('maxFieldBytes', () => {
  it.each([
    ['the default', undefined, ROBOTS_TAG_DEFAULTS.maxFieldBytes],
    ['the floor', 8_192, 8_192],
    ['a value below the floor, raised to it', 100, 8_192],
    ['a larger value', 20_000, 20_000],
  ])('%s: a value of exactly the limit is parsed whole', (_title, option, limit) => {
    const options: HeaderParseOptions = option === undefined ? {} : { maxFieldBytes: option };
    const result = parseRobotsTagHeaders(fieldOf(limit, 'nofollow'), options);
    expect(names(result).at(-1)).toBe('nofollow');
    expect(result.diagnostics).toEqual([]);
  });

  it.each([
    ['the default', undefined, ROBOTS_TAG_DEFAULTS.maxFieldBytes],
    ['the floor', 8_192, 8_192],
    ['a value below the floor, raised to it', 1, 8_192],
  ])(
    '%s: one character past the limit drops the member the cut went through',
    (_title, option, limit) => {
      const options: HeaderParseOptions = option === undefined ? {} : { maxFieldBytes: option };
      const result = parseRobotsTagHeaders(fieldOf(limit, 'nofollow') + 'x', options);
      expect(names(result)).not.toContain('nofollow');
      expect(names(result).at(-1)).toBe('noarchive');
      expect(codes(result)).toEqual(['field-truncated']);
      expect(result.diagnostics[0]).toMatchObject({ source: 'header', line: 1 });
    },
  );

  it('keeps the last member when the cut falls on a member boundary', () => {
    const result = parseRobotsTagHeaders(fieldOf(8_192, 'nofollow') + ', noindex', {
      maxFieldBytes: 8_192,
    });
    expect(names(result)).toContain('nofollow');
    expect(names(result)).not.toContain('noindex');
    expect(codes(result)).toEqual(['field-truncated']);
  });

  it('keeps the last member when only blanks separate it from the next comma', () => {
    const result = parseRobotsTagHeaders(fieldOf(8_192, 'nofollow') + '   , noindex', {
      maxFieldBytes: 8_192,
    });
    expect(names(result)).toContain('nofollow');
    expect(codes(result)).toEqual(['field-truncated']);
  });

  it('drops a date the cut went through, even at one of its commas', () => {
    const date = 'unavailable_after: Friday';
    const result = parseRobotsTagHeaders(fieldOf(8_192, date) + ', 25-Jun-10 15:00:00 PST', {
      maxFieldBytes: 8_192,
    });
    expect(names(result)).not.toContain('unavailable_after');
    expect(codes(result)).toEqual(['field-truncated']);
  });

  it('drops a structured member cut inside its quoted string', () => {
    const result = parseRobotsTagHeaders(fieldOf(8_192, '*;unavailable_after="2010-06') + '-25"', {
      maxFieldBytes: 8_192,
    });
    expect(names(result)).not.toContain('unavailable_after');
    expect(codes(result)).toEqual(['field-truncated']);
  });

  it('applies to each field line on its own', () => {
    const line = fieldOf(8_192, 'nofollow');
    const result = parseRobotsTagHeaders([line, line + 'x', line], { maxFieldBytes: 8_192 });
    expect(result.rules.filter((r) => r.name === 'nofollow').map((r) => r.line)).toEqual([1, 3]);
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([['field-truncated', 2]]);
  });

  it.each([[0], [-1], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY], ['16384']])(
    'rejects %j',
    (value) => {
      let caught: unknown;
      try {
        parseRobotsTagHeaders('noindex', { maxFieldBytes: value as number });
      } catch (error) {
        caught = error;
      }
      expect(isRobotsTagUsageError(caught)).toBe(true);
      expect(caught).toMatchObject({
        code: 'ERR_ROBOTS_TAG_INVALID_OPTION',
        argument: 'maxFieldBytes',
      });
    },
  );

  it('rejects input of the wrong type', () => {
    expect(thrown(() => parseRobotsTagHeaders(42 as never))).toMatchObject({
      code: 'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
      argument: 'fieldLines',
    });
    expect(thrown(() => parseRobotsTagHeaders(null as never))).toMatchObject({
      argument: 'fieldLines',
    });
    expect(thrown(() => parseRobotsTagHeaders('noindex', 'big' as never))).toMatchObject({
      argument: 'options',
    });
  });
});

describe('maxHeadBytes', () => {
  const meta = '<meta name=robots content=noindex>';
  const headOf = (length: number): string => '<head>'.padEnd(length - meta.length, ' ') + meta;

  it.each([[100], [4_096], [ROBOTS_TAG_DEFAULTS.maxHeadBytes]])(
    'reads a meta ending exactly at the cap (%i) when the input ends there',
    (cap) => {
      const html = headOf(cap);
      const options: MetaScanOptions =
        cap === ROBOTS_TAG_DEFAULTS.maxHeadBytes ? {} : { maxHeadBytes: cap };
      const scanner = createMetaScanner(options);
      scanner.write(html);
      scanner.end();
      expect(names(scanner.result())).toEqual(['noindex']);
      expect(scanner.result().diagnostics).toEqual([]);
      expect(scanner.bytesScanned).toBe(cap);
      expect(scanner.stopReason).toBe('input-end');
    },
  );

  it.each([[100], [ROBOTS_TAG_DEFAULTS.maxHeadBytes]])(
    'does not read a meta ending one byte past the cap (%i)',
    (cap) => {
      const html = headOf(cap + 1);
      const options: MetaScanOptions =
        cap === ROBOTS_TAG_DEFAULTS.maxHeadBytes ? {} : { maxHeadBytes: cap };
      const scanner = createMetaScanner(options);
      expect(scanner.write(html)).toBe(true);
      expect(names(scanner.result())).toEqual([]);
      expect(codes(scanner.result())).toEqual(['scan-byte-cap']);
      expect(scanner.bytesScanned).toBe(cap);
      expect(scanner.stopReason).toBe('byte-cap');
    },
  );

  it('reports the cap when more input follows a head that never closed', () => {
    const scanner = createMetaScanner({ maxHeadBytes: 100 });
    expect(scanner.write(headOf(100))).toBe(false);
    expect(scanner.write(' ')).toBe(true);
    expect(names(scanner.result())).toEqual(['noindex']);
    expect(codes(scanner.result())).toEqual(['scan-byte-cap']);
    expect(scanner.bytesScanned).toBe(100);
  });

  it('counts bytes, not characters, for byte input', () => {
    const html = new TextEncoder().encode('<title>ééé</title>' + meta); // 3 two-byte characters
    expect(names(scanRobotsMeta(html, { maxHeadBytes: html.length }))).toEqual(['noindex']);
    expect(names(scanRobotsMeta(html, { maxHeadBytes: html.length - 1 }))).toEqual([]);
  });

  it.each([
    [{ maxHeadBytes: 0 }, 'maxHeadBytes'],
    [{ maxHeadBytes: -5 }, 'maxHeadBytes'],
    [{ maxHeadBytes: 2.5 }, 'maxHeadBytes'],
    [{ maxHeadBytes: '1000' }, 'maxHeadBytes'],
    [{ productTokens: 'ExampleBot' }, 'productTokens'],
    [{ productTokens: ['Example Bot'] }, 'productTokens'],
    [{ productTokens: [7] }, 'productTokens'],
    [{ encoding: 'klingon' }, 'encoding'],
    ['fast', 'options'],
  ])('rejects %j naming %s', (options, argument) => {
    let caught: unknown;
    try {
      createMetaScanner(options as MetaScanOptions);
    } catch (error) {
      caught = error;
    }
    expect(isRobotsTagUsageError(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'ERR_ROBOTS_TAG_INVALID_OPTION', argument });
    expect((caught as Error).message).toContain(argument);
  });

  it('rejects a chunk that is neither text nor bytes', () => {
    const scanner = createMetaScanner();
    expect(thrown(() => scanner.write(42 as never))).toMatchObject({ argument: 'chunk' });
  });
});
