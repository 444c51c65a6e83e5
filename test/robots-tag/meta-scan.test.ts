import { describe, expect, it } from 'vitest';
import {
  createMetaScanner,
  createMetaScannerFactory,
  directivesFor,
  parseRobotsMetaContent,
  scanRobotsMeta,
} from '@polite-crawler/robots-tag';
import type { MetaScanOptions, RobotsTagRules } from '@polite-crawler/robots-tag';

const summary = (result: RobotsTagRules): string[] =>
  result.rules.map((r) => `${r.token}:${r.name}${r.value === undefined ? '' : `=${r.value}`}`);

const scan = (html: string, options: MetaScanOptions = { productTokens: ['ExampleBot'] }) =>
  summary(scanRobotsMeta(html, options));

describe('meta forms', () => {
  const cases: Array<[string, string[]]> = [
    ['<meta name="robots" content="noindex">', ['*:noindex']],
    ['<meta name="ExampleBot" content="nosnippet">', ['examplebot:nosnippet']],
    ['<meta name="OtherBot" content="nosnippet">', []],
    [
      '<meta name="robots" content="noindex"><meta name="robots" content="nofollow">',
      ['*:noindex', '*:nofollow'],
    ],
    ['<META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW">', ['*:noindex', '*:nofollow']],
    ['<meta name="Robots" content="&#110;oindex">', ['*:noindex']],
    [
      '<meta name="robots" content="max-snippet&#58;20&comma; noarchive">',
      ['*:max-snippet=20', '*:noarchive'],
    ],
    ["<meta name='robots' content='noindex'>", ['*:noindex']],
    ['<meta name=robots content=noindex>', ['*:noindex']],
    ['<meta content="noindex" name="robots"/>', ['*:noindex']],
    ['<meta name=" robots\n" content="noindex">', ['*:noindex']],
    ['<meta name="robots" content="noindex, nofollow">', ['*:noindex', '*:nofollow']],
    [
      '<meta name="robots" content="max-snippet:20, max-image-preview:large">',
      ['*:max-snippet=20', '*:max-image-preview=large'],
    ],
    ['<meta name="robots" content="max-video-preview: -1">', ['*:max-video-preview=-1']],
    ['<meta name="robots" content="none">', ['*:none']],
    ['<meta name="robots" content="noindex nofollow">', ['*:noindex', '*:nofollow']],
    // `;` for `,` after a rule, as in headers.
    ['<meta name="robots" content="noindex;">', ['*:noindex']],
    ['<meta name="robots" content="noindex; nofollow">', ['*:noindex', '*:nofollow']],
    [
      '<meta name="ExampleBot" content="noindex;nosnippet">',
      ['examplebot:noindex', 'examplebot:nosnippet'],
    ],
    [
      '<meta name="robots" content="unavailable_after: Friday, 25-Jun-10 15:00:00 PST, noarchive">',
      ['*:unavailable_after=Friday, 25-Jun-10 15:00:00 PST', '*:noarchive'],
    ],
    ['<meta name="robots" content="noai">', ['*:noai']],
    ['<meta name="robots" content="">', []],
    ['<meta name="robots" content="noindex" name="examplebot">', ['*:noindex']],
    ['<meta property="robots" content="noindex">', []],
    ['<meta http-equiv="X-Robots-Tag" content="noindex">', []],
  ];
  it.each(cases)('%j', (html, expected) => {
    expect(scan(html)).toEqual(expected);
  });

  it('records where each rule came from', () => {
    const result = scanRobotsMeta(
      '<meta charset=utf-8><meta name=robots content="noindex"><meta name=ExampleBot content="nofollow">',
      {
        productTokens: ['examplebot'],
      },
    );
    expect(result.rules).toEqual([
      {
        token: '*',
        name: 'noindex',
        source: 'meta',
        syntax: 'legacy',
        known: true,
        field: 'robots',
        line: 2,
        raw: 'noindex',
      },
      {
        token: 'examplebot',
        name: 'nofollow',
        source: 'meta',
        syntax: 'legacy',
        known: true,
        field: 'examplebot',
        line: 3,
        raw: 'nofollow',
      },
    ]);
  });

  it('reports a robots meta without content, and bad values', () => {
    const result = scanRobotsMeta(
      '<meta name=robots><meta name=robots content="max-snippet: ten, !!">',
    );
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['invalid-value', 1],
      ['invalid-value', 2],
      ['unparseable-member', 2],
    ]);
  });
});

