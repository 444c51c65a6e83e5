/**
 * Google's robotstxt test data (../shared/conformance/google-robots-test.json), run against
 * @polite-crawler/robots-txt. Every case is a named test. Where we answer differently on
 * purpose, deviations.ts says what we answer and why, and the test asserts our answer.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  isRobotsTxtUsageError,
  isValidProductToken,
  normalizePattern,
  parseRobotsTxt,
  reportRobotsTxtLines,
  toMatchPath,
  type LineReport,
} from '@polite-crawler/robots-txt';
import { CASE_DEVIATIONS, PATH_DEVIATIONS, type OurAnswer } from './deviations.js';

interface Case {
  id: string;
  robotstxt: string;
  userAgent: string;
  url: string;
  allowed: boolean;
  googleSpecific: boolean;
}
interface Helper<I, O> {
  id: string;
  input: I;
  expected: O;
}
interface LineExpectation {
  line: number;
  tag: string;
  isEmpty: boolean;
  hasComment: boolean;
  isComment: boolean;
  hasDirective: boolean;
  isAcceptableTypo: boolean;
  isLineTooLong: boolean;
  isMissingColonSeparator: boolean;
}
interface LineReportingEntry {
  id: string;
  robotstxt?: string;
  robotstxtBase64?: string;
  expect: {
    recognizedDirectives?: number;
    unknownDirectives?: number;
    lastDirectiveLine?: number;
    lineCount?: number;
    oneRecordPerLine?: boolean;
    sitemaps?: string[];
    lines?: LineExpectation[];
  };
}
interface Data {
  cases: Case[];
  pathParamsQuery: Helper<string, string>[];
  escapePattern: Helper<string, string>[];
  userAgentValidation: Helper<string | null, boolean>[];
  lineReporting: LineReportingEntry[];
}

const data = JSON.parse(
  readFileSync(
    new URL('../../../shared/conformance/google-robots-test.json', import.meta.url),
    'utf8',
  ),
) as Data;

const caseDeviations = new Map(CASE_DEVIATIONS.map((d) => [d.id, d]));
const pathDeviations = new Map(PATH_DEVIATIONS.map((d) => [d.id, d]));

/** Runs `f` and describes the outcome the way deviations.ts does. */
function outcome(f: () => boolean | string): OurAnswer | { value: string } {
  try {
    const result = f();
    return typeof result === 'boolean' ? { allowed: result } : { value: result };
  } catch (error) {
    if (isRobotsTxtUsageError(error)) return { error: error.reason };
    throw error;
  }
}

const utf8 = new TextEncoder();

describe('the deviation lists are current', () => {
  it('lists each case id at most once, and every listed id exists in the data', () => {
    const caseIds = new Set(data.cases.map((c) => c.id));
    expect(new Set(CASE_DEVIATIONS.map((d) => d.id)).size).toBe(CASE_DEVIATIONS.length);
    for (const d of CASE_DEVIATIONS) expect(caseIds, d.id).toContain(d.id);
    const pathIds = new Set(data.pathParamsQuery.map((c) => c.id));
    for (const d of PATH_DEVIATIONS) expect(pathIds, d.id).toContain(d.id);
  });

  it('gives a reason for every deviation', () => {
    for (const d of [...CASE_DEVIATIONS, ...PATH_DEVIATIONS])
      expect(d.reason.length, d.id).toBeGreaterThan(20);
  });

  it('has the 145 cases the data README promises', () => {
    expect(data.cases).toHaveLength(145);
  });
});

describe('cases', () => {
  for (const c of data.cases) {
    it(c.id, () => {
      const deviation = caseDeviations.get(c.id);
      const expected: OurAnswer = deviation?.ours ?? { allowed: c.allowed };
      // The body as a string, and as the UTF-8 bytes the upstream test used.
      expect(outcome(() => parseRobotsTxt(c.robotstxt).isAllowed(c.url, c.userAgent))).toEqual(
        expected,
      );
      expect(
        outcome(() => parseRobotsTxt(utf8.encode(c.robotstxt)).isAllowed(c.url, c.userAgent)),
      ).toEqual(expected);
      if ('allowed' in expected) {
        const verdict = parseRobotsTxt(c.robotstxt).explain(c.url, c.userAgent);
        expect(verdict.allowed).toBe(expected.allowed);
        if (deviation === undefined) expect(verdict.allowed).toBe(c.allowed);
      }
    });
  }
});

