/** The bodies both fetch benchmarks serve, so that the two measure the same responses. */

/** robots.txt: two groups, a few rules and a sitemap. */
export const BENCH_ROBOTS = [
  'User-agent: *',
  'Disallow: /private/',
  'Disallow: /search',
  'Allow: /search/about',
  'Crawl-delay: 0',
  '',
  'User-agent: OtherBot',
  'Disallow: /',
  '',
  'Sitemap: https://example.com/sitemap.xml',
  '',
].join('\n');

/** A text/plain page of 1 KiB. */
export const BENCH_PAGE = 'x'.repeat(1024);

/** A text/html page of about 4 KiB with one robots meta in a short head. */
export const BENCH_HTML =
  '<!doctype html><html><head><title>t</title><meta name="robots" content="nosnippet"></head><body>' +
  'y'.repeat(4096) +
  '</body></html>';
