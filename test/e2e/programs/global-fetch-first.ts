/**
 * A program that uses Node's built-in fetch before it loads the polite fetch, then crawls a
 * local page with it. Printed as one JSON line for fetch-default-dispatcher.test.ts.
 *
 * Node 20 and 22 then hold their bundled undici 6 Agent as the global dispatcher; the polite
 * fetch must not send its undici 7 handlers to it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const site = createServer((req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
  res
    .writeHead(200, { 'content-type': 'text/html' })
    .end('<head><meta name="robots" content="noindex"></head><p>hello</p>');
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

// The built-in fetch, first: this is what registers Node's own Agent as the global dispatcher.
await (await globalThis.fetch(`${origin}/robots.txt`)).text();

const undici = await import('undici');
// The package by its name: tsx resolves it to the sources through the repository's tsconfig
// `paths`, as vitest's alias does.
const { createPoliteFetch } = await import('@polite-crawler/fetch');
const politeFetch = createPoliteFetch({
  userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
  minInterval: 0,
});
const response = await politeFetch(`${origin}/page`);
console.log(
  JSON.stringify({
    globalIsThisUndici: undici.getGlobalDispatcher() instanceof undici.Dispatcher,
    status: response.status,
    noindex: response.robots.noindex,
    body: await response.text(),
  }),
);
await politeFetch.close();
site.close();
