// The local site every smoke program crawls: robots.txt refuses /private/, one page carries an
// X-Robots-Tag header, one a robots <meta>. It records every path it was asked for, so that a
// smoke program can show that a refused URL was never requested.
import { createServer } from 'node:http';

export const ROBOTS_TXT = 'User-agent: *\nDisallow: /private/\n';

const PAGES = {
  '/robots.txt': { type: 'text/plain', body: ROBOTS_TXT },
  '/': {
    body: '<html><head><title>Home</title></head><body><a href="/a">a</a> <a href="/private/x">x</a> <a href="/meta">meta</a></body></html>',
  },
  '/a': {
    headers: { 'x-robots-tag': 'nosnippet' },
    body: '<html><head><title>A</title></head><body><a href="/">home</a></body></html>',
  },
  '/meta': {
    body: '<html><head><meta name="robots" content="noindex"><title>Meta</title></head><body></body></html>',
  },
  '/b': {
    body: '<html><head><title>B</title></head><body><a href="/private/y">y</a></body></html>',
  },
  '/private/x': { body: '<html><head><title>Private</title></head></html>' },
};

/** @returns {Promise<{ origin: string, requested: string[], close(): Promise<void> }>} */
export async function startSite() {
  const requested = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    const page = PAGES[path];
    if (page === undefined) return void res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': page.type ?? 'text/html; charset=utf-8', ...page.headers })
      .end(page.body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    origin: `http://127.0.0.1:${port}`,
    requested,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
