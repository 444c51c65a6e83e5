import type { CrawlJson } from '@polite-crawler/cli';
import { CLI_DEFAULTS } from '@polite-crawler/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESCAPE, parseJson, runCli } from './helpers/run-cli.js';
import type { CliResult, RunCliOptions } from './helpers/run-cli.js';
import {
  closedPort,
  redirect,
  routes,
  send,
  startServer,
  status,
} from '../helpers/recording-server.js';
import type { RecordingServer } from '../helpers/recording-server.js';

const html = (body: string, head = ''): string =>
  `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;

/** A page of exactly `size` bytes whose last byte closes the start tag of a link to `href`. */
function pageEndingWithLink(size: number, href: string): string {
  const link = `<a href="${href}">`;
  const head = '<!doctype html><html><body><!--';
  const close = '-->';
  const filler = 'f'.repeat(size - head.length - close.length - link.length);
  const page = `${head}${filler}${close}${link}`;
  if (Buffer.byteLength(page) !== size) throw new Error('bad test page');
  return page;
}

/** `polite crawl <url> --agent ExampleBot --delay 0 …flags`: no spacing unless the flags ask. */
function crawlAsExampleBot(
  url: string,
  flags: readonly string[] = [],
  options: RunCliOptions = {},
): Promise<CliResult> {
  return runCli(['crawl', url, '--agent', 'ExampleBot', '--delay', '0', ...flags], options);
}

let site: RecordingServer;
let partner: RecordingServer;

beforeAll(async () => {
  partner = await startServer(routes({ '/robots.txt': status(503), '/': send(html('partner')) }));
  // Arrivals stamped on the wall clock: the CLI runs in its own process, on the real one.
  site = await startServer(
    routes({
      '/robots.txt': send('User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n', 'text/plain'),
      '/': send(
        html(`<a href="/a">a</a> <a href="/b" rel="nofollow">b</a> <a href="/private/x">p</a>
