import { readFileSync } from 'node:fs';

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
 */
export const DEMO_EXPLAINED_PATH = '/private/report';

/** An entry of `demo-site/site.json`: a file of the folder, or a short body. */
interface PageEntry {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly file?: string;
  readonly body?: string;
}

/** The demo site's pages, shipped as files beside `dist` (`demo-site/`, listed by `site.json`). */
const SITE_DIR = new URL('../../demo-site/', import.meta.url);

const read = (file: string): string => readFileSync(new URL(file, SITE_DIR), 'utf8');

/**
 * The demo site's robots.txt (`demo-site/a/robots.txt`). The `*` group shuts everyone out; the
 * purpose group lets `research` crawlers in, except for two folders, and asks for a one-second
 * crawl-delay.
 *
 * @example
 * ```ts
 * parseRobotsTxt(demoRobotsTxt()).isAllowed('/private/a', { productToken: 'PoliteDemoBot', purpose: 'research' }); // false
 * ```
 */
export function demoRobotsTxt(): string {
  return read('a/robots.txt');
}

/**
 * The pages of the two demo origins, read from `demo-site/`: `A` is the demo site, `B` the
 * partner origin whose robots.txt answers 503 (RFC 9309 §2.3.1.4: a polite crawler requests
 * nothing else there). A key ending in `*` answers every path under it: paths under `/private/`
 * and `/drafts/` exist so that a request to them would show up (the demo checks that none was
 * made). `{{originB}}` in a page is replaced by origin B.
 *
 * @example
 * ```ts
 * demoPages(() => 'http://127.0.0.1:8081').A('/')?.status; // 200
 * ```
 */
export function demoPages(
  originB: () => string,
): Record<'A' | 'B', (path: string) => DemoResponse | undefined> {
  const site = JSON.parse(read('site.json')) as Record<'A' | 'B', Record<string, PageEntry>>;
  const lookup =
    (pages: Record<string, PageEntry>) =>
    (path: string): DemoResponse | undefined => {
      const entry =
        pages[path] ??
        Object.entries(pages).find(
          ([key]) => key.endsWith('*') && path.startsWith(key.slice(0, -1)),
        )?.[1];
      if (entry === undefined) return undefined;
      const location = entry.headers?.['location'];
      const body =
        entry.file !== undefined
          ? read(entry.file).replaceAll('{{originB}}', originB())
          : (entry.body ?? `Moved to ${location ?? ''}\n`);
      const type = entry.file?.endsWith('.html') === true ? 'text/html' : 'text/plain';
      return {
        status: entry.status ?? 200,
        headers: { 'content-type': `${type}; charset=utf-8`, ...entry.headers },
        body,
      };
    };
  return { A: lookup(site.A), B: lookup(site.B) };
}
