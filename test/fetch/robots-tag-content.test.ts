/**
 * Robots-Tag content a page can send that the parser must survive: a polite fetch over a real
 * socket resolves, with the bad member reported by the parser and ignored.
 */
import { describe, expect, it } from 'vitest';
import { routes } from '../helpers/recording-server.js';
import { useRigs } from './helpers/setup.js';

const { server, polite } = useRigs();

describe('X-Robots-Tag content that the parser rejects', () => {
  it.each([
    '*;unavailable_after=@999999999999999',
    '*;unavailable_after=@8640000000001',
    'googlebot=@999999999999999',
    'max-snippet=@999999999999999',
  ])('a page sending %j is fetched; the date is ignored', async (value) => {
    const html = '<!doctype html><head><meta name="robots" content="noarchive"></head><body>x';
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/p': {
          headers: { 'content-type': 'text/html', 'x-robots-tag': [value, 'nofollow'] },
          body: html,
        },
      }),
    );
    const { fetch } = polite();
    const response = await fetch(`${s.origin}/p`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(html);
    expect(response.robots).toMatchObject({ nofollow: true, noarchive: true, noindex: false });
    expect(response.robots.unavailableAfter).toBeUndefined();
    expect(response.robots.maxSnippet).toBeUndefined();
    expect(s.hits('/p')).toHaveLength(1);
  });
});
