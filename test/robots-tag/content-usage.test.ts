/**
 * The `Content-Usage` response field (draft-ietf-aipref-attach-05 §2) and the combination
 * of statements (vocab-07 §5.1): the drafts' examples, the processing examples of vocab §6.5,
 * how field lines combine (RFC 9651 §4.2), input shapes, the limit, and a real response.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROBOTS_TAG_DEFAULTS,
  combineUsage,
  isRobotsTagUsageError,
  parseContentUsage,
  type UsagePreference,
  type UsagePreferences,
} from '@polite-crawler/robots-tag';

const U = 'unknown';
const A = 'allowed';
const D = 'disallowed';
type Prefs = readonly [UsagePreference, UsagePreference];
const prefs = (p: UsagePreferences): Prefs => [p['train-ai'], p.search];
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
    expect(p.sources).toEqual({ 'train-ai': [FIELD], search: [] });
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

  it('other labels are kept raw, serialised by structured-headers, parameters dropped', () => {
    const p = parseContentUsage('genai=n;p=1, train-ai=n, z, s="a b", l=(a b);q, n=2');
    expect(p.extensions).toEqual([
      { label: 'genai', value: 'n', source: FIELD },
      { label: 'z', value: '?1', source: FIELD },
      { label: 's', value: '"a b"', source: FIELD },
      { label: 'l', value: '(a b)', source: FIELD },
      { label: 'n', value: '2', source: FIELD },
    ]);
  });

  it('structured-headers 2.1.0 fails a Date that is not the last thing in the value', () => {
    // RFC 9651 §4.2.9 parses `@1` and goes on; structured-headers reads to the end and fails.
    // So here the whole field is unknown, while robots-txt's own parser (exact) reads it. If
    // this test fails after an upgrade, the dependency is fixed: update both READMEs.
    expect(prefs(parseContentUsage('d=@1, train-ai=n'))).toEqual([U, U]);
    expect(prefs(parseContentUsage('train-ai=n, d=@1'))).toEqual([D, U]);
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
      search: U,
      sources: { 'train-ai': [], search: [] },
      extensions: [],
    });
  });
});

describe('limit: maxFieldBytes of the combined value', () => {
  const max = ROBOTS_TAG_DEFAULTS.maxFieldBytes;
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
    expect(isRobotsTagUsageError(thrown)).toBe(true);
    expect((thrown as { code: string }).code).toBe('ERR_ROBOTS_TAG_INVALID_ARGUMENT');
  });
  it.each([0, -1, 1.5, '10', Number.NaN])('maxFieldBytes %j', (value) => {
    expect(() => parseContentUsage('train-ai=n', { maxFieldBytes: value as number })).toThrow(
      /maxFieldBytes/,
    );
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
      search: A,
      sources: {
        'train-ai': [{ kind: 'content-usage-rule', line: 3, pattern: '' }],
        search: [{ kind: 'content-usage-rule', line: 3, pattern: '' }],
      },
      extensions: [
        {
          label: 'ai-input',
          value: 'yes',
          source: { kind: 'content-signal-rule', line: 2, pattern: '' },
        },
      ],
    };
    const field = parseContentUsage('train-ai=y, search=n, genai=n');
    const both = combineUsage(robots, field);
    expect(prefs(both)).toEqual([D, D]);
    expect(both.sources).toEqual({ 'train-ai': robots.sources['train-ai'], search: [FIELD] });
    expect(both.extensions.map((e) => e.label)).toEqual(['ai-input', 'genai']);
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
