import { describe, expect, it } from 'vitest';
import {
  createMetaScanner,
  createMetaScannerFactory,
  isRobotsTagUsageError,
  parseRobotsMetaContent,
  parseRobotsTagHeaders,
  ROBOTS_TAG_DEFAULTS,
  scanRobotsMeta,
} from '@polite-crawler/robots-tag';
import type {
  HeaderParseOptions,
  MetaScanOptions,
  MetaScanner,
  RobotsTagRules,
} from '@polite-crawler/robots-tag';

// The bounds of a scanner factory's meta cache, as the README states them
// ("createMetaScannerFactory": 256 parses, at most 4 of one content, contents over 512
// characters parsed every time).
const META_CACHE_ENTRIES = 256;
const META_CACHE_MAX_VARIANTS = 4;
const META_CACHE_MAX_CONTENT = 512;

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

  describe('with a stray quote or parenthesis before the cut', () => {
    const strays = [
      ['quote', 'noindex, it"s, nofollow, '],
      ['parenthesis', 'noindex, a(b, nofollow, '],
    ];

    it.each(strays)('a %s: the whole members after it are kept (the reported line)', (_k, head) => {
      const value = head + 'x, '.repeat(6_000);
      expect(value.length).toBeGreaterThan(ROBOTS_TAG_DEFAULTS.maxFieldBytes);
      const result = parseRobotsTagHeaders(value);
      expect(names(result).slice(0, 2)).toEqual(['noindex', 'nofollow']);
      expect(codes(result)).toContain('field-truncated');
    });

    it.each(strays)('a %s: at the limit and one character past it', (_k, head) => {
      const value = head + fieldOf(8_192 - head.length, 'noimageindex');
      const whole = parseRobotsTagHeaders(value, { maxFieldBytes: 8_192 });
      expect(names(whole)).toEqual(expect.arrayContaining(['noindex', 'nofollow', 'noimageindex']));
      expect(codes(whole)).not.toContain('field-truncated');
      const cut = parseRobotsTagHeaders(value + 'x', { maxFieldBytes: 8_192 });
      expect(names(cut)).toEqual(expect.arrayContaining(['noindex', 'nofollow', 'noarchive']));
      expect(names(cut)).not.toContain('noimageindex');
      expect(codes(cut)).toContain('field-truncated');
      // The members before the cut are exactly those of the untruncated value but its last.
      expect(cut.rules.map((r) => r.raw)).toEqual(whole.rules.slice(0, -1).map((r) => r.raw));
    });

    it('one that closes only more than maxFieldBytes past the cut is taken as stray', () => {
      const value = 'noindex, it"s, nofollow, ' + 'x, '.repeat(6_000) + '"';
      const result = parseRobotsTagHeaders(value, { maxFieldBytes: 8_192 });
      expect(names(result).slice(0, 2)).toEqual(['noindex', 'nofollow']);
    });
  });

  it('drops the member from a quote that is open at the cut and closes after it', () => {
    // The quoted string runs past the cut: nothing inside it is a rule, whole or cut.
    const value = 'noindex, *;x="' + 'nofollow, '.repeat(1_000) + '", noarchive';
    const result = parseRobotsTagHeaders(value, { maxFieldBytes: 8_192 });
    expect(names(result)).toEqual(['noindex']);
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

  it('ends the head at text before a character reference the cap cuts, as a split there does', () => {
    // parse5 reports the NUL before `&` once the reference is over; within the cap the head
    // is already over at the NUL, whether the input arrives whole or in two writes.
    const options = { maxHeadBytes: 2, productTokens: ['examplebot'] };
    const whole = createMetaScanner(options);
    whole.write('\u0000&nbsp;');
    const split = createMetaScanner(options);
    split.write('\u0000');
    split.write('&nbsp;');
    for (const scanner of [whole, split]) {
      expect(scanner.stopReason).toBe('head-end');
      expect(codes(scanner.result())).toEqual([]);
    }
    // Blank text before a reference the cap cuts could still be a blank head: capped.
    const blank = createMetaScanner({ maxHeadBytes: 3, productTokens: ['examplebot'] });
    blank.write('\n&#32;<meta name="robots" content="noindex">');
    expect(blank.stopReason).toBe('byte-cap');
    expect(codes(blank.result())).toEqual(['scan-byte-cap']);
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
    [{ productTokens: ['*'] }, 'productTokens'],
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

  describe('character references cut by the cap: the same verdict for every split', () => {
    const before = '<head><meta name="robots" content="noindex">';
    const after = '<meta name="robots" content="nofollow"></head><body>';
    // What ends the cap's text, and whether the head has ended by then. A reference that may
    // still go on at the cap (`&`, `&am`, `&#3`) could become anything (`&#32;` is blank), and
    // so could a `<` or `</`: when the text at the cap ends in one, its last run of text is not
    // judged (before parse5, the text before such a reference was; those rows said 'head-end').
    const cases: Array<[string, 'head-end' | 'byte-cap']> = [
      ['x&amp;y', 'head-end'],
      ['&amp;x', 'head-end'],
      ['x ', 'head-end'],
      ['x<p', 'head-end'],
      ['x&amp;<!--', 'head-end'],
      ['x<', 'byte-cap'],
      ['x</', 'byte-cap'],
      ['x&&', 'byte-cap'],
      ['&&', 'byte-cap'],
      ['<&', 'byte-cap'],
      [' &am&', 'byte-cap'],
      ['\n&amp&', 'byte-cap'],
      [' &qq', 'byte-cap'],
      ['x&amp;&am', 'byte-cap'],
      [' &#3a', 'byte-cap'],
      [' &', 'byte-cap'],
      [' &am', 'byte-cap'],
      [' &Ta', 'byte-cap'],
      [' &#', 'byte-cap'],
      [' &#3', 'byte-cap'],
      [' &#32&', 'byte-cap'],
      [' &#32;&', 'byte-cap'],
      [' &#x20&#9&', 'byte-cap'],
      ['<title>x&&', 'byte-cap'],
      ['<!-- x&&', 'byte-cap'],
    ];
    const outcome = (
      make: (options: MetaScanOptions) => MetaScanner,
      chunks: ReadonlyArray<string | Uint8Array>,
      cap: number,
    ): unknown => {
      const scanner = make({ maxHeadBytes: cap });
      for (const chunk of chunks) if (scanner.write(chunk)) break;
      scanner.end();
      return { stopReason: scanner.stopReason, result: scanner.result() };
    };

    it.each(cases)('%j at the cap: %s', (tail, verdict) => {
      const text = before + tail + after;
      const bytes = new TextEncoder().encode(text);
      const cap = before.length + tail.length;
      const expected = outcome(createMetaScanner, [text], cap);
      expect(expected).toMatchObject({
        stopReason: verdict,
        result: {
          rules: [{ name: 'noindex' }],
          diagnostics: verdict === 'byte-cap' ? [{ code: 'scan-byte-cap' }] : [],
        },
      });
      for (const make of [
        createMetaScanner,
        (o: MetaScanOptions) => createMetaScannerFactory(o)(),
      ]) {
        for (let i = 0; i <= text.length; i++) {
          const split = [text.slice(0, i), text.slice(i)];
          expect(outcome(make, split, cap), `text split at ${i}`).toEqual(expected);
          const inBytes = [bytes.subarray(0, i), bytes.subarray(i)];
          expect(outcome(make, inBytes, cap), `bytes split at ${i}`).toEqual(expected);
        }
        const oneByOne = Array.from(bytes, (b) => Uint8Array.of(b));
        expect(outcome(make, oneByOne, cap), 'byte by byte').toEqual(expected);
      }
    });
  });
});

describe('the meta cache of a scanner factory', () => {
  const page = (content: string): string =>
    `<head><meta name="robots" content="${content}"></head><body>`;
  const scan = (newScanner: () => MetaScanner, html: string): RobotsTagRules => {
    const scanner = newScanner();
    scanner.write(html);
    scanner.end();
    return scanner.result();
  };

  it('shares the frozen rules of a meta seen before, equal to a fresh parse', () => {
    const newScanner = createMetaScannerFactory({ productTokens: ['ExampleBot'] });
    const first = scan(newScanner, page('noindex, max-snippet:20'));
    const again = scan(newScanner, page('noindex, max-snippet:20'));
    expect(again).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toEqual(scanRobotsMeta(page('noindex, max-snippet:20')));
    // The same meta at another index, or with another meta beside it, is another result.
    const later = scan(
      newScanner,
      `<head><meta charset="utf-8">${page('noindex, max-snippet:20')}`,
    );
    expect(later).not.toBe(first);
    expect(later.rules[0]?.line).toBe(2);
    const two = scan(
      newScanner,
      '<head><meta name="robots" content="noindex, max-snippet:20"><meta name="examplebot" content="nofollow"><body>',
    );
    expect(names(two)).toEqual(['noindex', 'max-snippet', 'nofollow']);
  });

  it(`keeps contents of up to ${META_CACHE_MAX_CONTENT} characters, parses longer ones each time`, () => {
    const newScanner = createMetaScannerFactory();
    const at = fieldOf(META_CACHE_MAX_CONTENT, 'nosnippet');
    expect(scan(newScanner, page(at))).toBe(scan(newScanner, page(at)));
    const past = fieldOf(META_CACHE_MAX_CONTENT + 1, 'nosnippet');
    const once = scan(newScanner, page(past));
    const twice = scan(newScanner, page(past));
    expect(twice).not.toBe(once);
    expect(twice).toEqual(once);
  });

  /** A page whose robots meta comes after `before` other (non-robots) metas: its position. */
  const at = (before: number, content: string): string =>
    `<head>${'<meta charset="utf-8">'.repeat(before)}<meta name="robots" content="${content}"></head><body>`;

  it('a content under another name, at another position, or read for a listed token is parsed apart', () => {
    const listed = createMetaScannerFactory({ productTokens: ['ExampleBot'] });
    const robots = scan(listed, page('noindex'));
    const named = scan(listed, '<head><meta name="examplebot" content="noindex"></head><body>');
    const moved = scan(listed, at(1, 'noindex'));
    for (const other of [named, moved]) expect(other).not.toBe(robots);
    // Each is kept as its own parse.
    expect(scan(listed, '<head><meta name="examplebot" content="noindex"></head><body>')).toBe(
      named,
    );
    expect(scan(listed, at(1, 'noindex'))).toBe(moved);
    expect(scan(listed, page('noindex'))).toBe(robots);
    // Without productTokens an unlisted name's unknown rules are dropped; with them, kept.
    const unlisted = createMetaScannerFactory();
    const known = scan(
      unlisted,
      '<head><meta name="examplebot" content="noindex, x-custom"></head><body>',
    );
    const full = scan(
      listed,
      '<head><meta name="examplebot" content="noindex, x-custom"></head><body>',
    );
    expect(names(known)).not.toEqual(names(full));
  });

  it(`keeps ${META_CACHE_MAX_VARIANTS} parses of one content, and parses it each time past them`, () => {
    const newScanner = createMetaScannerFactory();
    const held = Array.from({ length: META_CACHE_MAX_VARIANTS }, (_, k) =>
      scan(newScanner, at(k, 'noarchive')),
    );
    held.forEach((rules, k) => expect(scan(newScanner, at(k, 'noarchive'))).toBe(rules));
    const past = scan(newScanner, at(META_CACHE_MAX_VARIANTS, 'noarchive'));
    const again = scan(newScanner, at(META_CACHE_MAX_VARIANTS, 'noarchive'));
    expect(again).not.toBe(past);
    expect(again).toEqual(past);
    expect(scan(newScanner, at(0, 'noarchive'))).toBe(held[0]);
  });

  it('when the content seen first is the one being added to, the new parse is kept', () => {
    const newScanner = createMetaScannerFactory();
    const first = scan(newScanner, page('max-snippet:0'));
    for (let i = 1; i < META_CACHE_ENTRIES; i++) scan(newScanner, page(`max-snippet:${i}`));
    expect(scan(newScanner, page('max-snippet:0'))).toBe(first); // full, all held
    // A second parse of the first content lets that content go, then is kept itself.
    const second = scan(newScanner, at(1, 'max-snippet:0'));
    expect(scan(newScanner, at(1, 'max-snippet:0'))).toBe(second);
    expect(scan(newScanner, page('max-snippet:0'))).not.toBe(first);
  });

  it(`holds ${META_CACHE_ENTRIES} metas; one more lets the oldest go`, () => {
    const newScanner = createMetaScannerFactory();
    const oldest = scan(newScanner, page('max-snippet:0'));
    for (let i = 1; i < META_CACHE_ENTRIES; i++) scan(newScanner, page(`max-snippet:${i}`));
    expect(scan(newScanner, page('max-snippet:0'))).toBe(oldest);
    scan(newScanner, page(`max-snippet:${META_CACHE_ENTRIES}`));
    const parsedAgain = scan(newScanner, page('max-snippet:0'));
    expect(parsedAgain).not.toBe(oldest);
    expect(parsedAgain).toEqual(oldest);
  });
});

describe('very many members', () => {
  // More pieces than a function call takes arguments: they must be gathered one by one.
  const members = 300_000;

  it('a content with an unclosed parenthesis before them is read without throwing', () => {
    const result = parseRobotsMetaContent('robots', `(${'x,'.repeat(members)}`);
    expect(result.rules.length + result.diagnostics.length).toBeGreaterThan(0);
  });

  it('a page whose robots meta fills the head is scanned without throwing', () => {
    const html = `<head><meta name="robots" content="(${',x'.repeat(members)}"></head><body>`;
    const result = scanRobotsMeta(html, { maxHeadBytes: html.length + 1 });
    expect(result.diagnostics.length + result.rules.length).toBeGreaterThan(0);
    const newScanner = createMetaScannerFactory({ maxHeadBytes: html.length + 1 });
    const scanner = newScanner();
    scanner.write(html);
    scanner.end();
    expect(scanner.result()).toEqual(result);
  });

  it('a meta with that many rules is read whole by a factory scanner', () => {
    const html = `<head><meta name="robots" content="${'x,'.repeat(members)}"></head><body>`;
    const scanner = createMetaScannerFactory({ maxHeadBytes: html.length + 1 })();
    scanner.write(html);
    scanner.end();
    expect(scanner.result().rules).toHaveLength(members);
  });
});
