import { neverAnswered } from '../robots-report-info.js';
import type { CrawlReport } from './crawl-report.js';

/** What became of a crawl's start URL, for the exit code. */
export type StartOutcome =
  | { readonly kind: 'fetched' }
  | { readonly kind: 'denied' }
  | { readonly kind: 'error' }
  /** The start origin could not be reached at all (no HTTP answer even for robots.txt). */
  | { readonly kind: 'unreachable'; readonly why: string };

/**
 * Classifies the start URL of a finished crawl: fetched (any 2xx page), denied by
 * robots.txt, failed, or on an origin that never answered.
 *
 * @example
 * ```ts
 * if (startOutcome(report).kind === 'denied') process.exitCode = 1;
 * ```
 */
export function startOutcome(report: CrawlReport): StartOutcome {
  const page = report.pages.find((candidate) => candidate.foundOn === null);
  if (page === undefined) return { kind: 'error' };
  if (page.outcome === 'denied') {
    const origin = report.origins.find(
      (candidate) => candidate.origin === new URL(page.url).origin,
    );
    const why = origin === undefined ? undefined : neverAnswered(origin.robotsTxt);
    return page.denied?.reason === 'unreachable' && why !== undefined
      ? { kind: 'unreachable', why }
      : { kind: 'denied' };
  }
  return page.outcome === 'error' ? { kind: 'error' } : { kind: 'fetched' };
}
