/**
 * The site `polite crawl` is run against in crawl.test.ts and crawl-cases.test.ts (each file
 * starts its own), and the command line those files run.
 */
import { CLI_DEFAULTS } from '@polite-crawler/cli';
import { redirect, routes, send, startServer, status } from '../../helpers/recording-server.js';
import type { RecordingServer } from '../../helpers/recording-server.js';

export const html = (body: string, head = ''): string =>
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

/** `crawl <url> --agent ExampleBot --delay 0 …flags`: no spacing unless the flags ask. */
export function crawlArgs(url: string, flags: readonly string[] = []): string[] {
  return ['crawl', url, '--agent', 'ExampleBot', '--delay', '0', ...flags];
}

/** The crawled site and the partner origin it links to (whose robots.txt answers 503). */
export interface CrawlSites {
  readonly site: RecordingServer;
  readonly partner: RecordingServer;
  close(): Promise<void>;
}

/**
 * Starts the site: robots.txt with a Disallow and `Crawl-delay: 1`, links of every kind from `/`
 * (nofollow, denied, noindex, missing, a denied redirect, off-site, the partner, pages that end
 * at and just past the CLI's HTML limit). Arrivals are stamped on the wall clock: the CLI paces on
 * the real one (in a process of its own in crawl.test.ts).
 */
export async function startCrawlSites(): Promise<CrawlSites> {
  const partner = await startServer(
    routes({ '/robots.txt': status(503), '/': send(html('partner')) }),
  );
  const site = await startServer(
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
  return {
    site,
    partner,
    async close() {
      await Promise.all([site.close(), partner.close()]);
    },
  };
}
