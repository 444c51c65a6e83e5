/**
 * Property tests (fast-check) of usage preferences: parsing never throws; combination is
 * commutative, associative and most-restrictive, per category; and robots-txt's own RFC 9651
 * Dictionary parser agrees with structured-headers (an independent implementation) on whether
 * a value parses and on each label's canonical value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDictionary, serializeBareItem, serializeInnerList } from 'structured-headers';
import type { Item, Parameters } from 'structured-headers';
import * as txt from '@polite-crawler/robots-txt';

const PREFERENCES = ['allowed', 'disallowed', 'unknown'] as const;
const RANK = { disallowed: 2, allowed: 1, unknown: 0 } as const;

/** A statement with sources made from an id, so that where each result came from is checkable. */
const statement = fc
  .record({
    train: fc.constantFrom(...PREFERENCES),
    use: fc.constantFrom(...PREFERENCES),
    search: fc.constantFrom(...PREFERENCES),
    id: fc.integer({ min: 1, max: 1000 }),
  })
  .map(({ train, use, search, id }): txt.UsagePreferences => {
    const source = { kind: 'content-usage-rule' as const, line: id, pattern: '', text: '' };
    const of = (p: txt.UsagePreference) => (p === 'unknown' ? [] : [source]);
    return {
      'train-ai': train,
      'ai-use': use,
      search,
      sources: { 'train-ai': of(train), 'ai-use': of(use), search: of(search) },
      extensions: [{ label: `x${id}`, value: 'y', source }],
    };
  });

const lines = (sources: readonly txt.UsageSource[]): number[] =>
  sources.map((s) => ('line' in s ? s.line : 0)).sort((a, b) => a - b);

describe('combineUsage', () => {
  it('is most-restrictive: the result is the highest of disallowed > allowed > unknown', () => {
    fc.assert(
      fc.property(fc.array(statement, { maxLength: 6 }), (statements) => {
        const combined = txt.combineUsage(...statements);
        for (const c of txt.USAGE_CATEGORIES) {
          const best = statements.reduce((m, s) => Math.max(m, RANK[s[c]]), 0);
          expect(RANK[combined[c]]).toBe(best);
          const want = statements.filter((s) => s[c] === combined[c] && s[c] !== 'unknown');
          expect(lines(combined.sources[c])).toEqual(lines(want.flatMap((s) => s.sources[c])));
        }
      }),
    );
  });

  it('is commutative (categories and sources; labels keep argument order)', () => {
    fc.assert(
      fc.property(fc.array(statement, { maxLength: 6 }), fc.nat(), (statements, seed) => {
        const shuffled = [...statements].sort(
          (a, b) =>
            (((lines(a.sources['train-ai'])[0] ?? 0) * 31 + seed) % 7) -
            (((lines(b.sources['train-ai'])[0] ?? 0) * 31 + seed) % 7),
        );
        const x = txt.combineUsage(...statements);
        const y = txt.combineUsage(...shuffled);
        for (const c of txt.USAGE_CATEGORIES) {
          expect(x[c]).toBe(y[c]);
          expect(lines(x.sources[c])).toEqual(lines(y.sources[c]));
        }
        expect(x.extensions.length).toBe(y.extensions.length);
      }),
    );
  });

  it('is associative, and no statement is its identity', () => {
    fc.assert(
      fc.property(statement, statement, statement, (a, b, c) => {
        const left = txt.combineUsage(txt.combineUsage(a, b), c);
        const right = txt.combineUsage(a, txt.combineUsage(b, c));
        expect(left).toEqual(right);
        expect(txt.combineUsage(a, txt.combineUsage())).toEqual(txt.combineUsage(a));
      }),
    );
  });
});

/** Values built from Dictionary pieces, valid and not, plus arbitrary characters. */
const KEYS = [
  'train-ai',
  'ai-use',
  'search',
  'genai',
  'Train-AI',
  'a',
  '*x',
  'ai-input',
  'x.y_z-1',
  '',
];
const VALUES = [
  '=y',
  '=n',
  '=Y',
  '=no',
  '="n"',
  '="a\\"b"',
  '="a\\x"',
  '=?1',
  '=?0',
  '=?2',
  '',
  '=1',
  '=-0',
  '=1.5',
  '=1.50',
  '=007',
  '=-0.0',
  '=1.0',
  '=@1',
  '=@-007',
  '=(a  b)',
  '=( a;x=1.10;y=?1 b;x;x=2 )',
  '=:aGk:',
  '=:aGl=:',
  '=%"%61%25"',
  '=1.',
  '=1.2345',
  '=1234567890123456',
  '=123456789012.1',
  '=1234567890123.1',
  '=(y n)',
  '=(y;a=1 n);b',
  '=()',
  '=( y )',
  '=(y,n)',
  '=:aGVsbG8=:',
  '=:aGVsbG8:',
  '=:a:',
  '=:ab=c:',
  '=%"x"',
  '=%"%c3%a9"',
  '=%"%C3%A9"',
  '=%"%ff"',
  '=y;p',
  '=n;p="x"',
  ';q=1',
  '=y;P=1',
  '=tok:en/x',
  '=é',
];
const SEPARATORS = [', ', ',', ' , ', ',\t', ',,', ' ', ''];
const piece = fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES));
const dictionaryLike = fc
  .tuple(
    fc.array(fc.tuple(piece, fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 5 }),
    fc.constantFrom('', ' ', '  '),
    fc.constantFrom('', ' ', ','),
  )
  .map(([members, lead, trail]) => {
    let s = lead;
    members.forEach(([[k, v], sep], i) => {
      s += k + v + (i < members.length - 1 ? sep : '');
    });
    return s + trail;
  });
