import type {
  Pacer,
  PoliteEvent,
  PoliteResponse,
  RobotsStore,
  UsagePreferences,
} from '@polite-crawler/fetch';
import { isFleetUnavailableError } from '@polite-crawler/redis';
import pLimit from 'p-limit';
import { USAGE_CATEGORIES } from '@polite-crawler/robots-txt';
import { createPoliteFetch, isRobotsDeniedError } from '@polite-crawler/fetch';
import { isHtml, readCapped } from '@polite-crawler/fetch/internal';
import type { CliAgent } from '../agent.js';
import { createCliPolicy } from '../cli-policy.js';
import { describeNetworkError } from '../network-error.js';
import { pageDispatcher } from '../page-time-limit.js';
import { robotsInfoFromReport, statusPhrase } from '../robots-source.js';
import { deniedInfo } from '../output/verdict-json.js';
import type {
  CrawledOrigin,
  CrawledPage,
  CrawlProgress,
  CrawlReport,
  SkippedLink,
  SkipReason,
} from './crawl-report.js';
import { extractLinks } from './extract-links.js';
import { isSameSite } from './same-site.js';

/** Options of {@link crawlSite}. */
export interface CrawlSiteOptions {
  readonly start: URL;
  readonly agent: CliAgent;
  /** URLs taken from the queue at most (fetched, denied or failed). */
  readonly maxPages: number;
  /** Requests in flight at once, across origins (each origin is still paced on its own). */
  readonly concurrency: number;
  /** Minimum spacing between two requests to one origin, ms. */
  readonly minIntervalMs: number;
  /** Cap on an honoured robots.txt crawl-delay, ms. */
  readonly maxCrawlDelayMs: number;
  /** Time a request may take from being sent to its last byte (see `pageDispatcher`), ms. */
  readonly pageTimeoutMs: number;
  /** Bytes of an HTML page read to find links. */
  readonly maxHtmlBytes: number;
  /** Links taken from one page. */
  readonly maxLinksPerPage: number;
  /** Skipped links listed in the report; more are counted only. */
  readonly maxSkippedListed: number;
  /** Called after every change, for a progress line. */
  readonly onProgress?: (progress: CrawlProgress) => void;
  /**
   * A fleet's robots.txt store and pacer (`fleet.policyOptions` of `@polite-crawler/redis`):
   * robots.txt and each origin's pacing are then shared with every process of the fleet.
   */
  readonly fleet?: { readonly store: RobotsStore; readonly pacer: Pacer };
}

interface QueueItem {
  readonly url: string;
  readonly foundOn: string | null;
}

/**
 * Crawls one site through a polite fetch: starts at `start`, follows same-site `<a href>`
 * links (not `rel="nofollow"` ones, nor any on a page whose directives say `nofollow`),
 * never requests a URL robots.txt refuses, and paces each origin. Resolves with a report
 * whose lists are sorted, so that the same site gives the same report.
 *
 * @example
 * ```ts
 * const report = await crawlSite({ start: new URL('http://127.0.0.1:8080/'), agent, maxPages: 50,
 *   concurrency: 4, minIntervalMs: 1000, maxCrawlDelayMs: 30_000, pageTimeoutMs: 30_000, maxHtmlBytes: 1_048_576,
 *   maxLinksPerPage: 1000, maxSkippedListed: 10_000 });
 * console.log(report.counts);
 * ```
 */
