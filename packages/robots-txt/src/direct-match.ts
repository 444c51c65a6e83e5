import { normalizePattern } from './normalize-pattern.js';
import { tableAt } from './number-table.js';
import { wildcardMatch, wildcardSegments } from './pattern-match.js';
import type { RuleRanges, RuleTable } from './rule-table.js';

/**
 * 1 for the characters that normalisation leaves as they are and that are neither `*` nor
 * `$` nor `%`: such a character in a pattern is itself in the normalised pattern, at the
 * same place when everything before it is literal too.
 */
const LITERAL = ((): Uint8Array => {
  const t = new Uint8Array(128);
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?[]@!&'()+,;=";
  for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)] = 1;
  return t;
})();

/** What {@link directMatch} returns when its wildcard budget ran out before a verdict. */
export const OVER_BUDGET = -2;

/**
 * Decides `path` against the rules of `ranges` by reading the file's text as it is: no
 * sorting, no copies but of the few patterns that pass a first-character check. This is
 * how an agent's first query is answered, so that a crawler that asks once per origin
 * never pays for compiling. Returns the file index of the deciding rule (the longest
 * normalised pattern that matches; `allow` on a tie; then the first in file order, as
 * {@link CompiledRules} orders them), or -1 when none matches.
 *
 * Each wildcard rule tested is charged the path's length against `budget` (see
 * `WILDCARD_BUDGET`); when it runs out, the answer is {@link OVER_BUDGET} and the caller
 * compiles the rules, whose matcher bounds the work of such files.
 */
export function directMatch(
  rules: RuleTable,
  ranges: RuleRanges,
  path: string,
  budget: number,
): number {
  const { text, table, ruleStartAt, ruleInfoAt, normalized } = rules;
  const second = path.charCodeAt(1);
  let best = -1;
  let bestLength = -1;
  let bestAllow = false;
  for (const [from, to] of ranges) {
    for (let r = from; r < to; r++) {
      const start = tableAt(table, ruleStartAt + r);
      const end = tableAt(table, ruleStartAt + r + 1);
      const first = text.charCodeAt(start);
      if (first === 47) {
        // '/x…' with a literal x cannot match a path whose second character is not x.
        const c = end - start > 1 ? text.charCodeAt(start + 1) : 0;
        if (c < 128 && LITERAL[c] === 1 && c !== second) continue;
      } else if (first !== 42) {
        continue; // starts with neither '/' nor '*': matches no path
      }
      const allow = (tableAt(table, ruleInfoAt + r) & 1) === 1;
      const written = text.slice(start, end);
      const pattern = normalized ? written : normalizePattern(written);
      const length = pattern.length;
      if (length < bestLength || (length === bestLength && (bestAllow || !allow))) continue;
      const anchored = pattern.charCodeAt(length - 1) === 36; // '$'
      const body = anchored ? pattern.slice(0, -1) : pattern;
      let matches: boolean;
      if (!body.includes('*')) {
        matches = anchored ? path === body : path.startsWith(body);
      } else {
        // A wildcard rule may scan the whole path.
        budget -= path.length;
        if (budget < 0) return OVER_BUDGET;
        matches = wildcardMatch(wildcardSegments(body), anchored, false, path);
      }
      if (matches) {
        best = r;
        bestLength = length;
        bestAllow = allow;
      }
    }
  }
  return best;
}
