import { describe, expect, it } from 'vitest';
import * as api from '@polite-crawler/fetch';
import {
  ERROR_CODES,
  RobotsClosedError,
  RobotsUnsupportedNodeError,
  RobotsDeniedError,
  RobotsInvalidOptionError,
  RobotsInvalidUrlError,
  RobotsNoIndexError,
  RobotsRedirectError,
  RobotsTooManyRedirectsError,
  RobotsUsageError,
  isRobotsClosedError,
  isRobotsUnsupportedNodeError,
  isRobotsDeniedError,
  isRobotsInvalidOptionError,
  isRobotsInvalidUrlError,
  isRobotsNoIndexError,
  isRobotsRedirectError,
  isRobotsTooManyRedirectsError,
  isRobotsUsageError,
} from '@polite-crawler/fetch';
import type { Decision, RobotsDirectives, UsagePreferences } from '@polite-crawler/fetch';

const decision: Decision = {
  allowed: false,
  url: 'https://example.com/private',
  origin: 'https://example.com',
  reason: 'disallowed',
  rule: {
    kind: 'disallow',
    pattern: '/private',
    normalizedPattern: '/private',
    line: 4,
    text: 'Disallow: /private',
  },
  line: 4,
  robotsStatus: 'ok',
  stale: false,
};
const directives = { noindex: true, rules: [] } as unknown as RobotsDirectives;
const usage: UsagePreferences = {
  'train-ai': 'disallowed',
  'ai-use': 'unknown',
  search: 'allowed',
  sources: {
    'train-ai': [
      { kind: 'content-usage-rule', line: 3, pattern: '/', text: 'Content-Usage: / train-ai=n' },
      { kind: 'content-usage-field' },
    ],
    'ai-use': [],
    search: [{ kind: 'content-usage-field' }],
  },
  extensions: [],
};

/** One instance of every error class, with its guard. */
const samples: [Error & { code: string }, (value: unknown) => boolean][] = [
  [new RobotsDeniedError({ reason: 'disallowed', decision }), isRobotsDeniedError],
  [
    new RobotsNoIndexError({ url: 'https://example.com/a', status: 200, directives }),
    isRobotsNoIndexError,
  ],
  [
    new RobotsUsageError({
      url: 'https://example.com/a',
      status: 200,
      categories: ['train-ai'],
      usage,
    }),
    isRobotsUsageError,
  ],
  [
    new RobotsTooManyRedirectsError({
      url: 'https://example.com/a',
      redirects: [],
      maxRedirects: 0,
    }),
    isRobotsTooManyRedirectsError,
  ],
  [
    new RobotsRedirectError({
      url: 'https://example.com/a',
      reason: 'invalid-location',
      location: 'http://[',
      status: 301,
    }),
    isRobotsRedirectError,
  ],
  [new RobotsInvalidOptionError('concurrency', 0, 'an integer'), isRobotsInvalidOptionError],
  [new RobotsInvalidUrlError('ftp://x', 'not http(s)'), isRobotsInvalidUrlError],
  [new RobotsClosedError(), isRobotsClosedError],
  [new RobotsUnsupportedNodeError('v20.19.0', '^22.19.0'), isRobotsUnsupportedNodeError],
];

describe('error classes', () => {
  it('each has a literal name, a stable code from ERROR_CODES, and a working guard', () => {
    expect(samples.map(([error]) => error.code).sort()).toEqual([...ERROR_CODES].sort());
    for (const [error, guard] of samples) {
      expect(error.name).toBe(error.constructor.name);
      expect(guard(error)).toBe(true);
      for (const [other] of samples) if (other !== error) expect(guard(other)).toBe(false);
      expect(guard(new Error(error.message))).toBe(false);
      expect(guard(null)).toBe(false);
      expect(guard('ERR')).toBe(false);
    }
  });

  it('guards recognise errors from another copy of the package (Symbol.for brand)', () => {
    const foreign = Object.defineProperty(
      new Error('from a duplicate install'),
      Symbol.for('polite-crawler.RobotsDeniedError'),
      {
        value: true,
      },
    );
    expect(isRobotsDeniedError(foreign)).toBe(true);
    expect(isRobotsNoIndexError(foreign)).toBe(false);
    // instanceof too (Symbol.hasInstance checks the brand, as undici's errors do).
    expect(foreign instanceof RobotsDeniedError).toBe(true);
    expect(foreign instanceof RobotsNoIndexError).toBe(false);
  });

  it('one base: every error is a PoliteError with its code; the fetch-like ones stay TypeErrors', () => {
    for (const [error] of samples) {
      expect(error).toBeInstanceOf(api.PoliteError);
      expect(error.code).toMatch(/^ERR_ROBOTS_/);
    }
    expect(new Error('plain')).not.toBeInstanceOf(api.PoliteError);
    expect(
      new RobotsRedirectError({
        url: 'https://a.example/',
        reason: 'invalid-location',
        status: 301,
      }),
    ).toBeInstanceOf(TypeError);
    expect(new RobotsClosedError()).not.toBeInstanceOf(TypeError);
  });

  it('carries the fields callers branch on, and says what failed and why', () => {
    const denied = new RobotsDeniedError({
      reason: 'redirect-disallowed',
      decision,
      originalUrl: 'https://a.example/',
    });
    expect(denied).toMatchObject({
      url: decision.url,
      origin: decision.origin,
      line: 4,
      originalUrl: 'https://a.example/',
    });
    expect(denied.message).toBe(
      'Redirect refused by robots.txt: https://example.com/private (redirected from https://a.example/; disallowed by line 4 "Disallow: /private")',
    );
    const unreachable = new RobotsDeniedError({
      reason: 'unreachable',
      decision: { ...decision, reason: 'unreachable' },
    });
    expect(unreachable.message).toBe(
      'Request denied by robots.txt: https://example.com/private (robots.txt of https://example.com is unreachable)',
    );
    expect(
      new RobotsUsageError({
        url: 'https://example.com/a',
        status: 200,
        categories: ['train-ai'],
        usage,
      }).message,
    ).toBe(
      'Page refused by its usage preferences: https://example.com/a (train-ai disallowed by robots.txt line 3 and Content-Usage field)',
    );
    const cause = new Error('bad');
    expect(new RobotsInvalidUrlError('x', 'not a URL', cause).cause).toBe(cause);
    expect(
      new RobotsRedirectError({
        url: 'https://e.x/',
        reason: 'invalid-location',
        status: 302,
        cause,
      }).cause,
    ).toBe(cause);
  });
});
