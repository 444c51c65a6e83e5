import { parseRobotsTxt } from '@polite-crawler/robots-txt';
import type { DemoRequest } from './demo-site.js';
import { DEMO_AGENT, demoRobotsTxt } from './demo-pages.js';

/** What the demo servers saw, judged against the rules the crawler had to follow. */
export interface ServerLogCheck {
  readonly requestsA: number;
  readonly requestsB: number;
  readonly robotsTxtRequests: number;
  /** Requests the rules forbid: a path the demo robots.txt disallows, anything but robots.txt on B, a nofollow-only page. */
  readonly violations: readonly DemoRequest[];
}

// Pages reachable only through rel=nofollow links or from a nofollow page.
const NOFOLLOW_ONLY = new Set(['/login', '/hidden-by-nofollow']);

/**
 * Checks the demo servers' log independently of the crawler: every path requested from A
 * is matched against the demo robots.txt (parsed afresh) for the demo agent; B's robots.txt
 * answers 503, so only `/robots.txt` may be requested there.
 *
 * @example
 * ```ts
 * checkServerLog(site.requests).violations.length; // 0
 * ```
 */
export function checkServerLog(requests: readonly DemoRequest[]): ServerLogCheck {
  const robots = parseRobotsTxt(demoRobotsTxt());
  const violations = requests.filter((request) => {
    if (request.path === '/robots.txt') return false;
    if (request.site === 'B') return true;
    return NOFOLLOW_ONLY.has(request.path) || !robots.isAllowed(request.path, DEMO_AGENT);
  });
  return {
    requestsA: requests.filter((request) => request.site === 'A').length,
    requestsB: requests.filter((request) => request.site === 'B').length,
    robotsTxtRequests: requests.filter((request) => request.path === '/robots.txt').length,
    violations,
  };
}
