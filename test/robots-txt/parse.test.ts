/**
 * Parsing: diagnostics (every code), limits at and just past each bound, byte-order marks,
 * line endings, bytes that are not UTF-8, crawl-delay and sitemaps.
 */
import { describe, expect, it } from 'vitest';
import {
  DIAGNOSTIC_SEVERITY,
  PARSE_DEFAULTS,
  parseRobotsTxt,
  reportRobotsTxtLines,
  type DiagnosticCode,
} from '@polite-crawler/robots-txt';

const codesOf = (body: string | Uint8Array): [number, DiagnosticCode][] =>
  parseRobotsTxt(body).diagnostics.map((d) => [d.line, d.code]);

describe('diagnostics: one table row per code', () => {
  const rows: [DiagnosticCode, string | Uint8Array, number][] = [
    ['unknown-key', 'User-agent: *\nNoscript: /x\n', 2],
    ['ignored-key', 'User-agent: *\nNoindex: /x\n', 2],
    ['rule-outside-group', 'Disallow: /x\nUser-agent: *\n', 1],
    ['accepted-typo', 'User-agent: *\nDissallow: /x\n', 2],
    ['missing-colon', 'User-agent *\nDisallow: /x\n', 1],
    ['invalid-product-token', 'User-agent: FooBot/2.1\n', 1],
    ['invalid-purpose-token', 'User-agent-purpose: search engine\n', 1],
    ['empty-value', 'User-agent:\nDisallow: /\n', 1],
    ['invalid-crawl-delay', 'User-agent: *\nCrawl-delay: soon\n', 2],
    ['invalid-sitemap-url', 'Sitemap: /sitemap.xml\n', 1],
    ['pattern-not-starting-with-slash', 'User-agent: *\nDisallow: private/\n', 2],
    ['line-too-long', `User-agent: *\nDisallow: /${'a'.repeat(PARSE_DEFAULTS.longLineBytes)}\n`, 2],
    ['input-truncated', `User-agent: *\n${'Disallow: /x\n'.repeat(40_000)}`, 39_385],
    [
      'invalid-utf8',
      Uint8Array.from([...new TextEncoder().encode('User-agent: *\nDisallow: /caf'), 0xe9, 10]),
      2,
    ],
    ['byte-order-mark', '\uFEFFUser-agent: *\n', 1],
    ['unparseable-line', 'User-agent: *\nthis is not a line\n', 2],
    ['invalid-usage-value', 'User-agent: *\nContent-Usage: Train-AI=n\n', 2],
    ['unknown-usage-value', 'User-agent: *\nContent-Usage: train-ai=no\n', 2],
    ['empty-usage-statement', 'User-agent: *\nContent-Usage: /a\n', 2],
    ['usage-path-disallowed', 'User-agent: *\nDisallow: /\nContent-Usage: train-ai=n\n', 3],
  ];

  it.each(rows)('%s', (code, body, line) => {
    const found = parseRobotsTxt(body).diagnostics.filter((d) => d.code === code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ line, code, severity: DIAGNOSTIC_SEVERITY[code] });
    expect(found[0]!.message.length).toBeGreaterThan(10);
  });

  it('too-many-diagnostics (see the maxDiagnostics limit below)', () => {
    const d = parseRobotsTxt('junk\n'.repeat(5), { maxDiagnostics: 2 }).diagnostics;
    expect(d.at(-1)).toMatchObject({ code: 'too-many-diagnostics', severity: 'info', line: 3 });
  });

  it('the table covers every code', () => {
    expect(new Set([...rows.map((r) => r[0]), 'too-many-diagnostics'])).toEqual(
      new Set(Object.keys(DIAGNOSTIC_SEVERITY)),
    );
  });

  it('a clean file has no diagnostics, and empty allow/disallow values are fine', () => {
    expect(codesOf('User-agent: *\nDisallow:\nAllow:\nCrawl-delay: 2\n')).toEqual([]);
    expect(codesOf('')).toEqual([]);
  });

  it.each([
    ['noindex', 'Noindex: /private/', 'since 2019'],
    ['request-rate', 'Request-rate: 1/10s', 'RFC 9309 did not adopt'],
    ['visit-time', 'Visit-time: 0600-0845', 'RFC 9309 did not adopt'],
    ['host', 'Host: example.com', 'mirror'],
    ['clean-param', 'Clean-param: ref /articles/', 'Yandex'],
    ['nofollow', 'NOFOLLOW: /x', 'page-level'],
    ['noarchive', 'noarchive: /x', 'page-level'],
  ])('a known, ignored key (%s) is an info diagnostic with its reason', (key, line, reason) => {
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /a\n${line}\nDisallow: /b\n`);
    expect(robots.diagnostics).toHaveLength(1);
    const [d] = robots.diagnostics;
    expect(d).toMatchObject({ line: 3, code: 'ignored-key', severity: 'info' });
    expect(d!.message).toContain(`"${key}"`);
    expect(d!.message).toContain(reason);
    expect(d!.message).not.toContain('\n');
    // Ignored means ignored: the line neither ends the group nor adds a rule.
    expect(robots.isAllowed('https://e.com/b', 'AnyBot')).toBe(false);
    expect(robots.isAllowed('https://e.com/private/x', 'AnyBot')).toBe(true);
  });

  it('a known, ignored key before any group is reported the same way', () => {
    expect(codesOf('Host: example.com\nUser-agent: *\nDisallow: /\n')).toEqual([
      [1, 'ignored-key'],
    ]);
  });

  it('reports every accepted misspelling', () => {
    const typos = [
      'useragent',
      'user agent',
      'dissallow',
      'dissalow',
      'disalow',
      'diasllow',
      'disallaw',
      'site-map',
    ];
    for (const typo of typos) {
      const value =
        typo === 'site-map' ? 'https://e.x/s.xml' : typo.startsWith('user') ? 'FooBot' : '/x';
      const body = `User-agent: *\nDisallow: /y\n${typo}: ${value}\n`;
      expect(codesOf(body), typo).toEqual([[3, 'accepted-typo']]);
    }
  });

  it('reads misspelled keys as intended', () => {
    const robots = parseRobotsTxt(
      'useragent: FooBot\ndisallaw: /x\nsite-map: https://example.com/s.xml\n',
    );
    expect(robots.isAllowed('https://example.com/x', 'FooBot')).toBe(false);
    expect(robots.sitemaps).toEqual(['https://example.com/s.xml']);
  });

  it('keys are case-insensitive and whitespace around the colon is fine', () => {
    const robots = parseRobotsTxt('  USER-AGENT :\tFooBot  \n\tdIsAlLoW  :   /x   # why\n');
    expect(robots.isAllowed('https://example.com/x', 'foobot')).toBe(false);
    expect(robots.diagnostics).toEqual([]);
  });

  it('a missing colon is accepted only for exactly two words', () => {
    expect(
      parseRobotsTxt('user-agent FooBot\ndisallow /x\n').isAllowed('https://e.com/x', 'FooBot'),
    ).toBe(false);
    expect(codesOf('user-agent FooBot\ndisallow /x y\n')).toEqual([
      [1, 'missing-colon'],
      [2, 'unparseable-line'],
    ]);
  });

  it('"*" alone or followed by whitespace is the global group (reported when more follows)', () => {
    const robots = parseRobotsTxt('User-agent: * everyone\nDisallow: /\n');
    expect(robots.explain('https://e.com/', 'AnyBot').selection).toBe('global');
    expect(codesOf('User-agent: * everyone\n')).toEqual([[1, 'invalid-product-token']]);
    expect(codesOf('User-agent: * # everyone\n')).toEqual([]);
    expect(codesOf('User-agent:\t*\t\n')).toEqual([]);
  });

  it('"*" glued to other text ("*WordPress*") names no crawler, as with Google', () => {
    // Real files (nzherald.co.nz, stuff.co.nz) block "*WordPress*" with "Disallow: /";
    // reading that as "*" would block every crawler from the whole site.
    const robots = parseRobotsTxt(
      'User-agent: *\nDisallow: /private/\n\nUser-agent: *WordPress*\nDisallow: /\n',
    );
    expect(robots.isAllowed('https://e.com/news', 'AnyBot')).toBe(true);
    expect(robots.isAllowed('https://e.com/private/x', 'AnyBot')).toBe(false);
    expect(robots.forAgent('AnyBot').groupLines).toEqual([1]);
    expect(robots.diagnostics).toMatchObject([{ line: 4, code: 'invalid-product-token' }]);
    expect(robots.diagnostics[0]!.message).toContain('names no crawler');
  });

  it('a user-agent value with no product token names nobody', () => {
    const robots = parseRobotsTxt('User-agent: 123\nDisallow: /\n');
    expect(robots.explain('https://e.com/', 'AnyBot').selection).toBe('none');
    expect(robots.diagnostics[0]?.message).toContain('no product token');
  });

  it('sorts diagnostics by line', () => {
    const body = `\uFEFFjunk line here\nUser-agent: *\nDisallow: /${'a'.repeat(20_000)}\nfoo: bar\n`;
    const lines = parseRobotsTxt(body).diagnostics.map((d) => d.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });

  it('diagnostics are frozen and materialised once', () => {
    const robots = parseRobotsTxt('junk\n');
    expect(robots.diagnostics).toBe(robots.diagnostics);
    expect(Object.isFrozen(robots.diagnostics)).toBe(true);
    expect(Object.isFrozen(robots.diagnostics[0])).toBe(true);
  });
});

describe('limits', () => {
  const enc = new TextEncoder();
  /** A body of exactly `size` bytes: rules, then filler lines, ending in a line break. */
  const bodyOf = (size: number, tail = ''): string => {
    const head = 'User-agent: *\nDisallow: /a\n';
    const fill = size - head.length - enc.encode(tail).length;
    const lines = Math.floor(fill / 100);
    let body = head + `#${'x'.repeat(98)}\n`.repeat(lines);
    body += `#${'y'.repeat(fill - lines * 100 - 2)}\n`;
    return body + tail;
  };

  it('PARSE_DEFAULTS is frozen and names every limit', () => {
    expect(Object.isFrozen(PARSE_DEFAULTS)).toBe(true);
    expect(PARSE_DEFAULTS).toEqual({
      maxBytes: 512_000,
      minMaxBytes: 512_000,
      longLineBytes: 16_663,
      maxDiagnostics: 1_000,
      maxCachedAgents: 16,
      matchBudget: 131_072,
      maxFieldBytes: 16_384,
      minFieldBytes: 8_192,
    });
  });

  it('maxBytes: a body of exactly the limit is parsed whole', () => {
    const body = bodyOf(PARSE_DEFAULTS.maxBytes, 'Disallow: /b\n');
    expect(enc.encode(body).length).toBe(PARSE_DEFAULTS.maxBytes);
    for (const input of [body, enc.encode(body)]) {
      const robots = parseRobotsTxt(input);
      expect(robots.truncated).toBe(false);
      expect(robots.parsedBytes).toBe(PARSE_DEFAULTS.maxBytes);
      expect(robots.isAllowed('https://e.com/b', 'AnyBot')).toBe(false);
      expect(robots.diagnostics.map((d) => d.code)).not.toContain('input-truncated');
    }
  });

  it('maxBytes: a rule ending at the limit, with its line break just past it, applies', () => {
    const body = bodyOf(PARSE_DEFAULTS.maxBytes + 1, 'Allow: /bc\n');
    for (const input of [body, enc.encode(body)]) {
      const robots = parseRobotsTxt(input);
      expect(robots.truncated).toBe(true);
      expect(robots.parsedBytes).toBe(PARSE_DEFAULTS.maxBytes);
      expect(robots.explain('https://e.com/bc', 'AnyBot').rule?.pattern).toBe('/bc');
    }
  });

  it('maxBytes: a line the limit cuts is dropped whole, never read as a broader rule', () => {
    // Two bytes past the limit: the limit falls inside "/bcd". Read up to the limit, the line
    // would be a rule for /bc; it must be dropped whole.
    const body = bodyOf(PARSE_DEFAULTS.maxBytes + 2, 'Allow: /bcd\n');
    for (const input of [body, enc.encode(body)]) {
      const robots = parseRobotsTxt(input);
      expect(robots.truncated).toBe(true);
      expect(robots.parsedBytes).toBe(PARSE_DEFAULTS.maxBytes + 2 - 'Allow: /bcd\n'.length);
      expect(robots.isAllowed('https://e.com/a', 'AnyBot')).toBe(false);
      expect(robots.explain('https://e.com/bc', 'AnyBot').reason).toBe('no-matching-rule');
      const truncated = robots.diagnostics.filter((d) => d.code === 'input-truncated');
      expect(truncated).toHaveLength(1);
      expect(truncated[0]!.line).toBe(body.split('\n').length - 1);
    }
  });

  it('parsedBytes of a cut string body is a whole number, the same as for its bytes', () => {
    // The cut falls early in the body's last line: found by counting UTF-8 in chunks.
    for (const fill of [0, 100, 511_990, 600_000]) {
      const body = `User-agent: *\n${'#'.repeat(fill)}\nDisallow: /\n`;
      const fromText = parseRobotsTxt(body);
      const fromBytes = parseRobotsTxt(enc.encode(body));
      expect(Number.isInteger(fromText.parsedBytes), String(fill)).toBe(true);
      expect(fromText.parsedBytes, String(fill)).toBe(fromBytes.parsedBytes);
      expect(fromText.truncated, String(fill)).toBe(fromBytes.truncated);
    }
  });

  it('maxBytes counts UTF-8 bytes of a string body', () => {
    const at = bodyOf(PARSE_DEFAULTS.maxBytes, 'Disallow: /éé\n');
    expect(enc.encode(at).length).toBe(PARSE_DEFAULTS.maxBytes);
    expect(parseRobotsTxt(at).truncated).toBe(false);
    expect(parseRobotsTxt(at).isAllowed('https://e.com/éé', 'AnyBot')).toBe(false);
    // Two bytes more (the limit falls inside the last 'é'): that line is dropped whole.
    const past = bodyOf(PARSE_DEFAULTS.maxBytes + 2, 'Disallow: /éé\n');
    expect(parseRobotsTxt(past).truncated).toBe(true);
    expect(parseRobotsTxt(past).isAllowed('https://e.com/éé', 'AnyBot')).toBe(true);
    expect(parseRobotsTxt(enc.encode(past)).isAllowed('https://e.com/éé', 'AnyBot')).toBe(true);
  });

  it('maxBytes: values below 500 KiB are raised to 500 KiB', () => {
    const body = bodyOf(PARSE_DEFAULTS.maxBytes);
    for (const maxBytes of [0, 10, PARSE_DEFAULTS.minMaxBytes - 1]) {
      expect(parseRobotsTxt(body, { maxBytes }).truncated).toBe(false);
    }
  });

  it('maxBytes: larger values are honoured, at and one past', () => {
    const limit = 600_000;
    const atLimit = bodyOf(limit, 'Disallow: /z\n');
    expect(parseRobotsTxt(atLimit, { maxBytes: limit }).truncated).toBe(false);
    expect(parseRobotsTxt(atLimit, { maxBytes: limit }).isAllowed('https://e.com/z', 'A')).toBe(
      false,
    );
    // One byte less: only the line break is past the limit, and the rule is whole.
    expect(parseRobotsTxt(atLimit, { maxBytes: limit - 1 }).truncated).toBe(true);
    expect(parseRobotsTxt(atLimit, { maxBytes: limit - 1 }).isAllowed('https://e.com/z', 'A')).toBe(
      false,
    );
    // Two bytes less: the limit cuts the rule, which is dropped.
    expect(parseRobotsTxt(atLimit, { maxBytes: limit - 2 }).isAllowed('https://e.com/z', 'A')).toBe(
      true,
    );
  });

  it('maxBytes: a single line longer than the limit leaves nothing', () => {
    const robots = parseRobotsTxt(
      `User-agent: *\nDisallow: /${'a'.repeat(PARSE_DEFAULTS.maxBytes)}`,
    );
    expect(robots.truncated).toBe(true);
    expect(robots.explain('https://e.com/', 'A').groupLines).toEqual([1]);
  });

  it('longLineBytes: at the limit no diagnostic, one byte past "line-too-long", rule kept whole', () => {
    const prefix = 'Disallow: /';
    const at = `User-agent: *\n${prefix}${'a'.repeat(PARSE_DEFAULTS.longLineBytes - prefix.length)}\n`;
    const past = `User-agent: *\n${prefix}${'a'.repeat(PARSE_DEFAULTS.longLineBytes - prefix.length + 1)}x\n`;
    expect(codesOf(at)).toEqual([]);
    expect(codesOf(past.replace('ax\n', 'a\n'))).toEqual([[2, 'line-too-long']]);
    // Google would cut the line and match the broader '/aaa…a'; the whole rule ends in 'x'.
    const robots = parseRobotsTxt(past);
    expect(robots.isAllowed(`https://e.com/${'a'.repeat(PARSE_DEFAULTS.longLineBytes)}`, 'A')).toBe(
      true,
    );
    expect(
      robots.isAllowed(`https://e.com/${'a'.repeat(PARSE_DEFAULTS.longLineBytes - 10)}x`, 'A'),
    ).toBe(false);
  });

  it('longLineBytes counts UTF-8 bytes, not characters', () => {
    const prefix = 'Disallow: /';
    const chars = Math.floor((PARSE_DEFAULTS.longLineBytes - prefix.length) / 2) + 1;
    expect(codesOf(`User-agent: *\n${prefix}${'é'.repeat(chars)}\n`)).toEqual([
      [2, 'line-too-long'],
    ]);
    expect(codesOf(`User-agent: *\n${prefix}${'é'.repeat(chars - 1)}\n`)).toEqual([]);
  });

  it('maxDiagnostics: at the limit all are kept, one past ends with too-many-diagnostics', () => {
    const at = parseRobotsTxt('junk\n'.repeat(3), { maxDiagnostics: 3 }).diagnostics;
    expect(at.map((d) => d.code)).toEqual([
      'unparseable-line',
      'unparseable-line',
      'unparseable-line',
    ]);
    const past = parseRobotsTxt('junk\n'.repeat(4), { maxDiagnostics: 3 }).diagnostics;
    expect(past.map((d) => d.code)).toEqual([
      'unparseable-line',
      'unparseable-line',
      'unparseable-line',
      'too-many-diagnostics',
    ]);
    expect(parseRobotsTxt('junk\n'.repeat(5000)).diagnostics).toHaveLength(
      PARSE_DEFAULTS.maxDiagnostics + 1,
    );
  });

  it('maxCachedAgents: at the limit every agent stays cached, one past drops the oldest', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /x\n', { maxCachedAgents: 2 });
    const a = robots.forAgent('A');
    const b = robots.forAgent('B');
    expect(robots.forAgent('A')).toBe(a);
    expect(robots.forAgent('B')).toBe(b);
    robots.forAgent('C');
    expect(robots.forAgent('B')).toBe(b);
    expect(robots.forAgent('A')).not.toBe(a);
    expect(robots.forAgent('A').isAllowed('/x')).toBe(false);
  });
});