describe('which meta names are read', () => {
  const html =
    '<meta name="robots" content="noarchive"><meta name="examplebot" content="noindex, noai">' +
    '<meta name="description" content="All about cats, dogs and none of the rest">' +
    '<meta name="twitter:card" content="noindex"><meta name="otherbot" content="max-snippet: x">';

  it('with productTokens: robots and the listed tokens, in full', () => {
    const result = scanRobotsMeta(html, { productTokens: ['ExampleBot'] });
    expect(summary(result)).toEqual(['*:noarchive', 'examplebot:noindex', 'examplebot:noai']);
    expect(result.diagnostics).toEqual([]);
  });

  it('with no productTokens: robots in full, other product-token names only for their known rules, quietly', () => {
    const result = scanRobotsMeta(html);
    expect(summary(result)).toEqual([
      '*:noarchive',
      'examplebot:noindex',
      'otherbot:max-snippet=x',
    ]);
    expect(result.diagnostics).toEqual([]);
    expect(directivesFor(result, 'ExampleBot').noindex).toBe(true);
    expect(directivesFor(result, 'OtherBot').maxSnippet).toBeUndefined();
  });

  it('with productTokens: [] only robots', () => {
    expect(summary(scanRobotsMeta(html, { productTokens: [] }))).toEqual(['*:noarchive']);
  });

  it('never name="*": in a meta only robots is for every crawler', () => {
    const star =
      '<html><head><meta name="*" content="noindex, nofollow"><meta name=" * " content="none">' +
      '<meta name="robots" content="noarchive"></head><body>x</body></html>';
    for (const options of [undefined, { productTokens: ['ExampleBot'] }, { productTokens: [] }]) {
      const label = JSON.stringify(options);
      for (const input of [star, new TextEncoder().encode(star)]) {
        const result = scanRobotsMeta(input, options);
        expect(summary(result), label).toEqual(['*:noarchive']);
        expect(result.diagnostics, label).toEqual([]);
        expect(directivesFor(result, 'ExampleBot'), label).toMatchObject({
          noindex: false,
          nofollow: false,
          noarchive: true,
        });
      }
    }
  });
});

describe('only the head counts', () => {
  const cases: Array<[string, string, string[], string]> = [
    ['stops at <body>', '<head></head><body><meta name=robots content=noindex>', [], 'head-end'],
    [
      'reads metas between </head> and <body>, as browsers put them in the head',
      '<head><meta name=robots content=noindex></head>\n<meta name=robots content=nofollow>\n<body><meta name=robots content=noarchive>',
      ['*:noindex', '*:nofollow'],
      'head-end',
    ],
    [
      'stops at non-blank text after </head>',
      '<head></head>text<meta name=robots content=noindex>',
      [],
      'head-end',
    ],
    [
      'stops at <noscript> after </head>',
      '<head></head><noscript><meta name=robots content=noindex></noscript>',
      [],
      'head-end',
    ],
    [
      'reads leading metas of a document without <head>',
      '<!DOCTYPE html><html lang=en><meta charset=utf-8><meta name=robots content=noindex><p>hi</p><meta name=robots content=nofollow>',
      ['*:noindex'],
      'head-end',
    ],
    [
      'stops at an element that cannot be in a head',
      '<head><div></div><meta name=robots content=noindex></head>',
      [],
      'head-end',
    ],
    [
      'stops at <img> in the head',
      '<head><img src=a.png><meta name=robots content=noindex></head>',
      [],
      'head-end',
    ],
    [
      'stops at <svg>',
      '<head><svg><meta name=robots content=noindex></svg></head>',
      [],
      'head-end',
    ],
    [
      'stops at non-blank text in the head',
      '<head>oops<meta name=robots content=noindex></head>',
      [],
      'head-end',
    ],
    ['stops at text before any tag', 'hello<meta name=robots content=noindex>', [], 'head-end'],
    [
      'stops at an entity in head text',
      '<head>&nbsp;<meta name=robots content=noindex>',
      [],
      'head-end',
    ],
    [
      'stops at </html>',
      '<html><head><meta name=robots content=noindex></html><meta name=robots content=nofollow>',
      ['*:noindex'],
      'head-end',
    ],
    ['stops at </br>', '<head></br><meta name=robots content=noindex></head>', [], 'head-end'],
    [
      'ignores a stray </p>',
      '<head></p><meta name=robots content=noindex></head>',
      ['*:noindex'],
      'input-end',
    ],
    [
      'ignores other stray end tags',
      '<head></div><meta name=robots content=noindex></head>',
      ['*:noindex'],
      'input-end',
    ],
    [
      'passes over head elements and blank text',
      '<html>\n<head>\n  <title>A <b>title</b></title>\n  <link rel=stylesheet href=a.css>\n  <base href=/>\n  <style>p > a {}</style>\n  <script>if (a < b) {}</script>\n  <meta name=robots content=noindex>\n</head>',
      ['*:noindex'],
      'input-end',
    ],
    [
      'skips comments',
      '<head><!-- <meta name=robots content=noindex> --><meta name=robots content=nofollow>',
      ['*:nofollow'],
      'input-end',
    ],
    [
      'skips a meta inside <script>',
      '<head><script>document.write("<meta name=robots content=noindex>")</script></head>',
      [],
      'input-end',
    ],
    [
      'skips a meta inside <title>',
      '<head><title><meta name=robots content=noindex></title></head>',
      [],
      'input-end',
    ],
    [
      'skips a meta inside <style>',
      '<head><style><meta name=robots content=noindex></style></head>',
      [],
      'input-end',
    ],
    [
      'skips a meta inside <template>, nested too',
      '<head><template><div><template><p></template><meta name=robots content=noindex></template><meta name=robots content=nofollow></head>',
      ['*:nofollow'],
      'input-end',
    ],
    [
      'skips a meta inside <noframes>',
      '<head><noframes><div><meta name=robots content=noindex></noframes><meta name=robots content=nofollow></head>',
      ['*:nofollow'],
      'input-end',
    ],
    [
      'reads a meta inside <noscript> in the head (scripting off: it is in the head)',
      '<head><noscript><meta name=robots content=noindex><link rel=x></noscript></head>',
      ['*:noindex'],
      'input-end',
    ],
    [
      'stops at a non-head element inside <noscript>',
      '<head><noscript><img src=x></noscript><meta name=robots content=noindex>',
      [],
      'head-end',
    ],
    [
      'ignores a <head> after metas',
      '<meta name=robots content=noindex><head><meta name=robots content=nofollow>',
      ['*:noindex', '*:nofollow'],
      'input-end',
    ],
    ['reads nothing from an empty document', '', [], 'input-end'],
  ];
  it.each(cases)('%s', (_title, html, expected, reason) => {
    const scanner = createMetaScanner();
    scanner.write(html);
    scanner.end();
    expect(summary(scanner.result())).toEqual(expected);
    expect(scanner.stopReason).toBe(reason);
  });
});

