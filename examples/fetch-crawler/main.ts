/**
 * A small breadth-first crawler on createPoliteFetch. It starts a local site of its own (no
 * internet needed), crawls it, and prints what it fetched, what it skipped and why.
 *
 *   pnpm exec tsx examples/fetch-crawler/main.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPoliteFetch, isRobotsDeniedError } from '@polite-crawler/fetch';

// --- A local site: robots.txt, pages, a redirect into a disallowed area, a noindex page -----
const pages: Record<string, { status?: number; headers?: Record<string, string>; body?: string }> =
  {
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    },
    '/': {
      body: '<a href="/articles/1">1</a> <a href="/private/admin">admin</a> <a href="/old">old</a> <a href="/drafts">drafts</a> <a href="/login">login</a>',
    },
    '/articles/1': { headers: { 'x-robots-tag': 'nosnippet' }, body: '<a href="/">home</a>' },
    '/old': { status: 301, headers: { location: '/articles/2' } },
    '/articles/2': { body: '<a href="/articles/1">1</a>' },
    '/login': { status: 302, headers: { location: '/private/login' } },
    '/drafts': {
      body: '<head><meta name="robots" content="noindex, nofollow"></head><a href="/drafts/2">next draft</a>',
    },
  };
const site = createServer((req, res) => {
  const page = pages[req.url ?? ''];
  if (page === undefined) return void res.writeHead(404).end();
  res
    .writeHead(page.status ?? 200, { 'content-type': 'text/html', ...page.headers })
    .end(page.body ?? '');
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

// --- The crawler ----------------------------------------------------------------------------
const politeFetch = createPoliteFetch({
  userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
  minInterval: 100, // a local demo; the default waits 1 s between requests to an origin
});

const queue = [`${origin}/`];
const seen = new Set(queue);
while (queue.length > 0) {
  const url = queue.shift()!;
  try {
    const response = await politeFetch(url);
    const { noindex, nofollow, nosnippet } = response.robots;
    const flags = Object.entries({ noindex, nofollow, nosnippet })
      .filter(([, on]) => on)
      .map(([name]) => name);
    const from = response.url === url ? '' : ` (redirected to ${response.url})`;
    console.log(
      `fetched  ${url} ${response.status}${from}${flags.length > 0 ? ` [${flags.join(', ')}]` : ''}`,
    );
    const html = await response.text();
    if (nofollow) continue;
    for (const [, href] of html.matchAll(/href="([^"]+)"/g)) {
      const link = new URL(href!, response.url).href;
      if (!seen.has(link)) {
        seen.add(link);
        queue.push(link);
      }
    }
  } catch (error) {
    if (!isRobotsDeniedError(error)) throw error;
    const rule =
      error.rule === undefined
        ? error.reason
        : `robots.txt line ${error.line}: Disallow: ${error.rule.pattern}`;
    const hop = error.reason === 'redirect-disallowed' ? ` (redirect to ${error.url})` : '';
    console.log(`skipped  ${url}${hop} — ${rule}`);
  }
}

await politeFetch.close();
site.close();
console.log(`done: ${seen.size} URLs seen`);
