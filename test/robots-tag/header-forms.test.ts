import { describe, expect, it } from 'vitest';
import { parseRobotsTagHeaders, rawHeaderPairs } from '@polite-crawler/robots-tag';
import type { RobotsTagRules } from '@polite-crawler/robots-tag';

/** `token:name[=value]/syntax` for each rule: compact enough for tables. */
function summary(result: RobotsTagRules): string[] {
  return result.rules.map(
    (r) => `${r.token}:${r.name}${r.value === undefined ? '' : `=${r.value}`}/${r.syntax}`,
  );
}

const codes = (result: RobotsTagRules): string[] => result.diagnostics.map((d) => d.code);

describe('a rule list written with `;` for `,`', () => {
  it.each([
    ['noindex;', ['*:noindex/legacy']],
    ['noindex; nofollow', ['*:noindex/legacy', '*:nofollow/legacy']],
    ['noindex, nofollow;', ['*:noindex/legacy', '*:nofollow/legacy']],
    ['googlebot: noindex, nofollow;', ['googlebot:noindex/legacy', 'googlebot:nofollow/legacy']],
    // After a `token:` prefix too.
    ['ExampleBot: noindex;', ['examplebot:noindex/legacy']],
    ['ExampleBot: noindex; nofollow', ['examplebot:noindex/legacy', 'examplebot:nofollow/legacy']],
    [
      'googlebot: max-snippet: 20; noindex',
      ['googlebot:max-snippet=20/legacy', 'googlebot:noindex/legacy'],
    ],
    // A crawler's own token still names a rule set.
    ['ExampleBot;', []],
    ['ExampleBot;noindex', ['examplebot:noindex/structured']],
  ] as const)('%j', (value, expected) => {
    const result = parseRobotsTagHeaders(value);
    expect(summary(result)).toEqual(expected);
    expect(result.diagnostics).toEqual([]);
  });
});

it('text with `;` after a `token:` prefix that does not start with a rule is not read', () => {
  const result = parseRobotsTagHeaders('ExampleBot: foo; noindex');
  expect(summary(result)).toEqual([]);
  expect(codes(result)).toEqual(['unparseable-member']);
});

describe('the draft’s structured forms', () => {
  const cases: Array<[string, string[]]> = [
    // Both examples from the draft (neither is valid RFC 9651): ExampleBot has no rules.
    ['*;noindex;nosnippet, ExampleBot;', ['*:noindex/structured', '*:nosnippet/structured']],
    [';noindex;nosnippet, ExampleBot=;', ['*:noindex/structured', '*:nosnippet/structured']],
    [
      'examplebot;noindex, *;nosnippet',
      ['examplebot:noindex/structured', '*:nosnippet/structured'],
    ],
    // The newer revision's List form.
    [
      '*;nosnippet, ExampleBot;noindex',
      ['*:nosnippet/structured', 'examplebot:noindex/structured'],
    ],
    ['*;max-snippet=20', ['*:max-snippet=20/structured']],
    ['ExampleBot;max-image-preview=large', ['examplebot:max-image-preview=large/structured']],
    [
      '*;unavailable_after="2010-06-25T15:00:00Z"',
      ['*:unavailable_after=2010-06-25T15:00:00Z/structured'],
    ],
    [
      '*;unavailable_after=@1277478000',
      ['*:unavailable_after=2010-06-25T15:00:00.000Z/structured'],
    ],
    ['*;NOINDEX;NoSnippet', ['*:noindex/structured', '*:nosnippet/structured']],
    [
      'examplebot=(noindex nosnippet)',
      ['examplebot:noindex/structured', 'examplebot:nosnippet/structured'],
    ],
    ['(examplebot noindex)', ['examplebot:noindex/structured']],
    [
      'examplebot;noindex, examplebot;nofollow',
      ['examplebot:noindex/structured', 'examplebot:nofollow/structured'],
    ],
    ['*;noindex, ExampleBot', ['*:noindex/structured']],
    ['*;noindex, noai', ['*:noindex/structured']],
    ['*', []],
  ];
  it.each(cases)('%j', (value, expected) => {
    const result = parseRobotsTagHeaders(value);
    expect(summary(result)).toEqual(expected);
    expect(result.diagnostics).toEqual([]);
  });

  it('reports a parameter set to ?0 and ignores it', () => {
    const result = parseRobotsTagHeaders('*;noindex=?0;nosnippet');
    expect(summary(result)).toEqual(['*:nosnippet/structured']);
    expect(codes(result)).toEqual(['invalid-value']);
  });

  it('reports a byte-sequence value and ignores it', () => {
    const result = parseRobotsTagHeaders('*;max-snippet=:AQID:');
    expect(summary(result)).toEqual([]);
    expect(codes(result)).toEqual(['invalid-value']);
  });

  it('reports a structured member whose token is not a product token', () => {
    const result = parseRobotsTagHeaders('exa/mple;noindex, *;nofollow');
    expect(summary(result)).toEqual(['*:nofollow/structured']);
    expect(codes(result)).toEqual(['unparseable-member']);
  });
});

