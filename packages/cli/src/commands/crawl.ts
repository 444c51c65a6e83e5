import type { Command } from 'commander';
import { addAgentOptions, resolveAgent } from '../agent.js';
import type { AgentFlags } from '../agent.js';
import { CliError } from '../cli-error.js';
import type { CliContext } from '../context.js';
import { crawlSite } from '../crawl/crawler.js';
import { CLI_DEFAULTS } from '../defaults.js';
import { ExitCode } from '../exit-codes.js';
import { parseHttpUrl } from '../http-url.js';
import { intOption, pageTimeoutOption } from '../int-option.js';
import { crawlJson, formatCrawl } from '../output/format-crawl.js';
import { createProgressLine } from '../output/progress-line.js';
import { writeJson } from '../output/write-json.js';
import type { CrawlReport } from '../crawl/crawl-report.js';
import { neverAnswered } from '../robots-source.js';
import { FLEET_DEFAULTS, FLEET_OPTION_BOUNDS } from '@polite-crawler/redis';
import { openCrawlFleet, redisUrlOption } from '../crawl/crawl-fleet.js';

interface CrawlOptionValues extends AgentFlags {
  readonly maxPages: number;
  readonly concurrency: number;
  readonly delay: number;
  readonly maxCrawlDelay: number;
  readonly pageTimeout: number;
  readonly redis?: string;
  readonly redisTimeout: number;
  readonly json?: boolean;
}

/**
 * Registers `polite crawl <start-url> --agent <token> [--max-pages N] [--concurrency N] [--delay ms] [--json]`:
 * a small same-site crawler on the polite fetch. Exit code 0 when the start page was
 * fetched, 1 when robots.txt refused it, 4 when it could not be fetched. With `--redis <url>`
 * the crawl joins a fleet: every crawl on that Redis shares one robots.txt fetch and one
 * pacing budget per origin.
 */
export function registerCrawlCommand(program: Command, context: CliContext): void {
  const command = program
    .command('crawl')
    .description(
      'crawl one site politely, following links, and summarise what was fetched, denied and skipped',
    )
    .argument('<start-url>', 'the absolute http(s) URL to start from');
  addAgentOptions(command);
  command
    .option(
      '-n, --max-pages <n>',
      'URLs taken from the queue at most (fetched, denied or failed)',
      intOption(1, CLI_DEFAULTS.maxPagesLimit),
      CLI_DEFAULTS.maxPages,
    )
    .option(
      '-c, --concurrency <n>',
      'requests in flight at once (each origin still gets one at a time)',
      intOption(1, CLI_DEFAULTS.concurrencyLimit),
      CLI_DEFAULTS.concurrency,
    )
    .option(
      '--delay <ms>',
      'minimum milliseconds between two requests to one origin',
      intOption(0, 3_600_000),
      1_000,
    )
    .option(
      '--max-crawl-delay <ms>',
      'cap on an honoured robots.txt crawl-delay, in milliseconds',
      intOption(0, 3_600_000),
      30_000,
    )
    .addOption(pageTimeoutOption())
    .option(
      '--redis <url>',
      'share robots.txt and per-origin pacing with every crawl on this Redis (fleet mode)',
      redisUrlOption,
    )
    .option(
      '--redis-timeout <ms>',
      'with --redis: longest a request waits while Redis answers nothing; then it fails unsent',
      // The fleet's own bounds and default for `unavailableTimeout`.
      intOption(...FLEET_OPTION_BOUNDS.unavailableTimeout),
      FLEET_DEFAULTS.unavailableTimeout,
    )
    .option('--json', 'print a JSON document instead of text (no progress line)')
    .action(async (arg: string, options: CrawlOptionValues) => {
      const agent = resolveAgent(options);
      const start = parseHttpUrl(arg, 'start URL');
      const progress = createProgressLine(
        options.json === true ? { write: () => true } : context.stderr,
        context.err,
      );
      const fleet =
        options.redis === undefined
          ? undefined
          : await openCrawlFleet(options.redis, options.redisTimeout, {
              write: (line) => {
                progress.clear();
                context.stderr.write(line);
              },
            });
      let report;
      try {
        report = await crawlSite({
          start,
          agent,
          maxPages: options.maxPages,
          concurrency: options.concurrency,
          minIntervalMs: options.delay,
          maxCrawlDelayMs: options.maxCrawlDelay,
          pageTimeoutMs: options.pageTimeout,
          maxHtmlBytes: CLI_DEFAULTS.maxHtmlBytes,
          maxLinksPerPage: CLI_DEFAULTS.maxLinksPerPage,
          maxSkippedListed: CLI_DEFAULTS.maxSkippedListed,
          onProgress: (snapshot) => progress.update(snapshot),
          ...(fleet === undefined ? {} : { fleet: fleet.policyOptions }),
        });
      } finally {
        progress.clear();
        await fleet?.close();
      }
      const outcome = startOutcome(report);
      if (outcome.kind === 'unreachable') {
        throw CliError.input(`cannot crawl ${start.href}`, outcome.why);
      }
      if (options.json === true) writeJson(context.stdout, crawlJson(agent, report));
      else context.stdout.write(formatCrawl(agent, report, context.out));
      context.exitCode =
        outcome.kind === 'fetched'
          ? ExitCode.ok
          : outcome.kind === 'denied'
            ? ExitCode.denied
            : ExitCode.input;
    });
}

/** What became of a crawl's start URL, for the exit code. */
type StartOutcome =
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
function startOutcome(report: CrawlReport): StartOutcome {
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
