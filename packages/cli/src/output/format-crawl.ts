import type { CliAgent } from '../agent.js';
import type { CrawledPage, CrawlReport } from '../crawl/crawl-report.js';
import type { AgentJson } from './agent-json.js';
import { agentJson, agentLabel } from './agent-json.js';
import { describeDenied, describeSource } from './describe-verdict.js';
import { statusPhrase } from '../robots-source.js';
import type { Style } from './style.js';
import { renderTable } from './table.js';
import { plural } from './plural.js';

/** The shape of `polite crawl --json`: the report plus the agent. */
export type CrawlJson = CrawlReport & { readonly agent: AgentJson };

/**
 * The `--json` document of `crawl`.
 */
export function crawlJson(agent: CliAgent, report: CrawlReport): CrawlJson {
  return { agent: agentJson(agent), ...report };
}

/** Options of {@link formatCrawl}. */
export interface FormatCrawlOptions {
  /** How a URL is shown (the demo replaces its ports with site names). @default the URL */
  readonly showUrl?: (url: string) => string;
}

/**
 * The summary of a crawl: origins and their robots.txt, one row per page (fetched, noindex,
 * denied with the rule, error), the links not followed, and the counts.
 */
export function formatCrawl(
  agent: CliAgent,
  report: CrawlReport,
  style: Style,
  options: FormatCrawlOptions = {},
): string {
  const show = options.showUrl ?? ((url: string) => url);
  const lines: string[] = [];
  const duration = ` in ${(report.durationMs / 1000).toFixed(1)} s`;
  lines.push(
    style.bold(
      `Crawled ${show(report.start)} as ${agentLabel(agent)}: ${plural(report.pages.length, 'URL')}${duration}`,
    ),
  );

  lines.push('', style.bold('Origins'));
  lines.push(
    renderTable(
      [
        ['origin', 'robots.txt', 'crawl-delay', 'pace', 'urls'],
        ...sortBy(report.origins, (origin) => show(origin.origin)).map((origin) => [
          show(origin.origin),
          origin.robotsTxt.status === 'ok'
            ? describeSource(origin.robotsTxt).replace(/, cache \w+$/, '')
            : `${origin.robotsTxt.status} (${statusPhrase(origin.robotsTxt)})`,
          origin.crawlDelay === null ? '-' : `${origin.crawlDelay} s`,
          origin.robotsTxt.status === 'unreachable' ? '-' : `${origin.intervalMs} ms`,
          String(origin.pages),
        ]),
      ],
      '  ',
    ),
  );

  lines.push('', style.bold('Pages'));
  lines.push(
    renderTable(
      [
        ['outcome', 'status', 'url', 'detail'],
        ...sortBy(report.pages, (page) => show(page.url)).map((page) => [
          paintOutcome(page, style),
          page.status === null ? '-' : String(page.status),
          page.redirectedTo === null
            ? show(page.url)
            : `${show(page.url)} → ${show(page.redirectedTo)}`,
          pageDetail(page, show),
        ]),
      ],
      '  ',
    ),
  );

  if (report.skipped.length > 0) {
    lines.push('', style.bold('Links not followed'));
    lines.push(
      renderTable(
        [
          ['reason', 'url', 'found on'],
          ...sortBy(report.skipped, (link) => show(link.url)).map((link) => [
            link.reason,
            show(link.url),
            show(link.foundOn),
          ]),
        ],
        '  ',
      ),
    );
  }

  const { fetched, noindex, denied, errors, skipped } = report.counts;
  lines.push('');
  const summary = [
    `${fetched} fetched (${noindex} noindex)`,
    `${denied} denied by robots.txt`,
    plural(errors, 'error'),
    `${plural(skipped, 'link')} not followed`,
  ];
  if (report.notVisited > 0)
    summary.push(`${report.notVisited} not visited (--max-pages ${report.limits.maxPages})`);
  lines.push(`Summary: ${summary.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/** Rows in the order of their displayed text, so that the demo's names (not its ports) decide. */
function sortBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  return items
    .map((item) => ({ item, key: key(item) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ item }) => item);
}

function paintOutcome(page: CrawledPage, style: Style): string {
  switch (page.outcome) {
    case 'fetched':
      return style.green('fetched');
    case 'noindex':
      return style.yellow('noindex');
    case 'denied':
      return style.red('denied');
    case 'error':
      return style.red('error');
  }
}

function pageDetail(page: CrawledPage, show: (url: string) => string): string {
  if (page.denied !== null) return describeDenied(page.denied, show);
  if (page.error !== null) return page.error;
  const parts: string[] = [];
  for (const directive of page.directives) parts.push(`${directive.name} (${directive.source})`);
  for (const usage of page.usage) {
    parts.push(
      `${usage.category}: ${usage.preference === 'allowed' ? 'yes' : 'no'} (${usage.source})`,
    );
  }
  parts.push(plural(page.links, 'link'));
  return parts.join(', ');
}