describe('byte-order marks', () => {
  const rest = [...new TextEncoder().encode('User-agent: FooBot\nDisallow: /x\n')];
  it.each([
    ['EF BB BF', [0xef, 0xbb, 0xbf], 3],
    ['EF BB', [0xef, 0xbb], 2],
    ['EF', [0xef], 1],
  ])('skips a leading %s', (_, bom, skipped) => {
    const robots = parseRobotsTxt(Uint8Array.from([...bom, ...rest]));
    expect(robots.isAllowed('https://e.com/x', 'FooBot')).toBe(false);
    expect(robots.diagnostics).toMatchObject([
      { line: 1, code: 'byte-order-mark', severity: 'info' },
    ]);
    expect(robots.diagnostics[0]!.message).toContain(
      skipped === 3 ? 'byte-order mark starts' : `${skipped} byte`,
    );
    expect(robots.parsedBytes).toBe(bom.length + rest.length);
  });

  it('skips U+FEFF at the start of a string', () => {
    const robots = parseRobotsTxt('\uFEFFUser-agent: FooBot\nDisallow: /x\n');
    expect(robots.isAllowed('https://e.com/x', 'FooBot')).toBe(false);
    expect(robots.parsedBytes).toBe(3 + rest.length);
  });

  it('a BOM later in the file is data', () => {
    const robots = parseRobotsTxt('User-agent: FooBot\n\uFEFFDisallow: /x\n');
    expect(robots.isAllowed('https://e.com/x', 'FooBot')).toBe(true);
    expect(codesOf('User-agent: FooBot\n\uFEFFDisallow: /x\n')).toEqual([[2, 'unknown-key']]);
  });

  it('EF 11 BF is not a BOM past its first byte', () => {
    const robots = parseRobotsTxt(Uint8Array.from([0xef, 0x11, 0xbf, ...rest]));
    expect(robots.isAllowed('https://e.com/x', 'FooBot')).toBe(true);
  });
});

