/** One response of the demo site. */
export interface DemoResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * The product and purpose tokens the demo crawls as.
 *
 * @example
 * ```ts
 * DEMO_AGENT.productToken; // 'PoliteDemoBot'
 * ```
 */
export const DEMO_AGENT = Object.freeze({
  productToken: 'PoliteDemoBot',
  purpose: 'research',
  userAgent:
    'PoliteDemoBot/1.0 (polite-crawler demo; +https://github.com/polite-crawler/polite-crawler; research)',
});

/**
 * The URL path the demo explains after its crawl.
 *
 * @example
 * ```ts
 * new URL(DEMO_EXPLAINED_PATH, site.originA);
 * ```
 */
export const DEMO_EXPLAINED_PATH = '/private/report';

/**
 * The demo site's robots.txt. The `*` group shuts everyone out; the purpose group lets
 * `research` crawlers in, except for two folders, and asks for a one-second crawl-delay.
 *
 * @example
 * ```ts
 * parseRobotsTxt(DEMO_ROBOTS_TXT).isAllowed('/private/a', { productToken: 'PoliteDemoBot', purpose: 'research' }); // false
 * ```
 */
export const DEMO_ROBOTS_TXT = `# robots.txt of the polite-crawler demo site
User-agent: *
Disallow: /

# Crawlers whose purpose is research may visit, slowly, except for two folders.
User-agent-purpose: research
Allow: /
Disallow: /private/
Disallow: /drafts/
Crawl-delay: 1
# What they may use the articles for (IETF AIPREF): search, not AI training.
Content-Usage: /articles/ train-ai=n, search=y

User-agent: NoisyBot
Disallow: /
`;

const html = (title: string, body: string, head = ''): string =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
${head}</head>
<body>
<h1>${title}</h1>
${body}
</body>
</html>
`;

const page = (
  title: string,
  body: string,
  options: { head?: string; headers?: Record<string, string> } = {},
): DemoResponse => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8', ...options.headers },
  body: html(title, body, options.head),
});

const redirect = (status: number, location: string): DemoResponse => ({
  status,
  headers: { location, 'content-type': 'text/plain; charset=utf-8' },
  body: `Moved to ${location}\n`,
});

/**
 * The pages of the demo site (origin A). `otherOrigin` is origin B, linked from the home
 * page. Paths under `/private/` and `/drafts/` exist (they answer 200) so that a request
 * to them would show up: the demo checks that none was made.
 *
 * @example
 * ```ts
 * demoSitePage('/', 'http://127.0.0.1:8081')?.status; // 200
 * ```
 */
export function demoSitePage(path: string, otherOrigin: string): DemoResponse | undefined {
  if (path.startsWith('/private/') || path.startsWith('/drafts/')) {
    return page('Secret', '<p>A crawler that reads robots.txt never sees this page.</p>');
  }
  switch (path) {
    case '/robots.txt':
      return {
        status: 200,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: DEMO_ROBOTS_TXT,
      };
    case '/':
      return page(
        'Polite demo site',
        `<ul>
<li><a href="/about">About</a></li>
<li><a href="/articles/">Articles</a></li>
<li><a href="/private/report">Private report</a> (disallowed)</li>
<li><a href="/drafts/next-post">Next post</a> (disallowed)</li>
<li><a href="/old-home">Old home</a> (redirects to /welcome)</li>
<li><a href="/moved">Moved</a> (redirects into /private/)</li>
<li><a href="/noindex-header">Header noindex</a></li>
<li><a href="/noindex-meta">Meta noindex</a></li>
<li><a href="/nofollow-meta">Meta nofollow</a></li>
<li><a href="/search?q=polite&amp;page=2#results">Search</a></li>
<li><a href="/missing">Missing page</a></li>
<li><a href="/login" rel="nofollow">Log in</a> (rel=nofollow)</li>
<li><a href="${otherOrigin}/">Partner site</a> (robots.txt answers 503)</li>
<li><a href="https://example.com/">Example</a> (another site: not crawled)</li>
<li><a href="mailto:webmaster@example.com">Mail us</a></li>
<li><a href="#top">Back to top</a></li>
</ul>
<!-- <a href="/commented-out">not a link</a> -->
<script>document.write('<a href="/from-script">not a link either</a>');</script>`,
      );
    case '/about':
      return page(
        'About',
        '<p>A site to show what a polite crawler does.</p><a href="/">Home</a> <a href="/articles/">Articles</a>',
        { headers: { 'content-usage': 'train-ai=n' } },
      );
    case '/articles/':
      return page(
        'Articles',
        '<a href="/articles/first">First</a> <a href="second">Second</a> <a href="/drafts/third">Third (draft)</a>',
      );
    case '/articles/first':
      return page(
        'First article',
        '<p>Allowed and indexable.</p><a href="/articles/">Articles</a>',
      );
    case '/articles/second':
      return page('Second article', '<p>Allowed and indexable.</p><a href="/">Home</a>');
    case '/old-home':
      return redirect(301, '/welcome');
    case '/welcome':
      return page('Welcome', '<p>Reached through a redirect.</p><a href="/">Home</a>');
    case '/moved':
      return redirect(302, '/private/moved');
    case '/noindex-header':
      return page(
        'Not for the index (header)',
        '<p>Sent with X-Robots-Tag: noindex.</p><a href="/articles/second">Second</a>',
        {
          headers: { 'x-robots-tag': 'noindex' },
        },
      );
    case '/noindex-meta':
      return page(
        'Not for the index (meta)',
        '<p>Marked with a robots meta tag.</p><a href="/about">About</a>',
        {
          head: '<meta name="robots" content="noindex">\n',
        },
      );
    case '/nofollow-meta':
      return page(
        'Links not to follow',
        '<p>Its links must not be followed.</p><a href="/hidden-by-nofollow">Hidden</a>',
        {
          head: '<meta name="robots" content="nofollow">\n',
        },
      );
    case '/search?q=polite&page=2':
      return page('Search results', '<p>No results.</p><a href="/">Home</a>');
    case '/login':
    case '/hidden-by-nofollow':
      return page('Not linked for crawlers', '<p>Only reachable through nofollow links.</p>');
    default:
      return undefined;
  }
}

/**
 * The pages of origin B: its robots.txt answers 503, so a polite crawler requests nothing
 * else there (RFC 9309 §2.3.1.4: unreachable means disallow all).
 *
 * @example
 * ```ts
 * partnerSitePage('/robots.txt')?.status; // 503
 * ```
 */
export function partnerSitePage(path: string): DemoResponse | undefined {
  if (path === '/robots.txt') {
    return {
      status: 503,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '120' },
      body: 'Down for maintenance\n',
    };
  }
  if (path === '/')
    return page('Partner site', '<p>A crawler that honours a 503 robots.txt never sees this.</p>');
  return undefined;
}
