/** The robots.txt both fetch benchmarks serve: two groups, a few rules and a sitemap. */
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
