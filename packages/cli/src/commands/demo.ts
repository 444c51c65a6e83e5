import type { Command } from 'commander';
import type { CliAgent } from '../agent.js';
import type { CliContext } from '../context.js';
import { crawlSite } from '../crawl/crawler.js';
import { CLI_DEFAULTS } from '../defaults.js';
import { checkServerLog } from '../demo/check-server-log.js';
import { DEMO_AGENT, DEMO_EXPLAINED_PATH } from '../demo/demo-pages.js';
import { startDemoSite } from '../demo/demo-site.js';
import { ExitCode } from '../exit-codes.js';
import { formatCrawl } from '../output/format-crawl.js';
import { formatExplain } from '../output/format-explain.js';
import { createPolicyVerdicts } from '../verdicts.js';
import { formatDemoIntro, formatDemoLog } from '../output/format-demo.js';
import { createProgressLine } from '../output/progress-line.js';

/**
 * Registers `polite demo`: starts a local two-origin site on 127.0.0.1, crawls it with the
 * crawl machinery, prints the summary and what the servers saw. Never touches the internet.
 * Exit code 0, or 70 if the servers saw a request they should not have (a bug).
 */
export function registerDemoCommand(program: Command, context: CliContext): void {
  program
    .command('demo')
    .description(
      'crawl a local demo site (127.0.0.1, no internet) and show what a polite crawler does',
    )
    .action(async () => {
      const agent: CliAgent = DEMO_AGENT;
      const site = await startDemoSite();
      const show = (url: string): string =>
        url.startsWith(site.originA)
          ? `A${url.slice(site.originA.length)}`
          : url.startsWith(site.originB)
            ? `B${url.slice(site.originB.length)}`
            : url;
      const progress = createProgressLine(context.stderr, context.err);
      try {
        context.stdout.write(
          formatDemoIntro(
            site.originA,
            site.originB,
            CLI_DEFAULTS.demoCrawlDelayCapMs,
            context.out,
          ),
        );
        let report;
        try {
          report = await crawlSite({
            start: new URL(`${site.originA}/`),
            agent,
            maxPages: CLI_DEFAULTS.maxPages,
            concurrency: CLI_DEFAULTS.concurrency,
            minIntervalMs: CLI_DEFAULTS.demoMinIntervalMs,
            maxCrawlDelayMs: CLI_DEFAULTS.demoCrawlDelayCapMs,
            pageTimeoutMs: CLI_DEFAULTS.pageTimeoutMs,
            maxHtmlBytes: CLI_DEFAULTS.maxHtmlBytes,
            maxLinksPerPage: CLI_DEFAULTS.maxLinksPerPage,
            maxSkippedListed: CLI_DEFAULTS.maxSkippedListed,
            onProgress: (snapshot) => progress.update(snapshot),
          });
        } finally {
          progress.clear();
        }
        context.stdout.write(formatCrawl(agent, report, context.out, { showUrl: show }));
        const verdicts = createPolicyVerdicts(agent);
        try {
          const verdict = await verdicts.verdict(new URL(`${site.originA}${DEMO_EXPLAINED_PATH}`));
          context.stdout.write(
            `\n${context.out.bold(`Why was A${DEMO_EXPLAINED_PATH} denied? (polite explain)`)}\n`,
          );
          context.stdout.write(
            formatExplain(agent, verdict, context.out)
              .replaceAll(site.originA, 'A')
              .replace(/^(?=.)/gm, '  '),
          );
        } finally {
          await verdicts.close();
        }
        const check = checkServerLog(site.requests);
        context.stdout.write(formatDemoLog(check, context.out));
        if (check.violations.length > 0) {
          // A bug in the crawler or the policy: reported as an internal error (exit code 70).
          throw new Error(
            `demo: the crawler requested ${check.violations.length} URL(s) it should not have`,
          );
        }
        context.exitCode = ExitCode.ok;
      } finally {
        await site.close();
      }
    });
}
