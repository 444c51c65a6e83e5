/**
 * The site and the command line of the `polite crawl --redis` tests (cli-crawl.test.ts, which
 * runs the bin and times the arrivals, and cli-crawl-options.test.ts).
 */
import type { RedisRig } from './redis-rig.js';
import type { Site } from './site.js';

/** The crawl's `--delay`, ms. */
export const DELAY = 300;
/** The pages the start page links to (and `/private/x`, which robots.txt disallows). */
export const PAGES = ['/a', '/b', '/c', '/d'];

const html = (body: string): { headers: Record<string, string>; body: string } => ({
  headers: { 'content-type': 'text/html' },
  body: `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`,
});

/** One origin: robots.txt disallows /private/, `/` links to {@link PAGES} and /private/x. */
export function startLinkedSite(rig: RedisRig): Promise<Site> {
  return rig.startSite(1, (path) => {
    if (path === '/robots.txt') return { body: 'User-agent: *\nDisallow: /private/\n' };
    if (path === '/') {
      const links = [...PAGES, '/private/x'].map((p) => `<a href="${p}">${p}</a>`).join(' ');
      return { ...html(links), holdMs: 20 };
    }
    return { ...html('page'), holdMs: 20 };
  });
}

/** `crawl <start> --agent FleetBot --delay DELAY --json …flags`. */
export function fleetCrawlArgs(start: string, flags: readonly string[]): string[] {
  return ['crawl', start, '--agent', 'FleetBot', '--delay', String(DELAY), '--json', ...flags];
}