describe('line endings', () => {
  it.each([
    ['LF', '\n'],
    ['CR', '\r'],
    ['CRLF', '\r\n'],
  ])('%s ends a line; line numbers are the same', (_, eol) => {
    const body = ['User-agent: FooBot', 'Allow: /x/', '', 'Disallow: /'].join(eol) + eol;
    const robots = parseRobotsTxt(body);
    expect(robots.explain('https://e.com/y', 'FooBot').rule?.line).toBe(4);
    expect(robots.explain('https://e.com/x/', 'FooBot').rule?.line).toBe(2);
    expect(reportRobotsTxtLines(body).lines).toHaveLength(5);
  });

  it('LF CR is two line breaks, CR LF one', () => {
    expect(reportRobotsTxtLines('a: b\n\rc: d').lines.map((l) => l.keyText)).toEqual([
      'a',
      undefined,
      'c',
    ]);
    expect(reportRobotsTxtLines('a: b\r\nc: d').lines.map((l) => l.keyText)).toEqual(['a', 'c']);
  });

  it('the line report quotes each line as read: comment kept, break and byte-order mark not', () => {
    const report = reportRobotsTxtLines('\uFEFF a: b # c\rd\r\n\te: f \n');
    expect(report.lines.map((l) => l.text)).toEqual([' a: b # c', 'd', '\te: f ', '']);
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0x0a, 0x42]);
    expect(reportRobotsTxtLines(bytes).lines.map((l) => l.text)).toEqual(['A', 'B']);
  });

  it('the last line needs no line break', () => {
    expect(parseRobotsTxt('User-agent: *\nDisallow: /x').isAllowed('https://e.com/x', 'A')).toBe(
      false,
    );
  });
});

