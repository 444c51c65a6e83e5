/**
 * `polite crawl`: its printed output, its limits, its bookkeeping and its start URL, each run
 * on a site of its own or on the crawl site (see crawl.test.ts for a whole crawl's record).
 */
import type { CrawlJson } from '@polite-crawler/cli';
import { CLI_DEFAULTS } from '@polite-crawler/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCli, ESCAPE, parseJson, runCli } from './helpers/run-cli.js';
import { crawlArgs, html, startCrawlSites } from './helpers/crawl-site.js';
import { closedPort, routes, send, startServer } from '../helpers/recording-server.js';
import type { RecordingServer } from '../helpers/recording-server.js';

let site: RecordingServer;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ site, close } = await startCrawlSites());
});

afterAll(async () => {
  await close();
});

describe('crawl output', () => {
  it('prints a summary table, with no progress line or colours when piped', async () => {
    // The bin, its stdout a real pipe; the other cases call the CLI's run() in this process.
    const result = await runCli(crawlArgs(`${site.origin}/`, ['--max-crawl-delay', '0']));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain(ESCAPE);
    expect(result.stdout).not.toContain('\r');
    expect(result.stdout).toContain(`Crawled ${site.origin}/ as ExampleBot: 12 URLs in `);
    expect(result.stdout).toMatch(
      new RegExp(
        `denied {3}- {7}${site.origin}/private/x {2,}Disallow: /private/ \\(line 2 of ${site.origin}/robots.txt\\)`,
      ),
    );
    expect(result.stdout).toContain(`noindex  200     ${site.origin}/noindex`);
    expect(result.stdout).toContain(
      'Summary: 8 fetched (1 noindex), 3 denied by robots.txt, 1 error, 3 links not followed\n',
    );
  });

  it('colours the output when FORCE_COLOR is set, even when piped, and not with FORCE_COLOR=0', async () => {
    const flags = ['--max-crawl-delay', '0', '--max-pages', '1'];
    const forced = await callCli(crawlArgs(`${site.origin}/a`, flags), {
      env: { FORCE_COLOR: '1' },
    });
    expect(forced.stdout).toContain(`${ESCAPE}32mfetched`);
    const off = await callCli(crawlArgs(`${site.origin}/a`, flags), {
      env: { FORCE_COLOR: '0' },
    });
    expect(off.stdout).not.toContain(ESCAPE);
  });
});

