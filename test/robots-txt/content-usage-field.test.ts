/**
 * The `Content-Usage` response field (draft-ietf-aipref-attach-05 §2) and the combination
 * of statements (vocab-08 §5.1): the drafts' examples, the processing examples of vocab §6.5,
 * vocab-08's `ai-use`, how field lines combine (RFC 9651 §4.2), input shapes, the limit, and a
 * real response.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PARSE_DEFAULTS,
  USAGE_CATEGORIES,
  combineUsage,
  isRobotsTxtUsageError,
  parseContentUsage,
  type UsagePreference,
  type UsagePreferences,
} from '@polite-crawler/robots-txt';

const U = 'unknown';
const A = 'allowed';
const D = 'disallowed';
type Prefs = readonly [UsagePreference, UsagePreference];
/** train-ai and search, the two categories of vocab-07 (ai-use has its own describe). */
const prefs = (p: UsagePreferences): Prefs => [p['train-ai'], p.search];
const all = (p: UsagePreferences): UsagePreference[] => USAGE_CATEGORIES.map((c) => p[c]);
const FIELD = { kind: 'content-usage-field' } as const;

describe('the drafts’ examples', () => {
  it('attach §1.2: Content-Usage: train-ai=n in a response', () => {
    const headers = new Headers({
      Date: 'Wed, 23 Apr 2025 04:48:02 GMT',
      'Content-Type': 'text/plain',
      'Content-Usage': 'train-ai=n',
    });
    const p = parseContentUsage(headers);
    expect(prefs(p)).toEqual([D, U]);
    expect(p.sources).toEqual({ 'train-ai': [FIELD], 'ai-use': [], search: [] });
  });

  it('vocab §6: train-ai=y, search=n', () => {
    expect(prefs(parseContentUsage('train-ai=y, search=n'))).toEqual([A, D]);
  });

  it('vocab §6.5.1: a duplicate key’s last value applies; Boolean and String are not Tokens', () => {
    expect(prefs(parseContentUsage('train-ai=y, train-ai, search=n, search="n"'))).toEqual([U, U]);
  });

  it('vocab §6.5.1: a failed parse (upper-case keys) makes everything unknown', () => {
    expect(prefs(parseContentUsage('Train-AI=n, search=n'))).toEqual([U, U]);
    expect(prefs(parseContentUsage('train-ai=n, SEARCH=n'))).toEqual([U, U]);
  });

  it('vocab §6.5.2: only the selected value’s parameters apply; the preference is allow', () => {
    expect(prefs(parseContentUsage('train-ai;allow=n, train-ai=y'))).toEqual([A, U]);
  });

  it('vocab §6.5.2: parameters on an unknown preference (the trailing ";" fails the parse)', () => {
    expect(prefs(parseContentUsage('train-ai;has;parameters="?";'))).toEqual([U, U]);
    expect(prefs(parseContentUsage('train-ai;has;parameters="?"'))).toEqual([U, U]);
  });
});

describe('vocab §6.5 processing', () => {
  it.each([
    ['train-ai=n;reason="x"', [D, U]],
    ['train-ai=Y', [U, U]],
    ['train-ai=N', [U, U]],
    ['train-ai=no', [U, U]],
    ['train-ai=yes', [U, U]],
    ['train-ai=?1', [U, U]],
    ['train-ai=1', [U, U]],
    ['train-ai=(n)', [U, U]],
    ['train-ai=:bg==:', [U, U]],
    ['train-ai=n, search=y,', [U, U]],
    ['train-ai=n,, search=y', [U, U]],
    ['train-ai=n search=y', [U, U]],
    ['train-ai = n', [U, U]],
    ['  train-ai=n  ', [D, U]],
    ['train-ai=n,\tsearch=y', [D, A]],
    ['genai=n, train-ai=y', [A, U]],
    ['', [U, U]],
    ['train-ai=n, x="é"', [U, U]],
    ['train-ai=n, x=%"%c3%a9"', [D, U]],
  ] as const)('%j → %j', (value, want) => {
    expect(prefs(parseContentUsage(value))).toEqual(want);
  });

  it('other labels are kept raw, in canonical form, parameters dropped', () => {
    const p = parseContentUsage('genai=n;p=1, train-ai=n, z, s="a b", l=(a b);q, n=2');
    expect(p.extensions).toEqual([
      { label: 'genai', value: 'n', source: FIELD },
      { label: 'z', value: '?1', source: FIELD },
      { label: 's', value: '"a b"', source: FIELD },
      { label: 'l', value: '(a b)', source: FIELD },
      { label: 'n', value: '2', source: FIELD },
    ]);
  });

  it.each([
    ['1.50', '1.5'],
    ['1.0', '1.0'], // a Decimal stays a Decimal
    ['-0.0', '0.0'],
    ['007', '7'],
    ['-0', '0'],
    ['-007', '-7'],
    ['(a  b)', '(a b)'],
    ['( a;p=1.50;q=?1  "s" );r', '(a;p=1.5;q "s")'],
    ['(a;p=1;p=2;q)', '(a;p=2;q)'],
    [':aGk:', ':aGk=:'],
    [':aGl=:', ':aGk=:'],
    ['%"%61%25%c3%a9"', '%"a%25%c3%a9"'],
    ['@007', '@7'],
    ['?0;p', '?0'],
  ])('an extension label’s value is its RFC 9651 §4.1 serialisation: %j → %j', (raw, want) => {
    expect(parseContentUsage(`x=${raw}`).extensions).toEqual([
      { label: 'x', value: want, source: FIELD },
    ]);
  });

  it('a Date is a valid value (RFC 9651 §4.2.9), wherever it stands', () => {
    // structured-headers 2.1.0 fails `d=@1, train-ai=n` (it reads a Date to the end of the
    // value): the RFC parses `@1` and goes on, and so do we.
    expect(prefs(parseContentUsage('d=@1, train-ai=n'))).toEqual([D, U]);
    expect(prefs(parseContentUsage('train-ai=n, d=@1'))).toEqual([D, U]);
    expect(parseContentUsage('d=@1, train-ai=n').extensions).toEqual([
      { label: 'd', value: '@1', source: FIELD },
    ]);
  });
});