describe('bytes that are not UTF-8', () => {
  const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0));

  it('are parsed; their non-ASCII octets match the URL octets percent-encoded as they are', () => {
    const robots = parseRobotsTxt(latin1('User-agent: *\nDisallow: /caf\u00e9\n'));
    expect(robots.isAllowed('https://e.com/caf%E9', 'A')).toBe(false);
    expect(robots.isAllowed('https://e.com/caf%e9', 'A')).toBe(false);
    expect(robots.isAllowed('https://e.com/café', 'A')).toBe(true); // é is C3 A9 in a URL
    expect(robots.explain('https://e.com/caf%E9', 'A').rule).toMatchObject({
      normalizedPattern: '/caf%E9',
      pattern: '/caf\u00e9',
    });
  });

  it('valid multi-byte sequences in such a file keep their octets', () => {
    const bytes = Uint8Array.from([
      ...latin1('User-agent: *\nDisallow: /'),
      0xc3,
      0xa9,
      0x0a,
      0xff,
      0x0a,
    ]);
    expect(parseRobotsTxt(bytes).isAllowed('https://e.com/é', 'A')).toBe(false);
    expect(
      parseRobotsTxt(bytes).diagnostics.filter((d) => d.code === 'invalid-utf8'),
    ).toMatchObject([{ line: 3 }]);
  });

  it('valid UTF-8 bytes parse exactly like the string', () => {
    const body = 'User-agent: *\nDisallow: /ツ\nAllow: /ツ/ok\n';
    const a = parseRobotsTxt(body);
    const b = parseRobotsTxt(new TextEncoder().encode(body));
    for (const path of ['/ツ', '/ツ/ok', '/%E3%83%84/x', '/other']) {
      expect(b.explain(`https://e.com${path}`, 'A')).toEqual(
        a.explain(`https://e.com${path}`, 'A'),
      );
    }
    expect(b.parsedBytes).toBe(a.parsedBytes);
    expect(a.parsedBytes).toBe(new TextEncoder().encode(body).length);
  });
});

