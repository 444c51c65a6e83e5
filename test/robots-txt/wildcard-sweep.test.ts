/**
 * Queries that would test many wildcard rules one by one switch to one sweep of the path
 * (Aho–Corasick over the rules' pieces). The switch must never change a verdict nor the
 * deciding rule: checked here against a slow reference written from RFC 9309 §2.2.2 and
 * against the rule-by-rule matcher, with the sweep forced (a wildcard budget of 0) and at
 * the real budget on both sides of the limit, and on a hostile file of 17,000 `/*…` rules.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePattern, parseRobotsTxt, type RobotsTxt } from '@polite-crawler/robots-txt';
import { CompiledRules } from '../../packages/robots-txt/src/compiled-rules.js';
import type { RuleTable } from '../../packages/robots-txt/src/rule-table.js';
import { WILDCARD_BUDGET, WildcardSweep } from '../../packages/robots-txt/src/wildcard-sweep.js';
import { wildcardSegments } from '../../packages/robots-txt/src/pattern-match.js';
import { referenceGlob } from './reference-glob.js';

interface Rule {
  readonly allow: boolean;
  readonly pattern: string;
}

/** A rule table as the parser lays it out, from normalised patterns (lines 1, 2, …). */
function ruleTable(rules: readonly Rule[]): RuleTable {
  const n = rules.length;
  const values: number[] = [];
  let at = 0;
  for (const { pattern } of rules) {
    values.push(at);
    at += pattern.length;
  }
  values.push(at);
  rules.forEach(({ allow }, r) => values.push((r + 1) * 2 + (allow ? 1 : 0)));
  return {
    text: rules.map((r) => r.pattern).join(''),
    table: Uint32Array.from(values),
    ruleStartAt: 0,
    ruleInfoAt: n + 1,
    normalized: true,
  };
}

function compiled(rules: readonly Rule[], wildcardBudget: number): CompiledRules {
  return new CompiledRules(ruleTable(rules), [[0, rules.length]], { wildcardBudget });
}

/** Whether the normalised `pattern` matches `path`, by RFC 9309 §2.2.2 read literally. */
function globMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  return referenceGlob(anchored ? pattern.slice(0, -1) : pattern, path, anchored);
}

/** The deciding rule: longest pattern, `allow` on a tie, then the first; -1 when none matches. */
function referenceDecide(rules: readonly Rule[], path: string): number {
  let best = -1;
  for (let r = 0; r < rules.length; r++) {
    const { allow, pattern } = rules[r]!;
    if (!globMatches(pattern, path)) continue;
    if (best < 0) {
      best = r;
      continue;
    }
    const { allow: bestAllow, pattern: bestPattern } = rules[best]!;
    if (
      pattern.length > bestPattern.length ||
      (pattern.length === bestPattern.length && allow && !bestAllow)
    )
      best = r;
  }
  return best;
}

// Pieces chosen to overlap (aa in aaa), to be suffixes of one another (a, ba, aba), to
// repeat, and to be percent-encoded (%41 is A once normalised; %2A stays a literal '*').
const token = fc.constantFrom(
  'a',
  'b',
  'aa',
  'ab',
  'ba',
  'aba',
  'aaa',
  '/',
  'A',
  '%41',
  '%2A',
  'x',
);
const patternArb = fc
  .tuple(
    fc.constantFrom('/', '/*', '*', '/a', '/a*', '/**'),
    fc.array(fc.oneof(token, fc.constantFrom('*', '**', '*')), { maxLength: 7 }),
    fc.constantFrom('', '', '$', '*', '*$'),
  )
  .map(([head, middle, end]) => normalizePattern(head + middle.join('') + end));
const ruleArb = fc.record({ allow: fc.boolean(), pattern: patternArb });
const pathArb = fc
  .array(fc.constantFrom('a', 'b', 'aa', 'ab', 'ba', 'aaa', '/', 'A', '%2A', 'x', 'y'), {
    maxLength: 24,
  })
  .map((tokens) => `/${tokens.join('')}`);