describe('streaming', () => {
  const encoder = new TextEncoder();

  it('write() returns true once the head is over and ignores later writes', () => {
    const scanner = createMetaScanner();
    expect(scanner.write('<head><meta name=robots content=noindex>')).toBe(false);
    expect(scanner.done).toBe(false);
    expect(scanner.write('</head><body><p>')).toBe(true);
    const scanned = scanner.bytesScanned;
    expect(scanner.write('<meta name=robots content=nofollow>'.repeat(100))).toBe(true);
    expect(scanner.write(encoder.encode('more'))).toBe(true);
    scanner.end();
    expect(scanner.bytesScanned).toBe(scanned);
    expect(summary(scanner.result())).toEqual(['*:noindex']);
    expect(scanner.stopReason).toBe('head-end');
  });

  it('stops reading a huge chunk soon after the head ends', () => {
    const page = '<head><meta name=robots content=noindex></head><body>' + 'x'.repeat(5_000_000);
    const scanner = createMetaScanner({ maxHeadBytes: 10_000_000 });
    expect(scanner.write(page)).toBe(true);
    expect(scanner.bytesScanned).toBeLessThanOrEqual(16_384);
  });

  it('reads bytes split inside multi-byte characters', () => {
    const html =
      '<head><meta name="robots" content="noindex"><meta name="bötchen" content="x"><title>Grüße ✓ 😀</title><meta name=robots content="nofollow"></head>';
    const bytes = encoder.encode(html);
    const scanner = createMetaScanner();
    for (const byte of bytes) scanner.write(Uint8Array.of(byte));
    scanner.end();
    expect(summary(scanner.result())).toEqual(['*:noindex', '*:nofollow']);
    expect(scanner.bytesScanned).toBe(bytes.length);
  });

  it('skips a UTF-8 byte order mark, in bytes and in text', () => {
    const html = '<meta name=robots content=noindex>';
    expect(
      summary(scanRobotsMeta(Uint8Array.of(0xef, 0xbb, 0xbf, ...encoder.encode(html)))),
    ).toEqual(['*:noindex']);
    expect(summary(scanRobotsMeta('\ufeff' + html))).toEqual(['*:noindex']);
  });

  it('does not crash on bytes that are not UTF-8', () => {
    const latin1 = Uint8Array.from(
      '<head><title>caf\xe9 \xff\xfe</title><meta name=robots content=noindex></head>',
      (c) => c.charCodeAt(0),
    );
    expect(summary(scanRobotsMeta(latin1))).toEqual(['*:noindex']);
  });

  it('decodes another encoding when told', () => {
    const html = '<head><meta name=robots content=noindex></head>';
    const utf16 = new Uint8Array(html.length * 2);
    for (let i = 0; i < html.length; i++) utf16[i * 2] = html.charCodeAt(i);
    expect(summary(scanRobotsMeta(utf16))).toEqual([]);
    expect(summary(scanRobotsMeta(utf16, { encoding: 'utf-16le' }))).toEqual(['*:noindex']);
  });

  it('a byte-order mark at the start picks the encoding over the declared one, split anywhere', () => {
    const html = '<head><title>Grüße</title><meta name=robots content=noindex></head><body>';
    const utf16 = (bigEndian: boolean): number[] =>
      [...html].flatMap((c) => {
        const code = c.charCodeAt(0);
        return bigEndian ? [code >> 8, code & 0xff] : [code & 0xff, code >> 8];
      });
    const bodies = {
      'utf-16le': Uint8Array.of(0xff, 0xfe, ...utf16(false)),
      'utf-16be': Uint8Array.of(0xfe, 0xff, ...utf16(true)),
      'utf-8 declared windows-1252': Uint8Array.of(0xef, 0xbb, 0xbf, ...encoder.encode(html)),
    };
    for (const [name, bytes] of Object.entries(bodies)) {
      const options = name.startsWith('utf-8') ? { encoding: 'windows-1252' } : {};
      expect(summary(scanRobotsMeta(bytes, options)), name).toEqual(['*:noindex']);
      // Every split of the mark (and a byte at a time) reads the same.
      for (const cut of [1, 2, 3]) {
        const scanner = createMetaScanner(options);
        scanner.write(bytes.subarray(0, cut));
        scanner.write(bytes.subarray(cut));
        scanner.end();
        expect(summary(scanner.result()), `${name} cut at ${cut}`).toEqual(['*:noindex']);
      }
      const byByte = createMetaScanner(options);
      for (const byte of bytes) byByte.write(Uint8Array.of(byte));
      byByte.end();
      expect(summary(byByte.result()), `${name} byte by byte`).toEqual(['*:noindex']);
    }
  });

  it('bytes that only start like a byte-order mark, or come after the start, are content', () => {
    const meta = '<meta name=robots content=noindex>';
    const utf16le = Uint8Array.from([...meta].flatMap((c) => [c.charCodeAt(0), 0]));
    // 0xFF then not 0xFE: held while it could start a mark, then decoded as declared
    // (UTF-16LE here, so the meta is read only if the held byte is not lost or misread).
    const notMark = Uint8Array.of(0xff, 0x00, ...utf16le);
    const whole = summary(scanRobotsMeta(notMark, { encoding: 'utf-16le' }));
    const split = createMetaScanner({ encoding: 'utf-16le' });
    split.write(notMark.subarray(0, 1));
    split.write(notMark.subarray(1));
    split.end();
    expect(summary(split.result())).toEqual(whole);
    expect(split.bytesScanned).toBe(notMark.length);
    // A lone first byte that could start a mark, then the end: decoded, not lost (to U+FFFD,
    // text, which ends the head).
    const lone = createMetaScanner();
    expect(lone.write(Uint8Array.of(0xfe))).toBe(false);
    lone.end();
    expect(lone.bytesScanned).toBe(1);
    expect(lone.stopReason).toBe('head-end');
    // 0xFF 0xFE after the start is not a mark: the page stays UTF-8, and UTF-16 after it is
    // not read as such.
    const later = createMetaScanner();
    later.write('<head>');
    later.write(Uint8Array.of(0xff, 0xfe, ...utf16le));
    later.end();
    expect(summary(later.result())).toEqual([]);
    const atStart = createMetaScanner();
    atStart.write(Uint8Array.of(0xff, 0xfe, ...utf16le));
    atStart.end();
    expect(summary(atStart.result())).toEqual(['*:noindex']);
  });

  it('an empty write changes nothing: a byte-order mark after it still picks the encoding', () => {
    const html = '<head><meta name="robots" content="noindex"></head><body>';
    const bodies: Array<[string, Uint8Array, MetaScanOptions]> = [
      [
        'utf-16le',
        Uint8Array.from([0xff, 0xfe, ...[...html].flatMap((c) => [c.charCodeAt(0), 0])]),
        {},
      ],
      [
        'utf-16be',
        Uint8Array.from([0xfe, 0xff, ...[...html].flatMap((c) => [0, c.charCodeAt(0)])]),
        {},
      ],
      [
        'utf-8 declared utf-16le',
        Uint8Array.of(0xef, 0xbb, 0xbf, ...encoder.encode(html)),
        { encoding: 'utf-16le' },
      ],
    ];
    for (const [name, bytes, options] of bodies) {
      const whole = createMetaScanner(options);
      whole.write(bytes);
      whole.end();
      expect(summary(whole.result()), name).toEqual(['*:noindex']);
      for (const empty of [new Uint8Array(0), '']) {
        // Before everything, between the mark's bytes, after the mark, and at the end.
        for (const cut of [0, 1, 2, 3, bytes.length]) {
          const scanner = createMetaScanner(options);
          scanner.write(bytes.subarray(0, cut));
          scanner.write(empty);
          scanner.write(empty);
          scanner.write(bytes.subarray(cut));
          scanner.write(empty);
          scanner.end();
          const label = `${name}, empty ${typeof empty} write at ${cut}`;
          expect(summary(scanner.result()), label).toEqual(['*:noindex']);
          expect(scanner.stopReason, label).toBe('head-end');
          expect(scanner.bytesScanned, label).toBe(whole.bytesScanned);
        }
      }
    }
  });

  it('an empty write between the bytes of one character does not cut it', () => {
    const bytes = encoder.encode('<head><meta name=robots content="noindex, é"></head><body>');
    const at = bytes.indexOf(0xc3) + 1;
    const whole = scanRobotsMeta(bytes);
    expect(whole.diagnostics.map((d) => d.text)).toEqual(['é']);
    for (const empty of [new Uint8Array(0), '']) {
      const scanner = createMetaScanner();
      scanner.write(bytes.subarray(0, at));
      scanner.write(empty);
      scanner.write(bytes.subarray(at));
      scanner.end();
      expect(scanner.result(), typeof empty).toEqual(whole);
    }
  });

  it('accepts text after bytes that ended inside a character', () => {
    const scanner = createMetaScanner();
    scanner.write(Uint8Array.of(0x3c, 0x21, 0x2d, 0x2d, 0xc3)); // "<!--" + half of "é"
    scanner.write(' --><meta name=robots content=noindex>');
    scanner.end();
    expect(summary(scanner.result())).toEqual(['*:noindex']);
  });

  it('end() is idempotent and result() can be read at any time', () => {
    const scanner = createMetaScanner();
    scanner.write('<meta name=robots content=noindex>');
    expect(summary(scanner.result())).toEqual(['*:noindex']);
    scanner.end();
    scanner.end();
    expect(scanner.done).toBe(true);
    expect(scanner.write('<meta name=robots content=nofollow>')).toBe(true);
    expect(summary(scanner.result())).toEqual(['*:noindex']);
  });
});