describe('crawl-delay', () => {
  it('reads the delay of the selected groups, in seconds', () => {
    const robots = parseRobotsTxt(
      'User-agent: FooBot\nCrawl-delay: 2.5\nDisallow: /x\n\nUser-agent: *\nCrawl-delay: 10\n',
    );
    expect(robots.crawlDelay('FooBot')).toBe(2.5);
    expect(robots.forAgent('FooBot').crawlDelay).toBe(2.5);
    expect(robots.crawlDelay('OtherBot')).toBe(10);
  });

  it('is undefined when the groups set none', () => {
    expect(parseRobotsTxt('User-agent: *\nDisallow: /\n').crawlDelay('A')).toBeUndefined();
    expect(parseRobotsTxt('').crawlDelay('A')).toBeUndefined();
  });

  it('takes the largest of merged groups', () => {
    const robots = parseRobotsTxt(
      'User-agent: A\nCrawl-delay: 1\n\nUser-agent: A\nCrawl-delay: 5\nCrawl-delay: 3\n',
    );
    expect(robots.crawlDelay('A')).toBe(5);
  });

  it('applies to the user-agent lines above it in its group, not to later ones', () => {
    // One group (crawl-delay does not end a group, RFC 9309 §2.2.4), so bingbot also gets
    // "Disallow: /admin"; but the delay was written for bingbot only.
    const robots = parseRobotsTxt(
      'User-agent: bingbot\nCrawl-delay: 10\n\nUser-agent: *\nDisallow: /admin\n',
    );
    expect(robots.crawlDelay('bingbot')).toBe(10);
    expect(robots.crawlDelay('OtherBot')).toBeUndefined();
    expect(robots.isAllowed('https://e.com/admin', 'bingbot')).toBe(false);
  });

  it.each(['soon', '-1', '1e3', '', '0x10', '1.2.3'])('rejects "%s"', (value) => {
    const robots = parseRobotsTxt(`User-agent: *\nCrawl-delay: ${value}\n`);
    expect(robots.crawlDelay('A')).toBeUndefined();
    expect(robots.diagnostics[0]?.code).toBe(value === '' ? 'empty-value' : 'invalid-crawl-delay');
  });

  it.each([
    ['0', 0],
    ['.5', 0.5],
    ['3.', 3],
    ['30', 30],
  ])('accepts "%s"', (value, seconds) => {
    expect(parseRobotsTxt(`User-agent: *\nCrawl-delay: ${value}\n`).crawlDelay('A')).toBe(seconds);
  });

  it('outside any group it is ignored and reported', () => {
    const robots = parseRobotsTxt('Crawl-delay: 5\nUser-agent: *\n');
    expect(robots.crawlDelay('A')).toBeUndefined();
    expect(robots.diagnostics).toMatchObject([{ line: 1, code: 'rule-outside-group' }]);
  });
});