describe('field lines combine as HTTP combines them (RFC 9651 §4.2)', () => {
  it.each([
    [['train-ai=n', 'train-ai=y'], [A, U], 'a later duplicate key wins, even when more permissive'],
    [['train-ai=y', 'train-ai=n'], [D, U], 'and when more restrictive'],
    [['train-ai=n', 'search=y'], [D, A], 'keys of different lines add up'],
    [['train-ai=n', 'Search=y'], [U, U], 'one bad line fails the whole field'],
    [['train-ai=n', ''], [U, U], 'an empty line makes a trailing comma'],
    [['train-ai=n', 'search="y'], [U, U], 'a String cannot span lines'],
    [[], [U, U], 'no line: no statement'],
  ] as const)('%j → %j (%s)', (lines, want, _why) => {
    expect(prefs(parseContentUsage(lines))).toEqual(want);
  });

  it('a fetch Headers object joins repeated lines the same way', () => {
    const headers = new Headers();
    headers.append('content-usage', 'train-ai=n');
    headers.append('Content-Usage', 'train-ai=y');
    expect(prefs(parseContentUsage(headers))).toEqual([A, U]);
  });

  it('[name, value] and { name, value } entries: only content-usage lines, any case', () => {
    const entries = [
      ['Content-Type', 'text/html'],
      ['CONTENT-USAGE', 'train-ai=n'],
      ['content-usage', ['search=n', 'search=y']],
    ] as const;
    expect(prefs(parseContentUsage(entries))).toEqual([D, A]);
    expect(
      prefs(
        parseContentUsage([
          { name: 'content-usage', value: 'search=n' },
          { name: 'x', value: 'train-ai=n' },
        ]),
      ),
    ).toEqual([U, D]);
  });

  it('a Headers object without the field: no statement', () => {
    expect(parseContentUsage(new Headers({ 'content-type': 'text/plain' }))).toEqual({
      'train-ai': U,
      'ai-use': U,
      search: U,
      sources: { 'train-ai': [], 'ai-use': [], search: [] },
      extensions: [],
    });
  });
});

describe('limit: maxFieldBytes of the combined value', () => {
  const max = PARSE_DEFAULTS.maxFieldBytes;
  const padded = (length: number): string => {
    const head = 'train-ai=n, x="';
    return head + 'a'.repeat(length - head.length - 1) + '"';
  };
  it('at the limit: parsed', () => {
    expect(padded(max)).toHaveLength(max);
    expect(parseContentUsage(padded(max))['train-ai']).toBe(D);
  });
  it('one past it: not parsed, everything unknown', () => {
    expect(parseContentUsage(padded(max + 1))['train-ai']).toBe(U);
  });
  it('the limit counts the joined lines', () => {
    const line = padded(max / 2);
    expect(parseContentUsage([line, line])['train-ai']).toBe(U); // 2 × max/2 + ', '
    expect(parseContentUsage([padded(max / 2 - 1), padded(max / 2 - 1)])['train-ai']).toBe(D);
  });
  it('an option raises or lowers it (not below 8192)', () => {
    expect(parseContentUsage(padded(max + 1), { maxFieldBytes: max + 1 })['train-ai']).toBe(D);
    expect(parseContentUsage(padded(8193), { maxFieldBytes: 1 })['train-ai']).toBe(U);
    expect(parseContentUsage(padded(8192), { maxFieldBytes: 1 })['train-ai']).toBe(D);
  });
});

describe('bad arguments throw a typed error; content never does', () => {
  it.each([null, 42, undefined, true, {}])('input %j', (input) => {
    let thrown: unknown;
    try {
      parseContentUsage(input as never);
    } catch (error) {
      thrown = error;
    }
    expect(isRobotsTxtUsageError(thrown)).toBe(true);
    expect((thrown as { reason: string }).reason).toBe('invalid-field');
  });
  it.each([0, -1, 1.5, '10', Number.NaN])('maxFieldBytes %j', (value) => {
    let thrown: unknown;
    try {
      parseContentUsage('train-ai=n', { maxFieldBytes: value as number });
    } catch (error) {
      thrown = error;
    }
    expect(isRobotsTxtUsageError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ reason: 'invalid-option', option: 'maxFieldBytes' });
  });
});

