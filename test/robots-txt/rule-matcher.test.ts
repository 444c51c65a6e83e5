/**
 * The one rule matcher, through the public API: every verdict and deciding rule agrees with
 * a slow reference written from RFC 9309 §2.2.2; and the match budget
 * (`PARSE_DEFAULTS.matchBudget`) fails closed, for Allow/Disallow and for usage rules, at the
 * limit and just past it. (How long a hostile query takes is measured in
 * test/bench/robots-txt-worst-case.bench.ts, not asserted here.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePattern, PARSE_DEFAULTS, parseRobotsTxt } from '@polite-crawler/robots-txt';
import { referenceGlob } from './reference-glob.js';

interface Rule {
  readonly allow: boolean;
  readonly pattern: string;
}

function globMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  return referenceGlob(anchored ? pattern.slice(0, -1) : pattern, path, anchored);
}

/** Index of the deciding rule: longest pattern, `allow` on a tie, then the first; or -1. */
function referenceDecide(rules: readonly Rule[], path: string): number {
  let best = -1;
  rules.forEach(({ allow, pattern }, r) => {
    if (!globMatches(pattern, path)) return;
    const b = rules[best];
    if (
      b === undefined ||
      pattern.length > b.pattern.length ||
      (pattern.length === b.pattern.length && allow && !b.allow)
    )
      best = r;
  });
  return best;
}

