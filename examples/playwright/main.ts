/**
 * Plain Playwright with every navigation and subresource gated by robots.txt. It starts a local
 * site of its own (no internet needed), browses it with Chromium, and prints what the browser
 * fetched, what it was refused and why, and the robots directives of each page.
 *
 *   pnpm exec tsx examples/playwright/main.ts
 *
 * Uses the Chromium at CHROMIUM_PATH (default: Debian's /usr/bin/chromium).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import { createPlaywrightGate } from '@polite-crawler/playwright';

// --- A local site: robots.txt, a page with a disallowed image, a redirect into /private/ -----
const pages: Record<string, { status?: number; headers?: Record<string, string>; body?: string }> =
  {
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    },
    '/': {
      body: '<title>Home</title><img src="/logo.png"><img src="/private/tracker.png"><script src="/private/stats.js"></script>',
    },
    '/logo.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
    '/article': {
      headers: { 'x-robots-tag': 'nosnippet' },
      body: '<head><title>Article</title><script>document.head.append(Object.assign(document.createElement("meta"), { name: "robots", content: "noindex" }))</script></head>',
    },
    '/old': { status: 301, headers: { location: '/article' } },
    '/login': { status: 302, headers: { location: '/private/login' } },
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

// --- The browser, gated -----------------------------------------------------------------------
const policy = createRobotsPolicy({
  userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
  minInterval: 50,
});
const gate = createPlaywrightGate({
  policy,
  onEvent: (event) => {
    if (event.type === 'request-served') {
      const hops = event.redirects.length > 0 ? ` via ${event.redirects.join(' → ')}` : '';
      console.log(`fetched  ${event.url} ${event.status}${hops}`);
    } else if (event.type === 'request-denied') {
      const { error } = event;
      const hop = error.reason === 'redirect-disallowed' ? ` (redirect to ${error.url})` : '';
      console.log(
        `refused  ${event.url}${hop} — robots.txt line ${error.line}: Disallow: ${error.rule?.pattern}`,
      );
    }
  },
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
// Service workers would serve requests the route cannot see: block them.
const context = await browser.newContext({ userAgent: policy.userAgent, serviceWorkers: 'block' });
await gate.attach(context);

for (const path of ['/', '/old', '/login']) {
  const page = await context.newPage();
  try {
    const response = await page.goto(`${origin}${path}`, { waitUntil: 'load' });
    if (response === null) continue;
    const { directives, url } = await gate.robots(response);
    const flags = (['noindex', 'nofollow', 'nosnippet'] as const).filter(
      (name) => directives[name],
    );
    console.log(
      `page     ${origin}${path} → ${url} "${await page.title()}" [${flags.join(', ') || 'no directives'}]`,
    );
  } catch {
    const refusal = gate.deniedNavigation(page);
    console.log(
      `page     ${origin}${path} — not loaded: ${refusal?.message ?? 'navigation failed'}`,
    );
  } finally {
    await page.close();
  }
}

await browser.close();
await policy.close();
site.close();
console.log('done');
