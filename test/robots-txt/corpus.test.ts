/**
 * No verdict changes on the real-world corpus: every one of its 68,550 queries gets the
 * verdict, and the deciding rule's line, that the package gave before the matcher was
 * reduced to one compiled form (issue 22). The expected digest was computed with the
 * package as it was then (test/bench/robots-txt.bench.ts lists any query that differs
 * between two builds, with both answers).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, type RobotsTxt } from '@polite-crawler/robots-txt';
import {
  CORPUS_AGENT,
  CORPUS_DIR,
  corpusQueries,
  corpusVerdicts,
  summarize,
} from './corpus-verdicts.js';

const EXPECTED = {
  queries: 68_550,
  disallowed: 30_340,
  sha256: '5116498bc73887b15891ffe67a58f616252680cb80210b6cf282dd91855781f7',
};

describe('the corpus', () => {
  it('every verdict and deciding line is unchanged', () => {
    expect(summarize(corpusVerdicts((body) => parseRobotsTxt(body)))).toEqual(EXPECTED);
  });

  it('no query of the corpus reaches the match budget', () => {
    const parsed = new Map<string, RobotsTxt>();
    let failedClosed = 0;
    for (const { id, url } of corpusQueries()) {
      let robots = parsed.get(id);
      if (robots === undefined) {
        robots = parseRobotsTxt(readFileSync(new URL(`robots/${id}`, CORPUS_DIR)));
        parsed.set(id, robots);
      }
      if (robots.explain(url, CORPUS_AGENT).reason === 'match-budget') failedClosed++;
    }
    expect(parsed.size).toBeGreaterThan(10_000);
    expect(failedClosed).toBe(0);
  });
});