export async function crawlSite(options: CrawlSiteOptions): Promise<CrawlReport> {
  const startedAt = Date.now();
  let paused: CrawlProgress['paused'];
  const onEvent = (event: PoliteEvent): void => {
    if (event.type === 'origin-paused') {
      paused = { origin: event.origin, until: event.until, status: event.status };
      emit();
    }
  };
  const dispatcher = pageDispatcher(options.pageTimeoutMs);
  const { fleet } = options;
  const policy = createCliPolicy(options.agent, {
    ...(fleet === undefined ? {} : { store: fleet.store, pacer: fleet.pacer }),
    concurrency: 1,
    minInterval: options.minIntervalMs,
    maxCrawlDelay: options.maxCrawlDelayMs,
    onEvent,
    dispatcher,
  });
  const politeFetch = createPoliteFetch({ policy });
  let site = options.start;
  // The queue: pages wait here for one of `concurrency` slots, first in first out.
  const limit = pLimit(options.concurrency);
  const visits: Promise<void>[] = [];
  let enqueued = 0;
  const seen = new Set<string>();
  const pages: CrawledPage[] = [];
  const skipped = new Map<string, SkippedLink>();
  let skippedUnlisted = 0;
  const overflow = new Set<string>();
  let overflowUncounted = 0;
  const inFlight = new Map<string, QueueItem>();

  function emit(): void {
    if (options.onProgress === undefined) return;
    const oldest = inFlight.values().next();
    const pacingOrigin = oldest.done === true ? undefined : new URL(oldest.value.url).origin;
    options.onProgress({
      done: pages.length,
      inFlight: inFlight.size,
      queued: limit.pendingCount,
      skipped: skipped.size + skippedUnlisted,
      denied: pages.filter((page) => page.outcome === 'denied').length,
      errors: pages.filter((page) => page.outcome === 'error').length,
      ...(pacingOrigin === undefined
        ? {}
        : {
            pacing: {
              origin: pacingOrigin,
              intervalMs: intervals.get(pacingOrigin) ?? options.minIntervalMs,
            },
          }),
      ...(paused === undefined || paused.until <= Date.now() ? {} : { paused }),
    });
  }

  /** Each origin's pacing interval as the policy explains it (read once, before its first page). */
  const intervals = new Map<string, number | undefined>();

  function enqueue(url: string, foundOn: string | null): void {
    if (seen.has(url)) return;
    // Linked without nofollow somewhere after all: fetched, so no longer "not followed".
    skipped.delete(url);
    if (enqueued >= options.maxPages) {
      if (overflow.size < options.maxSkippedListed) overflow.add(url);
      else if (!overflow.has(url)) overflowUncounted++;
      return;
    }
    seen.add(url);
    enqueued++;
    visits.push(limit(() => take({ url, foundOn })));
  }

  /** Takes one page from the queue: its origin noted, then the visit, whatever it throws. */
  async function take(item: QueueItem): Promise<void> {
    inFlight.set(item.url, item);
    emit();
    try {
      await noteOrigin(item.url);
      await visit(item);
    } catch (error) {
      pages.push({
        ...emptyPage(item),
        outcome: 'error',
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      inFlight.delete(item.url);
      emit();
    }
  }

  function skip(url: string, reason: SkipReason, foundOn: string): void {
    if (skipped.has(url) || seen.has(url)) return;
    if (skipped.size >= options.maxSkippedListed) {
      skippedUnlisted++;
      return;
    }
    skipped.set(url, { url, reason, foundOn });
  }

  async function visit(item: QueueItem): Promise<void> {
    const base = emptyPage(item);
    let response: PoliteResponse;
    try {
      response = await politeFetch(item.url, {
        headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
      });
    } catch (error) {
      if (isRobotsDeniedError(error)) {
        pages.push({
          ...base,
          outcome: 'denied',
          denied: deniedInfo(error),
        });
      } else {
        // Politeness failed closed: the request was not sent (a fleet whose Redis is down).
        const why = isFleetUnavailableError(error)
          ? `not sent: the fleet's Redis did not answer within ${error.waited} ms`
          : describeNetworkError(error);
        pages.push({ ...base, outcome: 'error', error: why });
      }
      return;
    }
    const finalUrl = response.url === '' ? item.url : response.url;
    const contentType = response.headers.get('content-type');
    const html = isHtml(contentType);
    let body: Uint8Array = new Uint8Array(0);
    try {
      body = (await readCapped(response.body, html && response.ok ? options.maxHtmlBytes : 0))
        .bytes;
    } catch (error) {
      pages.push({
        ...base,
        outcome: 'error',
        status: response.status,
        error: describeNetworkError(error),
      });
      return;
    }
    if (finalUrl !== item.url) seen.add(finalUrl);
    // A start URL that redirects (http → https, www → bare host) moves the site with it.
    if (item.foundOn === null) site = new URL(finalUrl);
    const directives = response.robots;
    const common = {
      ...base,
      status: response.status,
      redirectedTo: finalUrl === item.url ? null : finalUrl,
      contentType,
      bytes: body.byteLength,
      directives: directiveList(response),
      usage: usageList(response.usage),
    };
    if (!response.ok) {
      pages.push({ ...common, outcome: 'error', error: `HTTP ${response.status}` });
      return;
    }
    let links = 0;
    if (html) {
      const found = extractLinks(new TextDecoder('utf-8').decode(body), new URL(finalUrl), {
        maxLinks: options.maxLinksPerPage,
      });
      links = found.length;
      for (const link of found) {
        const target = new URL(link.url);
        if (!isSameSite(site, target)) skip(link.url, 'off-site', item.url);
        else if (directives.nofollow) skip(link.url, 'nofollow-page', item.url);
        else if (link.nofollow) skip(link.url, 'nofollow-link', item.url);
        else enqueue(link.url, item.url);
      }
    }
    pages.push({ ...common, outcome: directives.noindex ? 'noindex' : 'fetched', links });
  }

  async function noteOrigin(url: string): Promise<void> {
    const origin = new URL(url).origin;
    if (intervals.has(origin)) return;
    intervals.set(origin, undefined);
    const explanation = await policy.explain(url).catch(() => undefined);
    intervals.set(origin, explanation?.interval);
  }

  try {
    enqueue(options.start.href.replace(/#.*$/, ''), null);
    // Visits enqueue the pages they link to: wait until a round adds none.
    while (visits.length > 0) await Promise.all(visits.splice(0));
    const origins = await describeOrigins();
    const unreachable = new Map(
      origins.map((origin) => [origin.robotsTxt.location, statusPhrase(origin.robotsTxt)] as const),
    );
    const finished = pages.map((page) =>
      page.denied?.reason === 'unreachable'
        ? {
            ...page,
            denied: { ...page.denied, unreachable: unreachable.get(page.denied.robotsTxt) ?? null },
          }
        : page,
    );
    return {
      start: options.start.href,
      limits: {
        maxPages: options.maxPages,
        concurrency: options.concurrency,
        minIntervalMs: options.minIntervalMs,
        maxCrawlDelayMs: options.maxCrawlDelayMs,
      },
      origins,
      pages: finished.sort((a, b) => compare(a.url, b.url)),
      skipped: [...skipped.values()].sort((a, b) => compare(a.url, b.url)),
      notVisited: overflow.size + overflowUncounted,
      counts: {
        fetched: pages.filter((page) => page.outcome === 'fetched' || page.outcome === 'noindex')
          .length,
        noindex: pages.filter((page) => page.outcome === 'noindex').length,
        denied: pages.filter((page) => page.outcome === 'denied').length,
        errors: pages.filter((page) => page.outcome === 'error').length,
        skipped: skipped.size + skippedUnlisted,
      },
      durationMs: Date.now() - startedAt,
    };
  } finally {
    await policy.close();
    await dispatcher.close();
  }

  async function describeOrigins(): Promise<CrawledOrigin[]> {
    const counts = new Map<string, number>();
    for (const page of pages) {
      const origin = new URL(page.url).origin;
      counts.set(origin, (counts.get(origin) ?? 0) + 1);
    }
    const result: CrawledOrigin[] = [];
    for (const [origin, count] of [...counts].sort((a, b) => compare(a[0], b[0]))) {
      const explanation = await policy.explain(`${origin}/`);
      result.push({
        origin,
        robotsTxt: robotsInfoFromReport(explanation.robotsTxt),
        crawlDelay: explanation.robotsTxt.crawlDelay ?? null,
        intervalMs: explanation.interval,
        pages: count,
      });
    }
    return result;
  }
}

/** A page record with nothing known yet; `outcome` comes first so that JSON reads well. */
function emptyPage(item: QueueItem): CrawledPage {
  return {
    outcome: 'error',
    url: item.url,
    foundOn: item.foundOn,
    status: null,
    redirectedTo: null,
    contentType: null,
    bytes: null,
    directives: [],
    usage: [],
    links: 0,
    denied: null,
    error: null,
  };
}

function directiveList(response: PoliteResponse): CrawledPage['directives'] {
  const seen = new Set<string>();
  const list: { name: string; source: 'header' | 'meta' }[] = [];
  for (const rule of response.robots.rules) {
    if (!rule.known) continue;
    const name = rule.value === undefined ? rule.name : `${rule.name}: ${rule.value}`;
    const key = `${rule.source} ${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    list.push({ name, source: rule.source });
  }
  return list.sort((a, b) => compare(a.source, b.source) || compare(a.name, b.name));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The stated (not `unknown`) usage preferences of a page, with where each was stated. */
function usageList(usage: UsagePreferences): CrawledPage['usage'] {
  const list: CrawledPage['usage'][number][] = [];
  for (const category of USAGE_CATEGORIES) {
    const preference = usage[category];
    if (preference === 'unknown') continue;
    const kinds = new Set(
      usage.sources[category].map((source) =>
        source.kind === 'content-usage-field' ? 'header' : 'robots.txt',
      ),
    );
    const source =
      kinds.size === 2 ? 'robots.txt+header' : kinds.has('header') ? 'header' : 'robots.txt';
    list.push({ category, preference, source });
  }
  return list;
}