describe('the sweep decides as the rule-by-rule matcher and the reference do', () => {
  it.each([
    ['few rules', 1, 16],
    ['medium sets', 17, 90],
    ['large sets', 129, 180],
  ])('%s', (_name, minLength, maxLength) => {
    let swept = 0;
    fc.assert(
      fc.property(
        fc.array(ruleArb, { minLength, maxLength }),
        fc.array(pathArb, { minLength: 1, maxLength: 8 }),
        (rules, paths) => {
          const sweep = compiled(rules, 0);
          const oneByOne = compiled(rules, Infinity);
          // Several rounds: the sweep's per-query state must not leak into the next query.
          for (let round = 0; round < 5; round++) {
            for (const path of paths) {
              const expected = referenceDecide(rules, path);
              expect(oneByOne.decide(path), `${path} (one by one)`).toBe(expected);
              expect(sweep.decide(path), `${path} (sweep)`).toBe(expected);
              expect(sweep.allows(path)).toBe(expected < 0 || rules[expected]!.allow);
            }
          }
          expect(oneByOne.sweeps).toBe(0);
          swept += sweep.sweeps;
        },
      ),
      { numRuns: maxLength > 100 ? 60 : 400 },
    );
    expect(swept).toBeGreaterThan(0);
  });

  it.each([
    // [pattern, path, matches]
    ['/*aa*aa', '/aaa', false],
    ['/*aa*aa', '/aaaa', true],
    ['/*aa*aa$', '/aaaa', true],
    ['/*aa*aa$', '/aaaab', false],
    ['/*aba*ba', '/abab', false],
    ['/*aba*ba', '/ababa', true],
    ['/*aba*ba', '/abababa', true],
    ['/*a$', '/ba', true],
    ['/*a$', '/ab', false],
    ['/*$', '/anything', true],
    ['/**', '/', true],
    ['/a*', '/a', true],
    ['/a*', '/b', false],
    ['/a*b*$', '/ab', true],
    ['/ab*b$', '/ab', false],
    ['/*ab*b$', '/ab', false],
    ['/*ab*b$', '/abb', true],
    ['/ab*b$', '/abb', true],
    ['*b', '/b', true],
    ['*/b*a', '/a/b', false],
    ['*/b*a', '/b/a', true],
    ['*/b*a', '/xx/b/a', true],
    ['/*%2A*x', '/%2Ax', true],
    ['/*%2A*x', '/*x', false],
    ['/*ba*a*ba', '/babab', false],
    ['/*ba*a*ba', '/bababa', true],
    ['/*ba*a*ba', '/babaaba', true],
  ] as const)('%s against %s: %s', (pattern, path, matches) => {
    // Decoys that share the pattern's prefix: the index hands all of them to the test.
    const rules: Rule[] = [{ allow: false, pattern }];
    for (let i = 0; i < 20; i++) rules.push({ allow: true, pattern: `/*zz${i}q` });
    expect(globMatches(pattern, path)).toBe(matches);
    for (const budget of [0, Infinity]) {
      const matcher = compiled(rules, budget);
      for (let round = 0; round < 3; round++) expect(matcher.decide(path)).toBe(matches ? 0 : -1);
    }
  });

  it('pieces that are suffixes of one another, none awaited before an absent one', () => {
    // "/*b*a…a" for 1…60 a's waits for b first: the a-pieces are all suffixes of one
    // another, and all occur in the path.
    const rules: Rule[] = [];
    for (let k = 1; k <= 60; k++)
      rules.push({ allow: k % 2 === 0, pattern: `/*b*${'a'.repeat(k)}` });
    for (let k = 1; k <= 60; k++) rules.push({ allow: false, pattern: `/*${'a'.repeat(k)}*c` });
    const matcher = compiled(rules, 0);
    for (const path of [
      `/${'a'.repeat(300)}`,
      `/${'a'.repeat(30)}b${'a'.repeat(40)}`,
      '/ac',
      '/b',
    ]) {
      for (let round = 0; round < 3; round++)
        expect(matcher.decide(path), path).toBe(referenceDecide(rules, path));
    }
    expect(matcher.sweeps).toBeGreaterThan(0);
  });
});

/** Deterministic pseudo-random a/b text, as /tmp/m/attack.mjs made it. */
function letters(seed: { value: number }, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) {
    seed.value = (Math.imul(seed.value, 1103515245) + 12345) >>> 0;
    s += (seed.value >>> 8) / 16777216 < 0.5 ? 'a' : 'b';
  }
  return s;
}

/** `count` distinct 16-letter pieces that do not occur in `path`. */
function absentPieces(seed: { value: number }, path: string, count: number): string[] {
  const pieces = new Set<string>();
  while (pieces.size < count) {
    const piece = letters(seed, 16);
    if (!path.includes(piece)) pieces.add(piece);
  }
  return [...pieces];
}

function compiledOf(robots: RobotsTxt, agent: string): CompiledRules {
  return (robots.forAgent(agent) as unknown as { compiled: CompiledRules }).compiled;
}