describe('parseRobotsMetaContent', () => {
  it('reads one meta’s content for callers with their own DOM', () => {
    expect(summary(parseRobotsMetaContent('ROBOTS', 'noindex, max-snippet:20'))).toEqual([
      '*:noindex',
      '*:max-snippet=20',
    ]);
    expect(summary(parseRobotsMetaContent('ExampleBot', 'nofollow'))).toEqual([
      'examplebot:nofollow',
    ]);
  });

  it('reports a name that is not a product token', () => {
    const result = parseRobotsMetaContent('og:title', 'noindex');
    expect(result.rules).toEqual([]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['unparseable-member']);
  });

  it('reports the name "*", which is not a meta name (robots is the one for everyone)', () => {
    for (const name of ['*', ' * ']) {
      const result = parseRobotsMetaContent(name, 'noindex');
      expect(result.rules).toEqual([]);
      expect(result.diagnostics).toMatchObject([
        { code: 'unparseable-member', source: 'meta', field: '*' },
      ]);
      expect(directivesFor(result, 'ExampleBot').noindex).toBe(false);
    }
  });
});

describe('createMetaScannerFactory', () => {
  it('validates once and makes independent scanners', () => {
    expect(() => createMetaScannerFactory({ maxHeadBytes: 0 })).toThrow(/maxHeadBytes/);
    const newScanner = createMetaScannerFactory({ productTokens: ['ExampleBot'] });
    const a = newScanner();
    const b = newScanner();
    expect(a.write('<meta name=examplebot content=noindex><body>')).toBe(true);
    expect(b.write('<meta name=robots content=nofollow>')).toBe(false);
    b.end();
    expect(a.result().rules.map((rule) => [rule.token, rule.name])).toEqual([
      ['examplebot', 'noindex'],
    ]);
    expect(b.result().rules.map((rule) => [rule.token, rule.name])).toEqual([['*', 'nofollow']]);
  });
});