describe('vocab-08: ai-use is a category like the others', () => {
  it.each([
    ['ai-use=n', [U, D, U]],
    ['ai-use=y', [U, A, U]],
    ['train-ai=y, ai-use=n, search=y', [A, D, A]],
    ['ai-use=no', [U, U, U]],
    ['ai-use="n"', [U, U, U]],
    ['ai-use=n;p=1', [U, D, U]],
    ['ai-use=n, ai-use=y', [U, A, U]],
    ['AI-USE=n, train-ai=n', [U, U, U]], // a failed parse: all unknown
    ['ai-use=n, x="é"', [U, U, U]],
    // search does not override the others' values (vocab-08 §4 says which one governs a use).
    ['search=y, ai-use=n, train-ai=n', [D, D, A]],
  ] as const)('%j → %j', (value, want) => {
    expect(all(parseContentUsage(value))).toEqual(want);
  });

  it('its source is the field; it is not an extension label', () => {
    const p = parseContentUsage('ai-use=n, ai-input=n');
    expect(p.sources['ai-use']).toEqual([FIELD]);
    // `ai-input` is Content-Signal's name; in Content-Usage it is an unknown label, ignored.
    expect(p.extensions).toEqual([{ label: 'ai-input', value: 'n', source: FIELD }]);
  });

  it('combines most-restrictively, on its own', () => {
    const st = (value: string): UsagePreferences => parseContentUsage(value);
    expect(all(combineUsage(st('ai-use=y'), st('ai-use=n')))).toEqual([U, D, U]);
    expect(all(combineUsage(st('ai-use=y'), st('search=n')))).toEqual([U, A, D]);
    expect(all(combineUsage(st('ai-use=y'), st('')))).toEqual([U, A, U]);
    expect(all(combineUsage())).toEqual([U, U, U]);
  });
});

describe('combineUsage (vocab §5.1)', () => {
  const st = (value: string): UsagePreferences => parseContentUsage(value);
  it.each([
    [
      ['train-ai=n', 'train-ai=y'],
      [D, U],
    ],
    [
      ['train-ai=y', 'train-ai=n'],
      [D, U],
    ],
    [
      ['train-ai=y', 'search=n'],
      [A, D],
    ],
    [
      ['train-ai=y', ''],
      [A, U],
    ],
    [
      ['', ''],
      [U, U],
    ],
    [
      ['train-ai=y', 'train-ai=y, search=y', 'search=n'],
      [A, D],
    ],
  ] as const)('%j → %j', (values, want) => {
    expect(prefs(combineUsage(...values.map(st)))).toEqual(want);
  });
  it('no argument: everything unknown', () => {
    expect(prefs(combineUsage())).toEqual([U, U]);
  });
  it('the sources of the result are those of the statements that gave it', () => {
    const robots: UsagePreferences = {
      'train-ai': D,
      'ai-use': A,
      search: A,
      sources: {
        'train-ai': [
          { kind: 'content-usage-rule', line: 3, pattern: '', text: 'Content-Usage: train-ai=n' },
        ],
        'ai-use': [
          {
            kind: 'content-signal-rule',
            line: 2,
            pattern: '',
            text: 'Content-Signal: ai-input=yes',
          },
        ],
        search: [
          { kind: 'content-usage-rule', line: 3, pattern: '', text: 'Content-Usage: train-ai=n' },
        ],
      },
      extensions: [
        {
          label: 'ai-search',
          value: 'yes',
          source: {
            kind: 'content-signal-rule',
            line: 2,
            pattern: '',
            text: 'Content-Signal: ai-input=yes',
          },
        },
      ],
    };
    const field = parseContentUsage('train-ai=y, ai-use=y, search=n, genai=n');
    const both = combineUsage(robots, field);
    expect(all(both)).toEqual([D, A, D]);
    expect(both.sources).toEqual({
      'train-ai': robots.sources['train-ai'],
      'ai-use': [...robots.sources['ai-use'], FIELD],
      search: [FIELD],
    });
    expect(both.extensions.map((e) => e.label)).toEqual(['ai-search', 'genai']);
  });
});

describe('a real response with two Content-Usage lines', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.setHeader('Content-Usage', ['train-ai=n, search=y', 'train-ai=y']);
      res.end('content');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  it('fetch’s Headers and the raw lines give the same answer: the later train-ai wins', async () => {
    const response = await fetch(`${base}/page`);
    await response.text();
    expect(response.headers.get('content-usage')).toBe('train-ai=n, search=y, train-ai=y');
    expect(prefs(parseContentUsage(response.headers))).toEqual([A, A]);
    expect(prefs(parseContentUsage(['train-ai=n, search=y', 'train-ai=y']))).toEqual([A, A]);
  });
});
