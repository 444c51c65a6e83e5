/**
 * Every verdict on the real-world corpus (../shared/corpus: 13,436 files, 68,550 URLs), for
 * agent `ExampleBot`, reduced to counts and one SHA-256 digest, so that a change to the
 * parser or the matcher that changes any verdict (or the line of any deciding rule) shows.
 * Shared by the corpus test (sources) and the benchmark (built output, before and after).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The part of a parsed file this needs (any version of the package has it). */
export interface ExplainingRobots {
  explain(url: string, agent: string): { allowed: boolean; rule?: { line: number } };
}

export interface CorpusQuery {
  readonly id: string;
  readonly url: string;
}

export const CORPUS_DIR = new URL('../../../shared/corpus/', import.meta.url);
export const CORPUS_AGENT = 'ExampleBot';

export function corpusQueries(): CorpusQuery[] {
  return readFileSync(new URL('urls.txt', CORPUS_DIR), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const tab = line.indexOf('\t');
      return { id: line.slice(0, tab), url: line.slice(tab + 1) };
    });
}

/** Per query: `A` or `D`, then the deciding rule's line (`-` when no rule decided). */
export function corpusVerdicts(parse: (body: Uint8Array) => ExplainingRobots): string[] {
  const parsed = new Map<string, ExplainingRobots>();
  return corpusQueries().map(({ id, url }) => {
    let robots = parsed.get(id);
    if (robots === undefined) {
      robots = parse(readFileSync(new URL(`robots/${id}`, CORPUS_DIR)));
      parsed.set(id, robots);
    }
    const verdict = robots.explain(url, CORPUS_AGENT);
    return `${verdict.allowed ? 'A' : 'D'}${verdict.rule?.line ?? '-'}`;
  });
}

export interface VerdictSummary {
  readonly queries: number;
  readonly disallowed: number;
  readonly sha256: string;
}

export function summarize(verdicts: readonly string[]): VerdictSummary {
  return {
    queries: verdicts.length,
    disallowed: verdicts.filter((v) => v.startsWith('D')).length,
    sha256: createHash('sha256').update(verdicts.join('\n')).digest('hex'),
  };
}