describe('crawl limits', () => {
  let chain: RecordingServer;

  beforeAll(async () => {
    chain = await startServer(
      routes({
        '/': send(html('<a href="/p1">1</a>')),
        '/p1': send(html('<a href="/p2">2</a>')),
        '/p2': send(html('<a href="/">home</a>')),
      }),
    );
  });

  afterAll(async () => {
    await chain.close();
  });

  it('visits exactly --max-pages URLs when the site has that many', async () => {
    const json = parseJson<CrawlJson>(
      await callCli(crawlArgs(`${chain.origin}/`, ['--max-pages', '3', '--json'])),
    );
    expect(json.pages).toHaveLength(3);
    expect(json.notVisited).toBe(0);
  });

  it('stops one short and says so when the site has one more', async () => {
    const before = chain.paths().filter((path) => path === '/p2').length;
    const result = await callCli(crawlArgs(`${chain.origin}/`, ['--max-pages', '2']));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('1 not visited (--max-pages 2)');
    expect(chain.paths().filter((path) => path === '/p2')).toHaveLength(before);
  });

  it.each([
    ['--max-pages', String(CLI_DEFAULTS.maxPagesLimit + 1), `1 to ${CLI_DEFAULTS.maxPagesLimit}`],
    ['--max-pages', '0', `1 to ${CLI_DEFAULTS.maxPagesLimit}`],
    [
      '--concurrency',
      String(CLI_DEFAULTS.concurrencyLimit + 1),
      `1 to ${CLI_DEFAULTS.concurrencyLimit}`,
    ],
    ['--concurrency', '1.5', `1 to ${CLI_DEFAULTS.concurrencyLimit}`],
    ['--delay', '-1', 'from 0 to 3600000'],
  ])('rejects %s %s with exit 2', async (option, value, range) => {
    const result = await callCli([
      'crawl',
      `${chain.origin}/`,
      '--agent',
      'ExampleBot',
      option,
      value,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^polite: option '.*${option} <\\w+>' argument '${value.replace('.', '\\.')}' is invalid\\. expected a whole number (from )?${range}\\n$`,
      ),
    );
  });

  it(`accepts the highest --max-pages (${CLI_DEFAULTS.maxPagesLimit}) and --concurrency (${CLI_DEFAULTS.concurrencyLimit})`, async () => {
    const result = await callCli(
      crawlArgs(`${chain.origin}/`, [
        '--max-pages',
        String(CLI_DEFAULTS.maxPagesLimit),
        '--concurrency',
        String(CLI_DEFAULTS.concurrencyLimit),
        '--json',
      ]),
    );
    expect(result.code).toBe(0);
    expect(parseJson<CrawlJson>(result).limits).toMatchObject({
      maxPages: CLI_DEFAULTS.maxPagesLimit,
      concurrency: CLI_DEFAULTS.concurrencyLimit,
    });
  });
});

describe('crawl bookkeeping', () => {
  it('a URL linked with nofollow on one page and followably on another is fetched, not listed as skipped', async () => {
    const own = await startServer(
      routes({
        '/robots.txt': send('User-agent: *\nAllow: /\n', 'text/plain'),
        '/': send(html('<a href="/x" rel="nofollow">x</a> <a href="/y">y</a>')),
        '/y': send(html('<a href="/x">x</a>')),
        '/x': send(html('x')),
      }),
    );
    try {
      const json = parseJson<CrawlJson>(await callCli(crawlArgs(`${own.origin}/`, ['--json'])));
      expect(json.pages.map((page) => new URL(page.url).pathname).sort()).toEqual([
        '/',
        '/x',
        '/y',
      ]);
      expect(json.skipped).toEqual([]);
      expect(json.counts.skipped).toBe(0);
    } finally {
      await own.close();
    }
  });

  it('--page-timeout: a page that drips for ever is an error, and the crawl goes on', async () => {
    const own = await startServer(
      routes({
        '/robots.txt': send('User-agent: *\nAllow: /\n', 'text/plain'),
        '/': send(html('<a href="/slow">s</a> <a href="/ok">o</a>')),
        '/ok': send(html('ok')),
        '/slow': (_request, response) => {
          response.writeHead(200, { 'content-type': 'text/html' });
          const timer = setInterval(() => response.write(' '), 50);
          response.on('close', () => clearInterval(timer));
          return true;
        },
      }),
    );
    try {
      const json = parseJson<CrawlJson>(
        await callCli(crawlArgs(`${own.origin}/`, ['--page-timeout', '500', '--json'])),
      );
      const outcome = Object.fromEntries(
        json.pages.map((page) => [new URL(page.url).pathname, page.outcome]),
      );
      expect(outcome).toEqual({ '/': 'fetched', '/ok': 'fetched', '/slow': 'error' });
    } finally {
      await own.close();
    }
  });
});

describe('crawl start URL', () => {
  it('exits 1 when robots.txt refuses the start URL', async () => {
    const result = await callCli(crawlArgs(`${site.origin}/private/start`));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Summary: 0 fetched (0 noindex), 1 denied by robots.txt');
  });

  it('exits 4 when the start URL fails', async () => {
    const result = await callCli(crawlArgs(`${site.origin}/missing`));
    expect(result.code).toBe(4);
    expect(result.stdout).toContain('1 error');
  });

  it('exits 4 with one line when the host cannot be reached', async () => {
    const port = await closedPort();
    const result = await callCli(['crawl', `http://127.0.0.1:${port}/`, '--agent', 'ExampleBot']);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `polite: cannot crawl http://127.0.0.1:${port}/: robots.txt unreachable (connection refused); nothing was requested\n`,
    );
  });
});
