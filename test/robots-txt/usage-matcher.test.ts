/**
 * The matcher of usage rules: the longest matching patterns, found one by one or, past the
 * wildcard budget, by one sweep of the path. Both must give the same answer as a slow
 * reference written from RFC 9309 §2.2.2; and a file of 17,000 `Content-Usage: /*…` rules
 * is answered (the sweep) rather than scanned rule by rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '@polite-crawler/robots-txt';
import { compilePattern } from '../../packages/robots-txt/src/match-one-pattern.js';
import { UsageMatcher } from '../../packages/robots-txt/src/usage-matcher.js';
import { referenceGlob } from './reference-glob.js';

function reference(patterns: readonly string[], path: string): number[] {
  const matching = patterns
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => {
      const anchored = p.endsWith('$');
      return referenceGlob(anchored ? p.slice(0, -1) : p, path, anchored);
    });
  const longest = Math.max(-1, ...matching.map(({ p }) => p.length));
  return matching.filter(({ p }) => p.length === longest).map(({ i }) => i);
}

const pattern = fc
  .array(fc.constantFrom('/', 'a', 'b', '*', 'ab'), { maxLength: 6 })
  .chain((parts) => fc.boolean().map((anchored) => '/' + parts.join('') + (anchored ? '$' : '')));
const path = fc
  .array(fc.constantFrom('/', 'a', 'b'), { maxLength: 12 })
  .map((p) => '/' + p.join(''));

describe('UsageMatcher', () => {
  it('agrees with the reference, one by one and by the sweep', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(pattern, fc.constant('')), { maxLength: 12 }),
        path,
        (raw, p) => {
          const sorted = [...raw].sort((x, y) => y.length - x.length);
          const compiled = sorted.map(compilePattern);
          const lengths = sorted.map((s) => s.length);
          const want = reference(sorted, p);
          expect(
            new UsageMatcher(compiled, lengths, { wildcardBudget: Infinity }).match(p),
          ).toEqual(want);
          expect(new UsageMatcher(compiled, lengths, { wildcardBudget: 0 }).match(p)).toEqual(want);
          expect(
            new UsageMatcher(compiled, lengths, { wildcardBudget: p.length }).match(p),
          ).toEqual(want);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a hostile file: 17,000 `/*…` usage rules, a 2,000-character path', () => {
    let seed = 7;
    const letter = (): string => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) / 16777216 < 0.5 ? 'a' : 'b';
    };
    let p = '';
    for (let i = 0; i < 2000; i++) p += letter();
    const pieces = new Set<string>();
    while (pieces.size < 17_000) {
      let piece = '';
      for (let i = 0; i < 16; i++) piece += letter();
      if (!p.includes(piece)) pieces.add(piece);
    }
    const lines = [...pieces].map((piece) => `Content-Usage: /*${piece} train-ai=n`);
    const robots = parseRobotsTxt(`User-agent: *\nContent-Usage: search=n\n${lines.join('\n')}\n`);
    const v = robots.explainContentUsage(`/${p}`, 'Bot');
    expect(v.rules.map((r) => r.line)).toEqual([2]);
    expect(v.preferences.search).toBe('disallowed');
    const hit = [...pieces][123]!;
    expect(robots.contentUsage(`/${p}${hit}`, 'Bot')['train-ai']).toBe('disallowed');
  });
});