describe('sitemaps', () => {
  it('are collected in order from anywhere in the file, duplicates kept', () => {
    const robots = parseRobotsTxt(
      'Sitemap: https://e.com/a.xml\nUser-agent: *\nSITEMAP:https://e.com/b.xml # c\nDisallow: /\nsitemap: https://e.com/a.xml\n',
    );
    expect(robots.sitemaps).toEqual([
      'https://e.com/a.xml',
      'https://e.com/b.xml',
      'https://e.com/a.xml',
    ]);
    expect(Object.isFrozen(robots.sitemaps)).toBe(true);
  });

  it('keep their text exactly, non-ASCII and lone surrogates included', () => {
    // A string body may hold a lone surrogate, which UTF-8 cannot carry: the copy the parsed
    // file keeps must still be the text as given.
    const urls = [
      'https://e.com/k\u00e4se.xml',
      'https://e.com/\ud83d\ude00.xml',
      'https://e.com/\ud800x.xml',
    ];
    const robots = parseRobotsTxt(urls.map((u) => `Sitemap: ${u}\n`).join(''));
    expect(robots.sitemaps).toEqual(urls);
    const onlyLone = parseRobotsTxt(`Sitemap: ${urls[2]!}\n`);
    expect(onlyLone.sitemaps).toEqual([urls[2]]);
  });

  it('do not end a group', () => {
    const robots = parseRobotsTxt(
      'User-agent: A\nSitemap: https://e.com/s.xml\nUser-agent: B\nDisallow: /\n',
    );
    expect(robots.isAllowed('https://e.com/', 'A')).toBe(false);
  });

  it('must be absolute URLs', () => {
    const robots = parseRobotsTxt(
      'Sitemap: /s.xml\nSitemap: sitemap.xml\nSitemap: https://e.com/ok.xml\n',
    );
    expect(robots.sitemaps).toEqual(['https://e.com/ok.xml']);
    expect(robots.diagnostics.map((d) => d.code)).toEqual([
      'invalid-sitemap-url',
      'invalid-sitemap-url',
    ]);
  });

  it('is an empty frozen array when there are none', () => {
    expect(parseRobotsTxt('User-agent: *\n').sitemaps).toEqual([]);
  });
});

