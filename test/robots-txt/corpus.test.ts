/**
 * No verdict changes on the real-world corpus: every one of its 68,550 queries gets the
 * verdict, and the deciding rule's line, that the package gave before the matcher was
 * reduced to one compiled form (issue 22). The expected digest was computed with the
 * package as it was then (test/bench/robots-txt.bench.ts lists any query that differs
 * between two builds, with both answers).
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '@polite-crawler/robots-txt';
import { corpusVerdicts, summarize } from './corpus-verdicts.js';

const EXPECTED = {
  queries: 68_550,
  disallowed: 30_340,
  sha256: '5116498bc73887b15891ffe67a58f616252680cb80210b6cf282dd91855781f7',
};

describe('the corpus', () => {
  it('every verdict and deciding line is unchanged', () => {
    expect(summarize(corpusVerdicts((body) => parseRobotsTxt(body)))).toEqual(EXPECTED);
  });
});