const noisy = fc.oneof(
  dictionaryLike,
  fc.string({ unit: fc.constantFrom(...'train-ai=yn, search;"?()*:%@1.\\é\tY'.split('')) }),
);

describe('parsing never throws on content', () => {
  it('parseContentUsage, any string or lines', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), noisy), fc.array(noisy, { maxLength: 3 }), (a, b) => {
        txt.parseContentUsage(a);
        txt.parseContentUsage(b);
      }),
      { numRuns: 500 },
    );
  });
  it('robots.txt contentUsage, any rule value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), noisy), (value) => {
        const robots = txt.parseRobotsTxt(
          `User-agent: *\nContent-Usage: ${value}\nContent-Signal: ${value}\n`,
        );
        robots.contentUsage('/', 'Bot');
        void robots.diagnostics;
      }),
      { numRuns: 500 },
    );
  });
});

/**
 * structured-headers' reading of a value: `undefined` when it fails, else each member's label
 * and its value re-serialised (parameters of the member dropped, as UsageLabel.value does).
 */
function reference(value: string): [string, string][] | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(value)) return undefined; // RFC 9651 §4.2: ASCII only
  try {
    return [...parseDictionary(value)].map(([key, [bare]]) => [
      key,
      Array.isArray(bare)
        ? serializeInnerList([bare as Item[], new Map() as Parameters])
        : serializeBareItem(bare),
    ]);
  } catch {
    return undefined;
  }
}

describe('robots-txt’s parser and structured-headers agree', () => {
  // Left out, both pinned in content-usage-field.test.ts: a Date (structured-headers 2.1.0
  // fails one that is not the last thing in the value; RFC 9651 §4.2.9 parses `@1` and goes
  // on), and a Decimal whose fraction is zero (a JavaScript number cannot tell the Decimal
  // `1.0` from the Integer `1`, so structured-headers serialises it as `1`; the RFC as `1.0`).
  const comparable = (v: string): boolean => !/@|\.0+(?![0-9])/.test(v);
  // A label no statement uses: present in `extensions` exactly when the value parsed.
  const probe = (v: string): string => `${v}${v.trim() === '' ? '' : ', '}zz-probe=1`;

  it('whether a value parses, and each label’s canonical value (RFC 9651 §4.1)', () => {
    fc.assert(
      fc.property(noisy.filter(comparable), (value) => {
        const ours = txt.parseContentUsage(probe(value));
        const theirs = reference(probe(value));
        const parsed = ours.extensions.some((e) => e.label === 'zz-probe');
        expect(parsed).toBe(theirs !== undefined);
        if (theirs === undefined) {
          // vocab §6.5.1: a parse failure is all unknown.
          for (const c of txt.USAGE_CATEGORIES) expect(ours[c]).toBe('unknown');
          return;
        }
        const categories = new Set<string>(txt.USAGE_CATEGORIES);
        expect(ours.extensions.map((e) => [e.label, e.value])).toEqual(
          theirs.filter(([key]) => !categories.has(key)),
        );
        for (const c of txt.USAGE_CATEGORIES) {
          const token = theirs.find(([key]) => key === c)?.[1];
          const want = token === 'y' ? 'allowed' : token === 'n' ? 'disallowed' : 'unknown';
          expect(ours[c]).toBe(want);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('a robots.txt rule reads a statement as the field does', () => {
    // Outside: '#' (robots.txt ends the value there), a leading '/' (a path), and whitespace
    // other than SP at either end (the robots.txt line is trimmed).
    const asRule = (v: string): boolean =>
      !/[#\r\n\v\f]/.test(v) && !v.startsWith('/') && !/^\s*\t|\t\s*$/.test(v);
    fc.assert(
      fc.property(noisy.filter(asRule), (value) => {
        const field = txt.parseContentUsage(value);
        const rule = txt
          .parseRobotsTxt(`User-agent: *\nContent-Usage: ${value}\n`)
          .contentUsage('/', 'Bot');
        for (const c of txt.USAGE_CATEGORIES) expect(rule[c]).toBe(field[c]);
        expect(rule.extensions.map((e) => [e.label, e.value])).toEqual(
          field.extensions.map((e) => [e.label, e.value]),
        );
      }),
      { numRuns: 1000 },
    );
  });
});