describe('legacy forms servers send', () => {
  const cases: Array<[string, string[]]> = [
    ['noindex, nofollow', ['*:noindex/legacy', '*:nofollow/legacy']],
    ['googlebot: noindex', ['googlebot:noindex/legacy']],
    ['googlebot: noindex, nofollow', ['googlebot:noindex/legacy', 'googlebot:nofollow/legacy']],
    ['googlebot:noindex', ['googlebot:noindex/legacy']],
    [
      'noarchive, googlebot: noindex, nofollow, otherbot: nosnippet',
      [
        '*:noarchive/legacy',
        'googlebot:noindex/legacy',
        'googlebot:nofollow/legacy',
        'otherbot:nosnippet/legacy',
      ],
    ],
    [
      'unavailable_after: 25 Jun 2010 15:00:00 PST',
      ['*:unavailable_after=25 Jun 2010 15:00:00 PST/legacy'],
    ],
    [
      'unavailable_after: Friday, 25-Jun-10 15:00:00 PST',
      ['*:unavailable_after=Friday, 25-Jun-10 15:00:00 PST/legacy'],
    ],
    [
      'unavailable_after: Fri, 25 Jun 2010 15:00:00 GMT, noarchive',
      ['*:unavailable_after=Fri, 25 Jun 2010 15:00:00 GMT/legacy', '*:noarchive/legacy'],
    ],
    [
      'unavailable_after: June 25, 2010, noindex',
      ['*:unavailable_after=June 25, 2010/legacy', '*:noindex/legacy'],
    ],
    [
      'googlebot: unavailable_after: Friday, 25-Jun-10 15:00:00 PST',
      ['googlebot:unavailable_after=Friday, 25-Jun-10 15:00:00 PST/legacy'],
    ],
    ['max-snippet: 20, noarchive', ['*:max-snippet=20/legacy', '*:noarchive/legacy']],
    ['max-snippet:20', ['*:max-snippet=20/legacy']],
    ['max-snippet=20', ['*:max-snippet=20/legacy']],
    ['max-image-preview: large', ['*:max-image-preview=large/legacy']],
    ['max-video-preview: -1', ['*:max-video-preview=-1/legacy']],
    ['none', ['*:none/legacy']],
    ['all', ['*:all/legacy']],
    ['NOINDEX, NoFollow', ['*:noindex/legacy', '*:nofollow/legacy']],
    ['GoogleBot: NoIndex', ['googlebot:noindex/legacy']],
    ['noindex nofollow', ['*:noindex/legacy', '*:nofollow/legacy']],
    ['noindex,,nofollow,', ['*:noindex/legacy', '*:nofollow/legacy']],
    ['  noindex  ,\tnofollow  ', ['*:noindex/legacy', '*:nofollow/legacy']],
    ['', []],
  ];
  it.each(cases)('%j', (value, expected) => {
    const result = parseRobotsTagHeaders(value);
    expect(summary(result)).toEqual(expected);
    expect(result.diagnostics).toEqual([]);
  });

  it('keeps unknown rules verbatim, marked unknown', () => {
    const result = parseRobotsTagHeaders('noai, noimageai, googlebot: nopreview');
    expect(result.rules.map((r) => [r.token, r.name, r.known])).toEqual([
      ['*', 'noai', false],
      ['*', 'noimageai', false],
      ['googlebot', 'nopreview', false],
    ]);
  });

  it('records the member as written and the field line', () => {
    const [rule] = parseRobotsTagHeaders(['noindex', '  GoogleBot:  NoSnippet ']).rules.slice(1);
    expect(rule).toMatchObject({
      token: 'googlebot',
      name: 'nosnippet',
      raw: 'GoogleBot:  NoSnippet',
      line: 2,
    });
  });

  it('reports garbage members and keeps the good ones', () => {
    const result = parseRobotsTagHeaders('noindex, !!!, nofollow');
    expect(summary(result)).toEqual(['*:noindex/legacy', '*:nofollow/legacy']);
    expect(result.diagnostics).toMatchObject([
      { code: 'unparseable-member', text: '!!!', line: 1, source: 'header' },
    ]);
  });

  it('does not let an unclosed quote swallow the members after it', () => {
    const result = parseRobotsTagHeaders('"oops, noindex, nofollow');
    expect(summary(result)).toEqual(['*:noindex/legacy', '*:nofollow/legacy']);
    expect(codes(result)).toEqual(['unparseable-member']);
  });

  it.each([
    ['max-snippet: lots'],
    ['max-snippet: -2'],
    ['max-snippet:'],
    ['max-video-preview: 1.5'],
    ['max-image-preview: huge'],
    ['unavailable_after: someday'],
    ['unavailable_after: 31 Feb 2010'],
  ])('reports an unusable value: %j', (value) => {
    const result = parseRobotsTagHeaders(value);
    expect(result.rules).toHaveLength(1);
    expect(result.rules[0]?.known).toBe(true);
    expect(codes(result)).toEqual(['invalid-value']);
  });
});

