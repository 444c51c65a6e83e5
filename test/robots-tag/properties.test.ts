import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createMetaScanner,
  directivesFor,
  isUnavailable,
  parseRobotsDate,
  parseRobotsTagHeaders,
  scanRobotsMeta,
} from '@polite-crawler/robots-tag';
import type { MetaScanOptions, MetaScanner, RobotsTagRules } from '@polite-crawler/robots-tag';
import { chunksOf } from './chunks-of.js';

const RUNS = { numRuns: 300 };

// ---- generators -------------------------------------------------------------------------

const ruleName = fc.constantFrom(
  'noindex',
  'NOFOLLOW',
  'nosnippet',
  'noarchive',
  'none',
  'all',
  'noimageindex',
  'notranslate',
  'indexifembedded',
  'noai',
  'index',
  'nocache',
);
const valued = fc.oneof(
  fc.integer({ min: -3, max: 500 }).map((n) => `max-snippet: ${n}`),
  fc.integer({ min: -3, max: 500 }).map((n) => `max-video-preview:${n}`),
  fc.constantFrom('none', 'standard', 'large', 'huge').map((s) => `max-image-preview: ${s}`),
  fc.constantFrom(
    'unavailable_after: Friday, 25-Jun-10 15:00:00 PST',
    'unavailable_after: 25 Jun 2010 15:00:00 PST',
    'unavailable_after: 2010-06-25T15:00:00Z',
    'unavailable_after: June 25, 2010',
    'unavailable_after: soon',
  ),
);
const token = fc.constantFrom('*', '', 'ExampleBot', 'googlebot', 'otherbot', 'Bad Bot', 'a/b');
/** Members in every syntax this package reads, and broken variants of them. */
const member = fc.oneof(
  ruleName,
  valued,
  fc.tuple(token, ruleName).map(([t, r]) => `${t}: ${r}`),
  fc
    .tuple(
      token,
      fc.array(fc.oneof(ruleName, fc.constant('max-snippet=20'), fc.constant('x="a,b"')), {
        maxLength: 3,
      }),
    )
    .map(([t, rs]) => [t, ...rs].join(';')),
  fc.tuple(token, ruleName).map(([t, r]) => `${t}=;${r}`),
  fc
    .tuple(token, fc.array(ruleName, { maxLength: 3 }))
    .map(([t, rs]) => `${t.toLowerCase()}=(${rs.join(' ')})`),
  fc.constantFrom('"', '(', ')', ';', '=', ':', '  ', '?0', '@12', ':AQID:', '\\'),
  // RFC 9651 Dates in range and past JavaScript's (a Date bare item must end the member).
  fc
    .tuple(
      token,
      fc.constantFrom('@1893456000', '@8640000000000', '@8640000000001', '@-999999999999999'),
    )
    .chain(([t, d]) =>
      fc.constantFrom(`${t};unavailable_after=${d}`, `${t.toLowerCase()}=${d}`, `max-snippet=${d}`),
    ),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
const fieldValue = fc.array(member, { maxLength: 8 }).map((ms) => ms.join(', '));
const anyHeaderText = fc.oneof(fieldValue, fc.string({ unit: 'binary', maxLength: 200 }));

const metaContent = fc
  .array(fc.oneof(ruleName, valued, fc.string({ maxLength: 8 })), { maxLength: 4 })
  .map((ms) => ms.join(', '));
const attrValue = (value: string, quote: string): string =>
  quote === ''
    ? value.replace(/[\s>"'=<`]/g, '') || 'x'
    : quote + value.replaceAll(quote, '') + quote;
const meta = fc
  .tuple(
    fc.constantFrom('robots', 'ROBOTS', 'ExampleBot', 'otherbot', 'description', 'og:title'),
    metaContent,
    fc.constantFrom('"', "'", ''),
    fc.boolean(),
  )
  .map(([name, content, quote, upper]) => {
    const tag = `<meta name=${attrValue(name, quote)} content=${attrValue(content, quote)}>`;
    return upper ? tag.toUpperCase() : tag;
  });
const fragment = fc.oneof(
  { weight: 4, arbitrary: meta },
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      '<head>',
      '</head>',
      '<html lang=de>',
      '<body>',
      '</body>',
      '<p>x</p>',
      '<title>Grüße 😀 &amp; ✓</title>',
      '<script>var s = "<meta name=robots content=nofollow>";</script>',
      '<style>a > b {}</style>',
      '<!-- <meta name=robots content=noarchive> -->',
      '<template><meta name=robots content=noimageindex></template>',
      '<noscript><meta name=robots content=notranslate></noscript>',
      '\n  ',
      'héllo',
      '&nbsp;',
      '<link rel=x href=/y>',
      '<!DOCTYPE html>',
      '</p>',
      '</br>',
      '<noframes><meta name=robots content=none></noframes>',
      '<meta charset="utf-8">',
      '<meta name="robots" content="&#110;oindex">',
      '\ufeff',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
);
const htmlDoc = fc.array(fragment, { maxLength: 25 }).map((fs) => fs.join(''));
/** Bytes: UTF-8 of a generated document, sometimes with raw non-UTF-8 bytes spliced in. */
const docBytes = fc.oneof(
  htmlDoc.map((h) => new TextEncoder().encode(h)),
  fc.tuple(htmlDoc, fc.uint8Array({ maxLength: 16 }), htmlDoc).map(([a, junk, b]) => {
    const enc = new TextEncoder();
    return Uint8Array.from([...enc.encode(a), ...junk, ...enc.encode(b)]);
  }),
  fc.uint8Array({ maxLength: 300 }),
);
const scanOptions = fc.oneof(
  fc.constant<MetaScanOptions>({}),
  fc.constant<MetaScanOptions>({ productTokens: ['ExampleBot'] }),
  fc
    .integer({ min: 1, max: 600 })
    .map((maxHeadBytes): MetaScanOptions => ({ maxHeadBytes, productTokens: ['examplebot'] })),
);

function scanIn(chunks: ReadonlyArray<string | Uint8Array>, options: MetaScanOptions): MetaScanner {
  const scanner = createMetaScanner(options);
  for (const chunk of chunks) if (scanner.write(chunk)) break;
  scanner.end();
  return scanner;
}

const strip = (r: RobotsTagRules) => ({
  rules: r.rules.map(({ line: _l, ...rest }) => rest),
  diagnostics: r.diagnostics.map(({ line: _l, ...rest }) => rest),
});

// ---- properties -------------------------------------------------------------------------

describe('header parsing properties', () => {
  it('never throws and keeps its output bounded and well-formed', () => {
    fc.assert(
      fc.property(
        anyHeaderText,
        fc.option(fc.integer({ min: 1, max: 40_000 }), { nil: undefined }),
        (value, max) => {
          const result = parseRobotsTagHeaders(
            value,
            max === undefined ? {} : { maxFieldBytes: max },
          );
          expect(result.rules.length).toBeLessThanOrEqual(value.length);
          expect(result.diagnostics.length).toBeLessThanOrEqual(value.length + 1);
          for (const rule of result.rules) {
            expect(rule.token === '*' || /^[a-z0-9_-]+$/.test(rule.token)).toBe(true);
            expect(rule.name).toBe(rule.name.toLowerCase());
            expect(['structured', 'legacy']).toContain(rule.syntax);
            expect(rule.raw?.length ?? 0).toBeLessThanOrEqual(200);
          }
          directivesFor(result, 'ExampleBot');
        },
      ),
      RUNS,
    );
  });

  it('parses each field line on its own: a list gives the concatenation of its lines', () => {
    fc.assert(
      fc.property(fc.array(anyHeaderText, { maxLength: 4 }), (lines) => {
        const together = parseRobotsTagHeaders(lines);
        const apart = lines.map((line) => strip(parseRobotsTagHeaders(line)));
        expect(strip(together)).toEqual({
          rules: apart.flatMap((r) => r.rules),
          diagnostics: apart.flatMap((r) => r.diagnostics),
        });
      }),
      RUNS,
    );
  });

  it('resolves directives the same whatever the token’s case', () => {
    fc.assert(
      fc.property(fieldValue, fc.constantFrom('examplebot', 'googlebot'), (value, name) => {
        const rules = parseRobotsTagHeaders(value);
        const lower = directivesFor(rules, name);
        const upper = directivesFor(rules, name.toUpperCase());
        expect(upper).toEqual(lower);
        // Everything that applies to everyone also applies to the named crawler.
        const everyone = directivesFor(rules, '*');
        for (const flag of ['noindex', 'nofollow', 'nosnippet', 'noarchive'] as const) {
          if (everyone[flag]) expect(lower[flag]).toBe(true);
        }
        if (lower.unavailableAfter !== undefined) {
          expect(isUnavailable(lower, lower.unavailableAfter.getTime() + 1)).toBe(true);
        }
      }),
      RUNS,
    );
  });
});

describe('date properties', () => {
  const instant = fc.date({
    min: new Date('1970-01-01T00:00:00Z'),
    max: new Date('2099-12-31T23:59:59Z'),
    noInvalidDate: true,
  });

  it('reads back RFC 1123 (toUTCString) and ISO 8601 (toISOString)', () => {
    fc.assert(
      fc.property(instant, (d) => {
        expect(parseRobotsDate(d.toISOString())?.getTime()).toBe(d.getTime());
        expect(parseRobotsDate(d.toUTCString())?.getTime()).toBe(
          Math.floor(d.getTime() / 1000) * 1000,
        );
      }),
      RUNS,
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 150 }), (text) => {
        const date = parseRobotsDate(text);
        if (date !== undefined) expect(Number.isNaN(date.getTime())).toBe(false);
      }),
      RUNS,
    );
  });
});