describe('a hostile file: 17,000 rules like "Disallow: /*abbabaabbbabaaab" (493 KB)', () => {
  const seed = { value: 1 };
  const path = letters(seed, 2000);
  const pieces = absentPieces(seed, path, 17_000);
  const body = `User-agent: *\n${pieces.map((p) => `Disallow: /*${p}`).join('\n')}\n`;

  it('is within the parser limit and allows a path that holds none of the pieces', () => {
    expect(body.length).toBeGreaterThan(490_000);
    const robots = parseRobotsTxt(body);
    expect(robots.truncated).toBe(false);
    for (let q = 0; q < 6; q++) {
      expect(robots.isAllowed(`https://e.com/${path}${q}`, 'Bot')).toBe(true);
      expect(robots.explain(`https://e.com/${path}`, 'Bot').reason).toBe('no-matching-rule');
    }
    // Past the wildcard budget, the queries swept the path.
    expect(compiledOf(robots, 'Bot').sweeps).toBeGreaterThan(0);
  });

  // 'x' around an inserted piece: no other piece can span the joins.
  it('disallows a path that holds one piece, naming that rule, first query and later ones', () => {
    const robots = parseRobotsTxt(body);
    for (const k of [16_999, 0, 8_500, 12_345]) {
      const url = `https://e.com/${path.slice(0, 700)}x${pieces[k]!}x${path.slice(700)}`;
      const verdict = robots.explain(url, 'Bot');
      expect(verdict.allowed).toBe(false);
      expect(verdict.rule?.line).toBe(k + 2);
      expect(parseRobotsTxt(body).isAllowed(url, 'Bot')).toBe(false);
    }
    // The earliest of equally long rules decides when several pieces occur.
    const both = `https://e.com/${pieces[9]!}x${path}x${pieces[3]!}`;
    expect(robots.explain(both, 'Bot').rule?.line).toBe(3 + 2);
  });

  it('with an allow rule and an anchored rule of the same length in the mix', () => {
    const extra = `Allow: /*${pieces[100]!}\nDisallow: /*${pieces[200]!.slice(1)}$\n`;
    const robots = parseRobotsTxt(body + extra);
    // Allow /*p100 ties with Disallow /*p100 (same length): allow wins.
    expect(robots.isAllowed(`/${path}x${pieces[100]!}`, 'Bot')).toBe(true);
    // Disallow /*p200 and the anchored rule are both 18 octets long: the earlier line wins.
    expect(robots.explain(`/${path}x${pieces[200]!}`, 'Bot').rule?.line).toBe(200 + 2);
    expect(robots.explain(`/${path}x${pieces[200]!.slice(1)}`, 'Bot').rule?.line).toBe(17_000 + 3);
    expect(robots.isAllowed(`/${path}x${pieces[200]!.slice(1)}x`, 'Bot')).toBe(true);
  });
});

describe('WILDCARD_BUDGET: the same verdicts at the limit and just past it', () => {
  // 127 rules that never match and, last and shortest, one that does: every query tests
  // all 128 wildcard rules, each charged the path's length. 128 × 1024 = 2^17.
  const rules = 127;
  const perRule = WILDCARD_BUDGET / (rules + 1);
  const fileFor = (length: number): { body: string; path: string } => {
    const seed = { value: 7 };
    const path = `/${letters(seed, length - 1)}`;
    const lines = absentPieces(seed, path, rules).map((p) => `Disallow: /*${p}`);
    return { body: `User-agent: *\n${lines.join('\n')}\nAllow: /*ab\n`, path };
  };

  it('is a whole number of such queries', () => {
    expect(Number.isInteger(perRule)).toBe(true);
  });

  it.each([
    ['at the limit: rule by rule', perRule, false],
    ['one character past it: every query sweeps', perRule + 1, true],
  ])('%s', (_name, length, sweeps) => {
    const { body, path } = fileFor(length);
    expect(path).toHaveLength(length);
    const robots = parseRobotsTxt(body);
    const matcher = compiledOf(robots, 'A');
    const first = robots.explain(path, 'A');
    expect(first).toMatchObject({ allowed: true, rule: { line: 129, pattern: '/*ab' } });
    expect(matcher.sweeps).toBe(sweeps ? 1 : 0);
    for (let q = 1; q < 6; q++) expect(robots.explain(path, 'A')).toEqual(first);
    expect(matcher.sweeps).toBe(sweeps ? 6 : 0);
  });
});

describe('WildcardSweep stamps', () => {
  it('give the same answers across their restart', () => {
    const segments = ['/*ab', '/*ba$', '/*a*b*a'].map((p) => wildcardSegments(p.replace('$', '')));
    const sweep = new WildcardSweep(Uint32Array.of(0, 1, 2), segments, Uint8Array.of(0, 1, 0), 3, {
      stamp: 0xfffffffe - 2,
    });
    const all = Uint32Array.of(0, 1, 2);
    for (const [path, expected] of [
      ['/aba', [true, true, true]],
      ['/ab', [true, false, false]],
      ['/ba', [false, true, false]],
      ['/abba', [true, true, true]],
      ['/b', [false, false, false]],
      ['/aab', [true, false, false]],
    ] as const) {
      sweep.run(path, all, 3);
      expect(
        [0, 1, 2].map((p) => sweep.matches(p)),
        path,
      ).toEqual(expected);
    }
  });
});