describe('groups', () => {
  it('rules before the first group are ignored', () => {
    const robots = parseRobotsTxt('Disallow: /x\nUser-agent: *\nDisallow: /y\n');
    expect(robots.isAllowed('https://e.com/x', 'A')).toBe(true);
    expect(robots.isAllowed('https://e.com/y', 'A')).toBe(false);
  });

  it('unknown keys, host, blank lines and comments do not end a group', () => {
    const robots = parseRobotsTxt(
      'User-agent: A\nfoo: bar\nHost: e.com\n\n# hi\nUser-agent: B\nDisallow: /\n',
    );
    expect(robots.isAllowed('https://e.com/', 'A')).toBe(false);
  });

  it('an empty rule still ends the list of user-agents', () => {
    const robots = parseRobotsTxt('User-agent: A\nDisallow:\nUser-agent: B\nDisallow: /\n');
    expect(robots.isAllowed('https://e.com/', 'A')).toBe(true);
    expect(robots.isAllowed('https://e.com/', 'B')).toBe(false);
  });

  it('a product token is cut at the first character outside A-Z a-z _ -', () => {
    const robots = parseRobotsTxt('User-agent: FooBot/2.1 (+https://foo.example)\nDisallow: /\n');
    expect(robots.isAllowed('https://e.com/', 'FooBot')).toBe(false);
    expect(robots.explain('https://e.com/', 'FooBot').selection).toBe('product');
  });
});
