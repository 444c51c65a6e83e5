/**
 * `pageRobots(policy, page)`: the one computation of a page's directives and usage, as the
 * polite fetch and the adapters use it, against a real site's robots.txt on a loopback server.
 */
import { describe, expect, it } from 'vitest';
import { createRobotsPolicy, pageRobots } from '@polite-crawler/fetch';
import { parseRobotsMetaContent } from '@polite-crawler/robots-tag';
import { routes } from '../helpers/recording-server.js';
import { USER_AGENT, localAgent, useRigs } from '../fetch/helpers/setup.js';
import { FakeClock } from '../fetch/helpers/fake-clock.js';

const { server, defer } = useRigs();

async function site() {
  const s = await server(
    routes({
      '/robots.txt': { body: 'User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n' },
    }),
  );
  const agent = localAgent();
  const policy = createRobotsPolicy({
    userAgent: USER_AGENT,
    dispatcher: agent,
    clock: new FakeClock(),
  });
  defer(
    () => agent.close(),
    () => policy.close(),
  );
  await policy.prefetch(s.origin);
  return { origin: s.origin, policy };
}

describe('pageRobots', () => {
  it('reads every field line apart, metas, robots.txt usage and the Content-Usage field together', async () => {
    const { origin, policy } = await site();
    const page = pageRobots(policy, {
      url: `${origin}/a`,
      headers: [
        ['X-Robots-Tag', 'unavailable_after: Sat, 01 Jan 2000 00:00:00 GMT'],
        ['x-robots-tag', 'nosnippet'],
        ['content-usage', 'search=y'],
      ],
      metas: parseRobotsMetaContent('robots', 'nofollow'),
    });
    expect(page.directives).toMatchObject({
      noindex: true,
      noindexReason: 'unavailable_after',
      nosnippet: true,
      nofollow: true,
    });
    expect(page.directives.freshness).toBeUndefined();
    expect(page.usage).toMatchObject({ 'train-ai': 'disallowed', search: 'allowed' });
  });

  it('carries the freshness the response declares, and reads the field alone for a URL without robots.txt', async () => {
    const { policy } = await site();
    const page = pageRobots(policy, {
      url: 'about:blank',
      headers: { 'cache-control': 'max-age=60', 'content-usage': 'train-ai=y' },
    });
    expect(page.directives.freshness).toMatchObject({ source: 'max-age', lifetimeSeconds: 60 });
    expect(page.usage['train-ai']).toBe('allowed');
  });

  it('is what policy.directives and policy.usage say for the same page', async () => {
    const { origin, policy } = await site();
    const headers = { 'x-robots-tag': ['noindex', 'noarchive'], 'content-usage': 'ai-use=n' };
    const url = `${origin}/b`;
    const page = pageRobots(policy, { url, headers });
    expect(page.directives).toEqual(policy.directives(headers));
    expect(page.usage).toEqual(policy.usage(url, headers));
  });
});