<a href="/nofollow-page">nf</a> <a href="/noindex">ni</a> <a href="/missing">m</a> <a href="/moved">mv</a>
<a href="https://example.com/">ext</a> <a href="${partner.origin}/">partner</a> <a href="/big-at">ba</a> <a href="/big-past">bp</a>`),
      ),
      '/a': send(html('<a href="/">home</a> <a href="/a#frag">self</a>')),
      '/b': send(html('b')),
      '/nofollow-page': send(
        html('<a href="/hidden">h</a>', '<meta name="robots" content="nofollow">'),
      ),
      '/hidden': send(html('hidden')),
      '/noindex': send(html('<a href="/c">c</a>'), 'text/html', { 'x-robots-tag': 'noindex' }),
      '/c': send(html('c')),
      '/missing': status(404),
      '/moved': redirect('/private/moved', 302),
      '/big-at': send(pageEndingWithLink(CLI_DEFAULTS.maxHtmlBytes, '/found-at')),
      '/big-past': send(pageEndingWithLink(CLI_DEFAULTS.maxHtmlBytes + 1, '/found-past')),
      '/found-at': send(html('found')),
      '/found-past': send(html('found')),
    }),
    { now: () => performance.now() },
  );
});

afterAll(async () => {
  await Promise.all([site.close(), partner.close()]);
});

describe('crawl', () => {
  let json: CrawlJson;
  let code: number | null;
  let stderr: string;

  beforeAll(async () => {
    const result = await crawlAsExampleBot(`${site.origin}/`, [
      '--max-crawl-delay',
      '200',
      '--json',
    ]);
    code = result.code;
    stderr = result.stderr;
    json = parseJson<CrawlJson>(result);
  });

  it('exits 0 with nothing on stderr', () => {
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });

  it('records every URL taken from the queue with its outcome, sorted', () => {
    const label = (url: string): string =>
      url.replace(site.origin, '').replace(partner.origin, 'B');
    const outcomes = json.pages.map((page) => [label(page.url), page.outcome]);
    expect(json.pages.map((page) => page.url)).toEqual(json.pages.map((page) => page.url).sort());
    expect(outcomes.sort()).toEqual([
      ['/', 'fetched'],
      ['/a', 'fetched'],
      ['/big-at', 'fetched'],
      ['/big-past', 'fetched'],
      ['/c', 'fetched'],
      ['/found-at', 'fetched'],
      ['/missing', 'error'],
      ['/moved', 'denied'],
      ['/nofollow-page', 'fetched'],
      ['/noindex', 'noindex'],
      ['/private/x', 'denied'],
      ['B/', 'denied'],
    ]);
    expect(json.counts).toEqual({ fetched: 8, noindex: 1, denied: 3, errors: 1, skipped: 3 });
  });

  it('never requests a disallowed, nofollow or off-limits URL', () => {
    const paths = site.paths();
    for (const path of ['/private/x', '/private/moved', '/b', '/hidden', '/found-past']) {
      expect(paths).not.toContain(path);
    }
    expect(partner.paths()).toEqual(['/robots.txt']);
    expect(paths.filter((path) => path === '/robots.txt')).toHaveLength(1);
  });

  it('says which rule denied each URL, and why the partner origin was refused', () => {
    const byPath = new Map(json.pages.map((page) => [page.url, page]));
    expect(byPath.get(`${site.origin}/private/x`)?.denied).toEqual({
      reason: 'disallowed',
      url: `${site.origin}/private/x`,
      rule: { kind: 'disallow', pattern: '/private/', line: 2, text: 'Disallow: /private/' },
      robotsTxt: `${site.origin}/robots.txt`,
      unreachable: null,
    });
    expect(byPath.get(`${site.origin}/moved`)?.denied).toMatchObject({
      reason: 'redirect-disallowed',
      url: `${site.origin}/private/moved`,
    });
    expect(byPath.get(`${partner.origin}/`)?.denied).toMatchObject({
      reason: 'unreachable',
      rule: null,
      unreachable: 'HTTP 503',
    });
    expect(byPath.get(`${site.origin}/noindex`)?.directives).toEqual([
      { name: 'noindex', source: 'header' },
    ]);
    expect(byPath.get(`${site.origin}/missing`)).toMatchObject({ status: 404, error: 'HTTP 404' });
  });

  it('lists the links it did not follow, each with its reason', () => {
    expect(json.skipped).toEqual([
      { url: `${site.origin}/b`, reason: 'nofollow-link', foundOn: `${site.origin}/` },
      {
        url: `${site.origin}/hidden`,
        reason: 'nofollow-page',
        foundOn: `${site.origin}/nofollow-page`,
      },
      { url: 'https://example.com/', reason: 'off-site', foundOn: `${site.origin}/` },
    ]);
  });

  it(`finds links within the first ${CLI_DEFAULTS.maxHtmlBytes} bytes of a page, not after`, () => {
    expect(site.paths()).toContain('/found-at');
    expect(site.paths()).not.toContain('/found-past');
  });

  it('reports each origin with its robots.txt, crawl-delay and pace', () => {
    expect(json.origins).toHaveLength(2);
    expect(json.origins.find((origin) => origin.origin === site.origin)).toMatchObject({
      crawlDelay: 1,
      intervalMs: 200,
      pages: 11,
      robotsTxt: { status: 'ok', httpStatus: 200, source: 'policy' },
    });
    expect(json.origins.find((origin) => origin.origin === partner.origin)).toMatchObject({
      crawlDelay: null,
      pages: 1,
      robotsTxt: { status: 'unreachable', httpStatus: 503, failure: 'HTTP 503' },
    });
  });

  it('paces the origin: one request at a time, spaced by the capped crawl-delay', () => {
    expect(site.maxConcurrent).toBe(1);
    const timestamps = site.seen
      .filter((seen) => seen.path !== '/robots.txt')
      .map((seen) => seen.at);
    const gaps = timestamps.slice(1).map((time, index) => time - (timestamps[index] ?? time));
    // A lower bound only: a slow machine makes the gaps longer, never shorter.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(180);
  });
});

describe('crawl output', () => {
  it('prints a summary table, with no progress line or colours when piped', async () => {
    const result = await crawlAsExampleBot(`${site.origin}/`, ['--max-crawl-delay', '0']);
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
    const forced = await crawlAsExampleBot(`${site.origin}/a`, flags, {
      env: { FORCE_COLOR: '1' },
    });
    expect(forced.stdout).toContain(`${ESCAPE}32mfetched`);
    const off = await crawlAsExampleBot(`${site.origin}/a`, flags, { env: { FORCE_COLOR: '0' } });
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
      await crawlAsExampleBot(`${chain.origin}/`, ['--max-pages', '3', '--json']),
    );
    expect(json.pages).toHaveLength(3);
    expect(json.notVisited).toBe(0);
  });

  it('stops one short and says so when the site has one more', async () => {
    const before = chain.paths().filter((path) => path === '/p2').length;
    const result = await crawlAsExampleBot(`${chain.origin}/`, ['--max-pages', '2']);
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
    const result = await runCli([
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
    const result = await crawlAsExampleBot(`${chain.origin}/`, [
      '--max-pages',
      String(CLI_DEFAULTS.maxPagesLimit),
      '--concurrency',
      String(CLI_DEFAULTS.concurrencyLimit),
      '--json',
    ]);
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
      const json = parseJson<CrawlJson>(await crawlAsExampleBot(`${own.origin}/`, ['--json']));
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
        await crawlAsExampleBot(`${own.origin}/`, ['--page-timeout', '500', '--json']),
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
    const result = await crawlAsExampleBot(`${site.origin}/private/start`);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Summary: 0 fetched (0 noindex), 1 denied by robots.txt');
  });

  it('exits 4 when the start URL fails', async () => {
    const result = await crawlAsExampleBot(`${site.origin}/missing`);
    expect(result.code).toBe(4);
    expect(result.stdout).toContain('1 error');
  });

  it('exits 4 with one line when the host cannot be reached', async () => {
    const port = await closedPort();
    const result = await runCli(['crawl', `http://127.0.0.1:${port}/`, '--agent', 'ExampleBot']);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `polite: cannot crawl http://127.0.0.1:${port}/: robots.txt unreachable (connection refused); nothing was requested\n`,
    );
  });
});
