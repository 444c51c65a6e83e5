/**
 * One compiled matcher answers every query, the first included. A fresh object asked once
 * and one long-lived object asked many times (its rules compiled once, the last agent
 * remembered) must give the same verdict and the same deciding rule for every path, for
 * small and large rule sets alike.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, type Verdict } from '@polite-crawler/robots-txt';

const piece = fc.constantFrom('/', 'a', 'b', 'ab', '*', '$', '%41', '%2A', '?', '=', 'x', '"', 'é');
const pattern = fc
  .string({ unit: piece, maxLength: 8 })
  .map((s) => (s.startsWith('*') ? s : `/${s}`));
/** Mostly well-formed rules, plus the odd one that can never match. */
const rule = fc.tuple(
  fc.constantFrom('Allow', 'Disallow', 'disallow', 'ALLOW'),
  fc.oneof(
    { weight: 9, arbitrary: pattern },
    { weight: 1, arbitrary: fc.constantFrom('', 'ab', '%2Fa', '$') },
  ),
);
const path = fc.string({
  unit: fc.constantFrom('/', 'a', 'b', 'A', '%41', '?', '=', '*', '$', 'ab', 'x', 'é'),
  maxLength: 10,
});

function body(rules: readonly (readonly [string, string])[], split: boolean): string {
  const lines = rules.map(([key, value]) => `${key}: ${value}`);
  if (!split) return `User-agent: *\n${lines.join('\n')}\n`;
  // The same rules in two groups for the same agent (merged), with another group between.
  const half = Math.floor(lines.length / 2);
  return [
    'User-agent: ExampleBot',
    ...lines.slice(0, half),
    'User-agent: other',
    'Disallow: /',
    'User-agent: ExampleBot',
    ...lines.slice(half),
    '',
  ].join('\n');
}

const verdictOf = (v: Verdict): unknown => ({ allowed: v.allowed, reason: v.reason, rule: v.rule });

describe('first and later answers agree', () => {
  it.each([
    ['small sets', 0, 12],
    ['medium sets', 17, 60],
    ['large sets', 129, 220],
  ])('%s', (_name, minLength, maxLength) => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength, maxLength }),
        fc.boolean(),
        fc.array(path, { minLength: 1, maxLength: 10 }),
        (rules, split, paths) => {
          const text = body(rules, split);
          const longLived = parseRobotsTxt(text);
          for (const p of paths) {
            const url = `https://e.com/${p}`;
            const fresh = parseRobotsTxt(text).explain(url, 'ExampleBot');
            // Several queries of one object: its compiled rules answer again and again.
            for (let i = 0; i < 6; i++) {
              expect(verdictOf(longLived.explain(url, 'ExampleBot'))).toEqual(verdictOf(fresh));
              expect(longLived.isAllowed(url, 'ExampleBot')).toBe(fresh.allowed);
            }
            expect(parseRobotsTxt(text).isAllowed(url, 'ExampleBot')).toBe(fresh.allowed);
          }
        },
      ),
      { numRuns: maxLength > 100 ? 60 : 300 },
    );
  });

  it('the first query picks the longest match, allow on a tie, then the earlier line', () => {
    const robots = (): ReturnType<typeof parseRobotsTxt> =>
      parseRobotsTxt(
        'User-agent: *\nDisallow: /a\nDisallow: /ab\nAllow: /ab\nDisallow: /a*\nAllow: /*b$\n',
      );
    // '/ab': '/ab' (3) twice, allow wins; '/a*' and '/*b$' are 3 and 4 octets long.
    expect(robots().explain('/ab', 'A').rule).toMatchObject({ kind: 'allow', pattern: '/*b$' });
    expect(robots().explain('/ac', 'A').rule).toMatchObject({ kind: 'disallow', line: 5 });
    expect(robots().explain('/abc', 'A').rule).toMatchObject({ kind: 'allow', line: 4 });
    expect(robots().explain('/x', 'A').reason).toBe('no-matching-rule');
  });

  it('patterns that need normalising are normalised on the first query', () => {
    const text =
      'User-agent: *\nDisallow: /%7Ea\nDisallow: /caf%c3%a9\nDisallow: /q"x\nAllow: /$x\n';
    for (const [url, allowed] of [
      ['https://e.com/~a', false],
      ['https://e.com/caf%C3%A9', false],
      ['https://e.com/café', false],
      ['https://e.com/q%22x', false],
      ['https://e.com/$x', true],
      ['https://e.com/b', true],
    ] as const) {
      expect(parseRobotsTxt(text).isAllowed(url, 'A'), url).toBe(allowed);
    }
  });
});

describe('the last-agent fast path', () => {
  it('keeps string and object agents apart', () => {
    const robots = parseRobotsTxt(
      'User-agent: FooBot\nDisallow: /foo\n\nUser-agent-purpose: search\nDisallow: /search\n\nUser-agent: *\nDisallow: /all\n',
    );
    expect(robots.isAllowed('/foo', 'FooBot')).toBe(false);
    expect(robots.isAllowed('/search', { productToken: 'BarBot', purpose: 'search' })).toBe(false);
    expect(robots.isAllowed('/foo', { productToken: 'BarBot', purpose: 'search' })).toBe(true);
    expect(robots.isAllowed('/search', 'FooBot')).toBe(true);
    expect(robots.isAllowed('/all', 'BarBot')).toBe(false);
    expect(robots.isAllowed('/foo', 'BarBot')).toBe(true);
    expect(robots.isAllowed('/foo', 'FooBot')).toBe(false);
  });
});

describe('key spellings', () => {
  it('reads the common keys in any case, with or without spaces before the colon', () => {
    const variants = ['DISALLOW:', 'dIsAlLoW:', 'Disallow :', 'disallow\t:'];
    for (const key of variants) {
      const robots = parseRobotsTxt(`USER-AGENT: *\n${key} /x\n`);
      expect(robots.isAllowed('/x', 'A'), key).toBe(false);
      expect(robots.diagnostics, key).toEqual([]);
    }
    const purpose = parseRobotsTxt('User-Agent-Purpose: search\nALLOW: /a\nDisallow: /\n');
    expect(purpose.isAllowed('/a', { productToken: 'A', purpose: 'search' })).toBe(true);
    expect(purpose.isAllowed('/b', { productToken: 'A', purpose: 'search' })).toBe(false);
  });

  it('does not take a longer or misspelled key for a common one', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallowed: /x\nDisallow-x: /y\nAllowx: /z\n');
    expect(robots.isAllowed('/x', 'A')).toBe(true);
    expect(robots.isAllowed('/y', 'A')).toBe(true);
    expect(robots.diagnostics.map((d) => d.code)).toEqual([
      'unknown-key',
      'unknown-key',
      'unknown-key',
    ]);
  });
});