describe('mixed forms on one line', () => {
  const cases: Array<[string, string[]]> = [
    ['googlebot: noindex, *;nosnippet', ['googlebot:noindex/legacy', '*:nosnippet/structured']],
    // A structured member ends a legacy `token:` run.
    [
      'googlebot: noindex, *;nosnippet, nofollow',
      ['googlebot:noindex/legacy', '*:nosnippet/structured', '*:nofollow/legacy'],
    ],
    ['noindex, examplebot;nosnippet', ['*:noindex/legacy', 'examplebot:nosnippet/structured']],
    ['*;noarchive, max-snippet: 10', ['*:noarchive/structured', '*:max-snippet=10/legacy']],
    [
      'examplebot;noindex, unavailable_after: Friday, 25-Jun-10 15:00:00 PST',
      [
        'examplebot:noindex/structured',
        '*:unavailable_after=Friday, 25-Jun-10 15:00:00 PST/legacy',
      ],
    ],
  ];
  it.each(cases)('%j', (value, expected) => {
    expect(summary(parseRobotsTagHeaders(value))).toEqual(expected);
  });
});

describe('field lines and input shapes', () => {
  it('parses each field value on its own: a legacy token run stops at the end of its line', () => {
    const result = parseRobotsTagHeaders(['googlebot: noindex', 'nofollow']);
    expect(summary(result)).toEqual(['googlebot:noindex/legacy', '*:nofollow/legacy']);
    expect(result.rules.map((r) => r.line)).toEqual([1, 2]);
  });

  it('reads both robots-tag and x-robots-tag from a fetch Headers object', () => {
    const headers = new Headers();
    headers.append('X-Robots-Tag', 'noindex');
    headers.append('Robots-Tag', '*;nosnippet');
    headers.append('Content-Type', 'text/html');
    const result = parseRobotsTagHeaders(headers);
    expect(summary(result).sort()).toEqual(['*:noindex/legacy', '*:nosnippet/structured']);
    expect(result.rules.map((r) => r.field).sort()).toEqual(['robots-tag', 'x-robots-tag']);
  });

  it('sees fetch Headers’ joined lines as one line (the documented caveat)', () => {
    const headers = new Headers();
    headers.append('x-robots-tag', 'googlebot: noindex');
    headers.append('x-robots-tag', 'nofollow');
    expect(summary(parseRobotsTagHeaders(headers))).toEqual([
      'googlebot:noindex/legacy',
      'googlebot:nofollow/legacy',
    ]);
  });

  it('reads a non-iterable object with get()', () => {
    const headers = { get: (name: string) => (name === 'x-robots-tag' ? 'noarchive' : null) };
    expect(summary(parseRobotsTagHeaders(headers))).toEqual(['*:noarchive/legacy']);
  });

  it('reads array values of pairs and { name, value } entries as one line each (headersDistinct)', () => {
    const distinct = { 'x-robots-tag': ['googlebot: noindex', 'nofollow'], 'content-type': ['x'] };
    const expected = ['googlebot:noindex/legacy', '*:nofollow/legacy'];
    expect(summary(parseRobotsTagHeaders(Object.entries(distinct)))).toEqual(expected);
    expect(
      summary(parseRobotsTagHeaders([{ name: 'X-Robots-Tag', value: distinct['x-robots-tag'] }])),
    ).toEqual(expected);
  });

  it('picks robots-tag / x-robots-tag lines, any case, out of [name, value] pairs', () => {
    const pairs: Array<[string, string]> = [
      ['Content-Type', 'text/html'],
      ['X-ROBOTS-TAG', 'googlebot: noindex'],
      ['x-robots-tag', 'nofollow'],
      ['robots-tag', '*;nosnippet'],
      ['Link', '</a>; rel=preload'],
    ];
    const result = parseRobotsTagHeaders(pairs);
    expect(summary(result)).toEqual([
      'googlebot:noindex/legacy',
      '*:nofollow/legacy',
      '*:nosnippet/structured',
    ]);
    expect(result.rules.map((r) => [r.field, r.line])).toEqual([
      ['x-robots-tag', 1],
      ['x-robots-tag', 2],
      ['robots-tag', 3],
    ]);
  });

  it('reads Playwright-style { name, value } entries', () => {
    const entries = [
      { name: 'X-Robots-Tag', value: 'noindex' },
      { name: 'x-robots-tag', value: 'examplebot: nofollow' },
      { name: 'server', value: 'noindex' },
    ];
    expect(summary(parseRobotsTagHeaders(entries))).toEqual([
      '*:noindex/legacy',
      'examplebot:nofollow/legacy',
    ]);
  });

  it('reads a Node-style header record, arrays as separate lines', () => {
    const record = {
      'x-robots-tag': ['googlebot: noindex', 'nofollow'],
      'Robots-Tag': 'noarchive',
      server: 'x',
    };
    expect(summary(parseRobotsTagHeaders(record))).toEqual([
      'googlebot:noindex/legacy',
      '*:nofollow/legacy',
      '*:noarchive/legacy',
    ]);
  });

  it('reads a Map of headers', () => {
    expect(summary(parseRobotsTagHeaders(new Map([['X-Robots-Tag', 'none']])))).toEqual([
      '*:none/legacy',
    ]);
  });

  it('pairs flat raw headers (strings or bytes) with rawHeaderPairs', () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    const raw = [
      bytes('X-Robots-Tag'),
      bytes('googlebot: noindex'),
      'x-robots-tag',
      'nofollow',
      'Server',
      'test',
    ];
    expect(rawHeaderPairs(raw)).toEqual([
      ['X-Robots-Tag', 'googlebot: noindex'],
      ['x-robots-tag', 'nofollow'],
      ['Server', 'test'],
    ]);
    expect(summary(parseRobotsTagHeaders(rawHeaderPairs(raw)))).toEqual([
      'googlebot:noindex/legacy',
      '*:nofollow/legacy',
    ]);
  });

  it('skips entries that are not strings', () => {
    const odd = [
      ['x-robots-tag', 42],
      { name: 'x-robots-tag' },
      null,
      7,
      ['x-robots-tag', 'noindex'],
    ];
    expect(summary(parseRobotsTagHeaders(odd as unknown as string[]))).toEqual([
      '*:noindex/legacy',
    ]);
  });

  it('returns nothing when no robots header is present', () => {
    expect(parseRobotsTagHeaders(new Headers({ 'content-type': 'text/html' }))).toEqual({
      rules: [],
      diagnostics: [],
    });
  });
});