describe('pathParamsQuery → toMatchPath', () => {
  for (const c of data.pathParamsQuery) {
    it(c.id, () => {
      const deviation = pathDeviations.get(c.id);
      const expected = deviation?.ours ?? { value: c.expected };
      expect(outcome(() => toMatchPath(c.input))).toEqual(expected);
    });
  }
});

describe('escapePattern → normalizePattern', () => {
  for (const c of data.escapePattern) {
    it(c.id, () => {
      expect(normalizePattern(c.input)).toBe(c.expected);
    });
  }
});

describe('userAgentValidation → isValidProductToken', () => {
  for (const c of data.userAgentValidation) {
    it(`${c.id} (${JSON.stringify(c.input)})`, () => {
      expect(isValidProductToken(c.input as string)).toBe(c.expected);
    });
  }
});

/** Google's tag for one of our line keys. */
function googleTag(line: LineReport): string {
  switch (line.key) {
    case 'user-agent':
    case 'allow':
    case 'disallow':
    case 'sitemap':
      return line.key;
    case 'crawl-delay':
    case 'host':
    case 'other':
      return 'unused';
    default:
      return 'unknown';
  }
}

const RECOGNIZED = new Set(['user-agent', 'allow', 'disallow', 'sitemap']);

describe('lineReporting → reportRobotsTxtLines', () => {
  for (const entry of data.lineReporting) {
    it(entry.id, () => {
      const bytes =
        entry.robotstxtBase64 === undefined
          ? utf8.encode(entry.robotstxt)
          : Uint8Array.from(Buffer.from(entry.robotstxtBase64, 'base64'));
      const report = reportRobotsTxtLines(bytes);
      const { lines } = report;
      const e = entry.expect;
      const directives = lines.filter((l) => l.hasDirective);
      if (e.recognizedDirectives !== undefined) {
        expect(directives.filter((l) => RECOGNIZED.has(googleTag(l))).length).toBe(
          e.recognizedDirectives,
        );
      }
      if (e.unknownDirectives !== undefined) {
        expect(directives.filter((l) => !RECOGNIZED.has(googleTag(l))).length).toBe(
          e.unknownDirectives,
        );
      }
      if (e.lastDirectiveLine !== undefined)
        expect(directives.at(-1)?.line).toBe(e.lastDirectiveLine);
      if (e.lineCount !== undefined) expect(lines).toHaveLength(e.lineCount);
      if (e.oneRecordPerLine === true)
        expect(lines.map((l) => l.line)).toEqual(lines.map((_, i) => i + 1));
      if (e.sitemaps !== undefined) expect(report.sitemaps).toEqual(e.sitemaps);
      for (const want of e.lines ?? []) {
        const got = lines[want.line - 1]!;
        expect({
          line: got.line,
          tag: googleTag(got),
          isEmpty: got.isEmpty,
          hasComment: got.hasComment,
          isComment: got.isComment,
          hasDirective: got.hasDirective,
          isAcceptableTypo: got.isAcceptableTypo,
          isLineTooLong: got.isLineTooLong,
          isMissingColonSeparator: got.isMissingColonSeparator,
        }).toEqual(want);
      }
      // The same facts through the plain parser: its diagnostics name the same lines.
      const parsed = parseRobotsTxt(bytes);
      for (const l of lines) {
        const codes = parsed.diagnostics.filter((d) => d.line === l.line).map((d) => d.code);
        expect(codes.includes('accepted-typo'), `line ${l.line}`).toBe(l.isAcceptableTypo);
        expect(codes.includes('line-too-long'), `line ${l.line}`).toBe(l.isLineTooLong);
        expect(codes.includes('missing-colon'), `line ${l.line}`).toBe(l.isMissingColonSeparator);
      }
    });
  }
});
