import type { ServerLogCheck } from '../demo/check-server-log.js';
import type { Style } from './style.js';
import { plural } from './plural.js';

/**
 * The demo's introduction: the two origins and what they hold.
 */
export function formatDemoIntro(
  originA: string,
  originB: string,
  capMs: number,
  style: Style,
): string {
  return `${[
    style.bold('polite demo: a local site on 127.0.0.1, crawled politely (no internet needed)'),
    '',
    `  A = ${originA}  the demo site. robots.txt: a * group that disallows everything,`,
    `      a user-agent-purpose: research group that disallows /private/ and /drafts/,`,
    `      and crawl-delay 1 s (honoured, capped at ${capMs} ms for the demo); Content-Usage:`,
    `      /articles/ may serve search, not AI training; A/about says train-ai=n in its header`,
    `  B = ${originB}  a second origin linked from A; its robots.txt answers 503`,
    '',
    'Crawling A/ as PoliteDemoBot (purpose: research)…',
    '',
  ].join('\n')}\n`;
}

/**
 * The demo's conclusion: what the servers saw, judged independently of the crawler.
 */
export function formatDemoLog(check: ServerLogCheck, style: Style): string {
  const lines = [
    '',
    style.bold('What the servers saw'),
    `  A: ${plural(check.requestsA, 'request')}, B: ${plural(check.requestsB, 'request')} (${check.robotsTxtRequests} for robots.txt)`,
  ];
  if (check.violations.length === 0) {
    lines.push(
      `  ${style.green('0')} requests to a URL that robots.txt or nofollow put off limits`,
    );
  } else {
    lines.push(
      `  ${style.red(String(check.violations.length))} request${check.violations.length === 1 ? '' : 's'} to a URL that was off limits:`,
    );
    for (const request of check.violations) lines.push(`    ${request.site}${request.path}`);
  }
  return `${lines.join('\n')}\n`;
}
