import { describe, expect, it } from 'vitest';
import { REDIRECT_STATUSES, isRobotsRedirectError, nextRedirectHop } from '@polite-crawler/fetch';
import type { RedirectingRequest } from '@polite-crawler/fetch';
import { thrown } from './helpers/thrown.js';

const BODY_HEADERS = [
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
  'content-length',
];
const ORIGIN_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'host'];

const from = (method: string, url = 'https://a.test/form', replayableBody = true) =>
  ({ url: new URL(url), method, replayableBody }) satisfies RedirectingRequest;

describe('REDIRECT_STATUSES', () => {
  it.each([301, 302, 303, 307, 308])('%i is followed', (status) => {
    expect(REDIRECT_STATUSES.has(status)).toBe(true);
  });
  it.each([200, 300, 304, 305, 306, 309, 399])('%i is a final response', (status) => {
    expect(REDIRECT_STATUSES.has(status)).toBe(false);
  });
});

describe('nextRedirectHop: method and body', () => {
  it.each([
    // status, method, next method, body kept
    [301, 'POST', 'GET', false],
    [302, 'POST', 'GET', false],
    [301, 'post', 'GET', false],
    [301, 'PUT', 'PUT', true],
    [302, 'DELETE', 'DELETE', true],
    [301, 'GET', 'GET', true],
    [303, 'POST', 'GET', false],
    [303, 'PUT', 'GET', false],
    [303, 'patch', 'GET', false],
    [303, 'GET', 'GET', true],
    [303, 'HEAD', 'HEAD', true],
    [303, 'head', 'head', true],
    [307, 'POST', 'POST', true],
    [308, 'PUT', 'PUT', true],
    [307, 'GET', 'GET', true],
  ])('%i after %s → %s (body kept: %s)', (status, method, nextMethod, keepBody) => {
    const hop = nextRedirectHop(from(method), status, '/done');
    expect(hop.method).toBe(nextMethod);
    expect(hop.keepBody).toBe(keepBody);
    expect(hop.dropHeaders).toEqual(keepBody ? [] : BODY_HEADERS);
  });

  it('lets a body that cannot be replayed go when the hop becomes a GET', () => {
    const hop = nextRedirectHop(from('POST', undefined, false), 303, '/done');
    expect(hop).toMatchObject({ method: 'GET', keepBody: false });
  });
});

describe('nextRedirectHop: headers across origins', () => {
  it.each([
    ['same origin', '/next', []],
    ['another host', 'https://b.test/next', ORIGIN_HEADERS],
    ['another port', 'https://a.test:8443/next', ORIGIN_HEADERS],
    ['another scheme', 'http://a.test/next', ORIGIN_HEADERS],
  ])('307 to %s drops %j', (_, location, dropped) => {
    expect(nextRedirectHop(from('POST'), 307, location).dropHeaders).toEqual(dropped);
  });

  it('drops the body headers and the origin headers when a POST goes GET to another origin', () => {
    const hop = nextRedirectHop(from('POST'), 302, 'https://b.test/next');
    expect(hop.dropHeaders).toEqual([...BODY_HEADERS, ...ORIGIN_HEADERS]);
    expect(hop.keepBody).toBe(false);
  });
});

describe('nextRedirectHop: Location', () => {
  it.each([
    ['/done', 'https://a.test/done'],
    ['next', 'https://a.test/next'],
    ['?q=1', 'https://a.test/form?q=1'],
    ['//b.test/x', 'https://b.test/x'],
    ['http://b.test:8080/y#part', 'http://b.test:8080/y#part'],
  ])('resolves %s against the redirecting URL', (location, href) => {
    expect(nextRedirectHop(from('GET'), 302, location).url.href).toBe(href);
  });

  it('does not carry the fragment over (the fetch wrapper does that itself)', () => {
    const hop = nextRedirectHop(from('GET', 'https://a.test/form#top'), 302, '/done');
    expect(hop.url.href).toBe('https://a.test/done');
  });
});

describe('nextRedirectHop: errors', () => {
  it.each([
    ['http://[::1', 'invalid-location'],
    ['https://a b.test/', 'invalid-location'],
    ['ftp://a.test/file', 'unsupported-scheme'],
    ['javascript:alert(1)', 'unsupported-scheme'],
    ['data:text/plain,x', 'unsupported-scheme'],
  ])('%s → %s', (location, reason) => {
    const error = thrown(() => nextRedirectHop(from('GET'), 301, location));
    expect(isRobotsRedirectError(error)).toBe(true);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({
      code: 'ERR_ROBOTS_REDIRECT',
      reason,
      url: 'https://a.test/form',
      location,
      status: 301,
    });
  });

  it('keeps the parse failure as the cause of invalid-location', () => {
    const error = thrown(() => nextRedirectHop(from('GET'), 302, 'http://[::1'));
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it.each([307, 308, 301])('refuses to resend an unreplayable %s body', (status) => {
    const error = thrown(() => nextRedirectHop(from('PUT', undefined, false), status, '/next'));
    expect(error).toMatchObject({ reason: 'unreplayable-body', status, location: '/next' });
  });
});