const bodyOf = (rules: readonly Rule[]): string =>
  `User-agent: *\n${rules.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.pattern}`).join('\n')}\n`;

// Pieces that overlap (aa in aaa), are suffixes of one another (a, ba, aba), repeat, and are
// percent-encoded (%41 is A once normalised; %2A stays a literal '*').
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
    fc.array(fc.oneof(token, fc.constantFrom('*', '**')), { maxLength: 7 }),
    fc.constantFrom('', '', '$', '*', '*$'),
  )
  .map(([head, middle, end]) => normalizePattern(head + middle.join('') + end));
const ruleArb = fc.record({ allow: fc.boolean(), pattern: patternArb });
const pathArb = fc
  .array(fc.constantFrom('a', 'b', 'aa', 'ab', 'ba', 'aaa', '/', 'A', '%2A', 'x', 'y'), {
    maxLength: 24,
  })
  .map((tokens) => `/${tokens.join('')}`);

describe('the matcher decides as the reference does', () => {
  it.each([
    ['few rules', 1, 16],
    ['large sets', 129, 180],
  ])('%s', (_name, minLength, maxLength) => {
    fc.assert(
      fc.property(
        fc.array(ruleArb, { minLength, maxLength }),
        fc.array(pathArb, { minLength: 1, maxLength: 8 }),
        (rules, paths) => {
          const robots = parseRobotsTxt(bodyOf(rules));
          for (let round = 0; round < 3; round++) {
            for (const path of paths) {
              const expected = referenceDecide(rules, path);
              const url = `https://e.com${path}`;
              const verdict = robots.explain(url, 'A');
              expect(verdict.rule?.line, path).toBe(expected < 0 ? undefined : expected + 2);
              expect(robots.isAllowed(url, 'A')).toBe(expected < 0 || rules[expected]!.allow);
            }
          }
        },
      ),
      { numRuns: maxLength > 100 ? 60 : 400 },
    );
  });

  it.each([
    ['/*aa*aa', '/aaa', false],
    ['/*aa*aa', '/aaaa', true],
    ['/*aa*aa$', '/aaaab', false],
    ['/*aba*ba', '/abab', false],
    ['/*aba*ba', '/ababa', true],
    ['/*a$', '/ba', true],
    ['/*a$', '/ab', false],
    ['/*$', '/anything', true],
    ['/**', '/', true],
    ['/a*b*$', '/ab', true],
    ['/ab*b$', '/ab', false],
    ['/ab*b$', '/abb', true],
    ['*/b*a', '/a/b', false],
    ['*/b*a', '/xx/b/a', true],
    ['/*%2A*x', '/%2Ax', true],
    ['/*ba*a*ba', '/babab', false],
    ['/*ba*a*ba', '/babaaba', true],
  ] as const)('%s against %s: %s', (pattern, path, matches) => {
    expect(globMatches(pattern, path)).toBe(matches);
    // Decoys that share the pattern's prefix.
    const decoys = Array.from({ length: 20 }, (_, i) => `Allow: /*zz${i}q`).join('\n');
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: ${pattern}\n${decoys}\n`);
    expect(robots.explain(path, 'A').rule?.line).toBe(matches ? 2 : undefined);
  });
});

/** Deterministic pseudo-random a/b text. */
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

describe('the match budget fails closed, at the limit and just past it', () => {
  // 128 `/*…` rules that never match: each query tests them all, each charged the path's
  // length. 128 × 1024 = 2^17, the budget: a 1,024-character path is decided exactly, a
  // 1,025-character one leaves the last rule undecided.
  const rules = 128;
  const perRule = PARSE_DEFAULTS.matchBudget / rules;
  const fileFor = (length: number, key: string, suffix = ''): { body: string; path: string } => {
    const seed = { value: 7 };
    const path = `/${letters(seed, length - 1)}`;
    const lines = absentPieces(seed, path, rules).map((p) => `${key}: /*${p}${suffix}`);
    return { body: `User-agent: *\n${lines.join('\n')}\n`, path };
  };

  it('is a whole number of such queries', () => {
    expect(perRule).toBe(1024);
  });

  it('Disallow: at the limit every rule is tested; past it the untested one counts as matching', () => {
    const at = fileFor(perRule, 'Disallow');
    const robots = parseRobotsTxt(at.body);
    for (let q = 0; q < 3; q++)
      expect(robots.explain(at.path, 'A')).toMatchObject({
        allowed: true,
        reason: 'no-matching-rule',
      });
    const past = fileFor(perRule + 1, 'Disallow');
    const failed = parseRobotsTxt(past.body);
    for (let q = 0; q < 3; q++) {
      expect(failed.explain(past.path, 'A')).toMatchObject({
        allowed: false,
        reason: 'match-budget',
        rule: { kind: 'disallow', line: rules + 1 },
      });
      expect(failed.isAllowed(past.path, 'A')).toBe(false);
    }
  });

  it('Allow: an untested allow counts as not matching (never a wrong "allowed")', () => {
    const past = fileFor(perRule + 1, 'Allow');
    const robots = parseRobotsTxt(`${past.body}Disallow: /\n`);
    // The untested allow might have matched: the disallow decides, and says why.
    expect(robots.explain(past.path, 'A')).toMatchObject({
      allowed: false,
      reason: 'match-budget',
      rule: { kind: 'disallow', pattern: '/' },
    });
    // A short path is decided exactly (the budget covers every rule): a plain `rule` verdict.
    expect(robots.explain('/x', 'A')).toMatchObject({ allowed: false, reason: 'rule' });
  });

  it('a rule the budget reaches is still decided exactly, whatever follows', () => {
    const past = fileFor(perRule + 1, 'Disallow');
    // A longer rule that matches decides before the budget runs out.
    const robots = parseRobotsTxt(`${past.body}Allow: /*${past.path.slice(1, 30)}\n`);
    expect(robots.explain(past.path, 'A')).toMatchObject({ allowed: true, reason: 'rule' });
  });

  it('Content-Usage: at the limit exact; past it every category is disallowed, naming the rule', () => {
    const at = fileFor(perRule, 'Content-Usage', ' train-ai=y');
    const exact = parseRobotsTxt(at.body).explainContentUsage(at.path, 'A');
    expect(exact).toMatchObject({ reason: 'no-matching-rule', rules: [] });
    expect(exact.preferences['train-ai']).toBe('unknown');
    const past = fileFor(perRule + 1, 'Content-Usage', ' train-ai=y');
    const failed = parseRobotsTxt(past.body).explainContentUsage(past.path, 'A');
    expect(failed.preferences).toMatchObject({ 'train-ai': 'disallowed', search: 'disallowed' });
    expect(failed.preferences.sources['train-ai']).toEqual([
      expect.objectContaining({ kind: 'content-usage-rule', line: rules + 1 }),
    ]);
    expect(failed.rules.map((r) => r.line)).toEqual([rules + 1]);
  });
});

describe('a file written to be slow: 17,000 rules like "Disallow: /*abbabaabbbabaaab"', () => {
  const seed = { value: 1 };
  const path = `/${letters(seed, 2000)}`;
  const pieces = absentPieces(seed, path, 17_000);
  const body = `User-agent: *\n${pieces.map((p) => `Disallow: /*${p}`).join('\n')}\n`;

  it('fails closed on a path the budget cannot decide', () => {
    const robots = parseRobotsTxt(body);
    expect(robots.truncated).toBe(false);
    expect(robots.explain(path, 'Bot')).toMatchObject({ allowed: false, reason: 'match-budget' });
  });

  it('decides a short path exactly: the budget covers every rule', () => {
    // 17,000 rules × 7 characters < 2^17.
    const robots = parseRobotsTxt(body);
    expect(robots.explain('/abab', 'Bot')).toMatchObject({
      allowed: true,
      reason: 'no-matching-rule',
    });
    const hit = `/x${pieces[3]!}`;
    expect(hit.length * 17_000).toBeGreaterThan(PARSE_DEFAULTS.matchBudget);
    expect(robots.explain(hit, 'Bot')).toMatchObject({ allowed: false });
  });
});
