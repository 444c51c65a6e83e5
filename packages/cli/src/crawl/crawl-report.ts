import type { UsageCategory } from '@polite-crawler/robots-txt';
import type { RobotsTxtInfo } from '../robots-source.js';
import type { DeniedInfo } from '../output/verdict-json.js';

/** What happened to one URL the crawler took from its queue. */
export type PageOutcome = 'fetched' | 'noindex' | 'denied' | 'error';

/** One URL the crawler took from its queue. JSON-serialisable (`crawl --json` → `pages`). */
export interface CrawledPage {
  readonly outcome: PageOutcome;
  readonly url: string;
  /** The page that linked here; null for the start URL. */
  readonly foundOn: string | null;
  /** HTTP status of the final response, when one was received. */
  readonly status: number | null;
  /** The URL of the final response when redirects were followed, else null. */
  readonly redirectedTo: string | null;
  readonly contentType: string | null;
  /** Body bytes read (HTML up to the limit; other types are not read). */
  readonly bytes: number | null;
  /** The page's robots directives in force for this agent, e.g. `["noindex"]`, with where each came from. */
  readonly directives: readonly { readonly name: string; readonly source: 'header' | 'meta' }[];
  /**
   * The page's usage preferences (IETF AIPREF) that are not `unknown`: robots.txt
   * `Content-Usage` / `Content-Signal` for its URL combined with its `Content-Usage` header,
   * each with where it was stated (`robots.txt`, `header`, or both).
   */
  readonly usage: readonly {
    readonly category: UsageCategory;
    readonly preference: 'allowed' | 'disallowed';
    readonly source: 'robots.txt' | 'header' | 'robots.txt+header';
  }[];
  /** Links found on the page (before filtering). */
  readonly links: number;
  /** Set when the outcome is `denied`. */
  readonly denied: DeniedInfo | null;
  /** Set when the outcome is `error`: an HTTP status ≥ 400, or why the request failed. */
  readonly error: string | null;
}

/** Why a link was not followed. */
export type SkipReason = 'off-site' | 'nofollow-link' | 'nofollow-page';

/** A link that was not followed. */
export interface SkippedLink {
  readonly url: string;
  readonly reason: SkipReason;
  /** The first page it was found on. */
  readonly foundOn: string;
}

/** What the crawler learnt about one origin. */
export interface CrawledOrigin {
  readonly origin: string;
  readonly robotsTxt: RobotsTxtInfo;
  /** Crawl-delay in seconds robots.txt sets for this agent. */
  readonly crawlDelay: number | null;
  /** The spacing applied between two requests to this origin, ms. */
  readonly intervalMs: number;
  /** Pages of this origin taken from the queue. */
  readonly pages: number;
}

/** The result of a crawl. JSON-serialisable: `crawl --json` prints it with the agent. */
export interface CrawlReport {
  readonly start: string;
  readonly limits: {
    readonly maxPages: number;
    readonly concurrency: number;
    readonly minIntervalMs: number;
    readonly maxCrawlDelayMs: number;
  };
  /** Every origin a page was taken from, sorted. */
  readonly origins: readonly CrawledOrigin[];
  /** Every URL taken from the queue, sorted by URL. */
  readonly pages: readonly CrawledPage[];
  /** Links not followed, sorted by URL (each URL once). */
  readonly skipped: readonly SkippedLink[];
  /** Distinct same-site URLs left unvisited because `maxPages` was reached. */
  readonly notVisited: number;
  readonly counts: {
    readonly fetched: number;
    readonly noindex: number;
    readonly denied: number;
    readonly errors: number;
    readonly skipped: number;
  };
  /** Wall-clock duration, ms (the only non-deterministic field). */
  readonly durationMs: number;
}

/** A snapshot for the live progress line. */
export interface CrawlProgress {
  /** URLs finished (any outcome). */
  readonly done: number;
  readonly inFlight: number;
  readonly queued: number;
  readonly skipped: number;
  readonly denied: number;
  readonly errors: number;
  /** The origin of the oldest request in flight and the spacing it is paced at, ms. */
  readonly pacing?: { readonly origin: string; readonly intervalMs: number };
  /** An origin paused by a Retry-After, until when (epoch ms). */
  readonly paused?: { readonly origin: string; readonly until: number; readonly status: number };
}
