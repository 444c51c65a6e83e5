/**
 * undici's fast `request()` made polite: one Agent composed with `politeInterceptor` (and
 * undici's own redirect interceptor outside it, so that every hop is gated). It starts a local
 * site of its own (no internet needed), requests a few URLs, and prints what happened.
 *
 *   pnpm exec tsx examples/interceptor/main.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, interceptors, request } from 'undici';
import { isRobotsDeniedError, politeInterceptor } from '@polite-crawler/fetch';

// --- A local site: robots.txt, a page with a Robots-Tag, a redirect into a disallowed area ----
const site = createServer((req, res) => {
  if (req.url === '/robots.txt') return void res.end('User-agent: *\nDisallow: /private/\n');
  if (req.url === '/login') return void res.writeHead(302, { location: '/private/login' }).end();
  if (req.url === '/article') return void res.writeHead(200, { 'x-robots-tag': 'noindex' }).end();
  res.end(`seen by ${req.headers['user-agent']}`);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

// --- The polite dispatcher --------------------------------------------------------------------
const polite = politeInterceptor({
  userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
  minInterval: 100, // a local demo; the default waits 1 s between requests to an origin
});
const dispatcher = new Agent().compose(polite, interceptors.redirect({ maxRedirections: 5 }));

for (const path of ['/', '/article', '/private/admin', '/login']) {
  const url = `${origin}${path}`;
  try {
    const { statusCode, headers, body } = await request(url, { dispatcher });
    // The directives of the response headers; robots metas in HTML are in its body.
    const { noindex } = polite.policy.directives(headers);
    const text = await body.text(); // read (or destroy) the body: the slot is held until then
    console.log(`fetched  ${url} ${statusCode}${noindex ? ' [noindex]' : ''} ${text}`.trimEnd());
  } catch (error) {
    if (!isRobotsDeniedError(error)) throw error;
    console.log(
      `skipped  ${url} — robots.txt line ${error.line}: Disallow: ${error.rule?.pattern}`,
    );
  }
}

await polite.close();
await dispatcher.close();
site.close();