describe('meta scanning properties', () => {
  it('never throws on arbitrary text or bytes', () => {
    fc.assert(
      fc.property(
        fc.oneof(htmlDoc, fc.string({ unit: 'binary', maxLength: 300 })),
        docBytes,
        scanOptions,
        (text, bytes, options) => {
          scanRobotsMeta(text, options);
          scanRobotsMeta(bytes, options);
        },
      ),
      RUNS,
    );
  });

  it('gives the same result for any split of the same bytes, also inside multi-byte characters', () => {
    fc.assert(
      fc.property(
        docBytes,
        fc.array(fc.nat(), { maxLength: 12 }),
        scanOptions,
        (bytes, cuts, options) => {
          const whole = scanIn([bytes], options);
          const split = scanIn(chunksOf(bytes, cuts), options);
          expect(split.result()).toEqual(whole.result());
          expect(split.stopReason).toBe(whole.stopReason);
        },
      ),
      RUNS,
    );
  });

  it('gives the same result with empty writes anywhere, also before a byte-order mark', () => {
    const marks = [[], [0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff]];
    fc.assert(
      fc.property(
        docBytes,
        fc.constantFrom(...marks),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.boolean(),
        scanOptions,
        (body, mark, cuts, empties, asText, options) => {
          const bytes = Uint8Array.from([...mark, ...body]);
          const chunks: Array<string | Uint8Array> = chunksOf(bytes, cuts);
          for (const e of empties)
            chunks.splice(e % (chunks.length + 1), 0, asText ? '' : new Uint8Array(0));
          const whole = scanIn(chunksOf(bytes, cuts), options);
          const withEmpties = scanIn(chunks, options);
          expect(withEmpties.result()).toEqual(whole.result());
          expect(withEmpties.stopReason).toBe(whole.stopReason);
          expect(withEmpties.bytesScanned).toBe(whole.bytesScanned);
        },
      ),
      RUNS,
    );
  });

  it('gives the same result for byte-by-byte writes', () => {
    fc.assert(
      fc.property(docBytes, scanOptions, (bytes, options) => {
        const whole = scanIn([bytes], options);
        const single = scanIn(
          Array.from(bytes, (b) => Uint8Array.of(b)),
          options,
        );
        expect(single.result()).toEqual(whole.result());
      }),
      { numRuns: 100 },
    );
  });

  it('gives the same result for any split of the same text', () => {
    fc.assert(
      fc.property(
        htmlDoc,
        fc.array(fc.nat(), { maxLength: 12 }),
        scanOptions,
        (text, cuts, options) => {
          const whole = scanIn([text], options);
          const split = scanIn(chunksOf(text, cuts), options);
          expect(split.result()).toEqual(whole.result());
          expect(split.stopReason).toBe(whole.stopReason);
        },
      ),
      RUNS,
    );
  });

  it('never reads past the byte cap, and stops there exactly when the head goes on', () => {
    fc.assert(
      fc.property(
        docBytes,
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.integer({ min: 1, max: 400 }),
        (bytes, cuts, cap) => {
          const scanner = scanIn(chunksOf(bytes, cuts), { maxHeadBytes: cap });
          expect(scanner.bytesScanned).toBeLessThanOrEqual(Math.min(cap, bytes.length));
          if (scanner.stopReason === 'byte-cap') {
            expect(scanner.bytesScanned).toBe(cap);
            expect(bytes.length).toBeGreaterThan(cap);
            expect(scanner.result().diagnostics.map((d) => d.code)).toContain('scan-byte-cap');
          }
          if (bytes.length <= cap) expect(scanner.stopReason).not.toBe('byte-cap');
        },
      ),
      RUNS,
    );
  });

  it('gives the same verdict at the cap for any split of text running into character references', () => {
    const part = fc.constantFrom(
      '&',
      '&',
      'amp',
      'am',
      'a',
      'qq',
      'Ta',
      '#',
      '#32',
      '#x20',
      '#x',
      '9',
      ';',
      ' ',
      'x',
      '<',
    );
    fc.assert(
      fc.property(
        fc.constantFrom(
          '<head>',
          '<head> ',
          '<head>x',
          '<head><title>',
          '<head><meta name=a content="',
        ),
        fc.array(part, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('<meta name=robots content=nofollow></head><body>', '0;x', '&#32;<p>'),
        fc.array(fc.nat(), { maxLength: 3 }),
        (start, parts, rest, cuts) => {
          const head = start + parts.join('');
          const text = head + rest;
          const options = { maxHeadBytes: head.length };
          const whole = scanIn([text], options);
          const split = scanIn(chunksOf(text, cuts), options);
          expect(split.stopReason).toBe(whole.stopReason);
          expect(split.result()).toEqual(whole.result());
        },
      ),
      RUNS,
    );
  });

  it('reads no meta that is absent from a whole-document scan of a longer prefix', () => {
    // Monotonic: feeding more of the document never removes rules already read.
    fc.assert(
      fc.property(docBytes, fc.nat(), (bytes, cut) => {
        const prefix = bytes.slice(0, cut % (bytes.length + 1));
        const short = createMetaScanner();
        short.write(prefix);
        const long = scanRobotsMeta(bytes);
        expect(long.rules.slice(0, short.result().rules.length)).toEqual(short.result().rules);
      }),
      RUNS,
    );
  });
});

describe('hostile input completes', () => {
  const big = 16_384;
  it.each([
    ['quotes', '"'.repeat(big)],
    ['parentheses', '('.repeat(big)],
    ['semicolons', ';'.repeat(big)],
    ['commas', ','.repeat(big)],
    ['a date that never ends', 'unavailable_after: Friday' + ', 1'.repeat(big / 3)],
    ['a long token', 'a'.repeat(big)],
    ['token prefixes', 'a:'.repeat(big / 2)],
    ['equals', 'a='.repeat(big / 2)],
  ])('%s', (_title, value) => {
    const result = parseRobotsTagHeaders(value);
    expect(result.rules.length).toBeLessThanOrEqual(value.length);
  });

  it.each([
    ['an unclosed comment', '<head><!--' + 'x'.repeat(300_000)],
    ['an unclosed attribute', '<head><meta name="' + 'x'.repeat(300_000)],
    ['a huge head', '<head>' + '<meta name=x content=y>'.repeat(20_000)],
    ['deep template nesting', '<head>' + '<template>'.repeat(20_000)],
  ])('%s', (_title, html) => {
    const scanner = createMetaScanner();
    scanner.write(html);
    scanner.end();
    expect(scanner.bytesScanned).toBeLessThanOrEqual(262_144);
  });
});
