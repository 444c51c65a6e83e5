/**
 * The examples of RFC 9309 (../shared/spec/rfc9309-robots-exclusion-protocol.md) and of the
 * user-agent-purpose draft (../shared/spec/draft-illyes-rep-purpose-00.md), as tests.
 */
import { describe, expect, it } from 'vitest';
import { normalizePattern, parseRobotsTxt, toMatchPath } from '@polite-crawler/robots-txt';

describe('RFC 9309 §5.1 simple example', () => {
  const robots = parseRobotsTxt(
    [
      'User-Agent: *',
      'Disallow: *.gif$',
      'Disallow: /example/',
      'Allow: /publications/',
      '',
      'User-Agent: foobot',
      'Disallow:/',
      'Allow:/example/page.html',
      'Allow:/example/allowed.gif',
      '',
      'User-Agent: barbot',
      'User-Agent: bazbot',
      'Disallow: /example/page.html',
      '',
      'User-Agent: quxbot',
      '',
    ].join('\n'),
  );
  const base = 'https://www.example.com';

  it.each([
    ['/publications/', true],
    ['/publications/report.html', true],
    ['/example/', false],
    ['/example/page.html', false],
    ['/images/cat.gif', false],
    ['/cat.gif', false],
    ['/cat.gif?size=big', true], // '$' anchors: the query follows '.gif'
    ['/publications/cat.gif', true], // Allow: /publications/ (14 octets) beats *.gif$ (6)
    ['/other', true],
  ])('* group (for an unnamed crawler): %s → %s', (path, allowed) => {
    expect(robots.isAllowed(base + path, 'ExampleBot')).toBe(allowed);
    expect(robots.explain(base + path, 'ExampleBot').selection).toBe('global');
  });

  it.each([
    ['/example/page.html', true],
    ['/example/allowed.gif', true],
    ['/example/other.html', false],
    ['/', false],
    ['/publications/', false],
  ])('foobot (rules without the optional space): %s → %s', (path, allowed) => {
    expect(robots.isAllowed(base + path, 'foobot')).toBe(allowed);
    expect(robots.explain(base + path, 'FooBot').selection).toBe('product');
  });

  it.each(['barbot', 'bazbot', 'BazBot'])('%s shares the barbot/bazbot group', (agent) => {
    expect(robots.isAllowed(`${base}/example/page.html`, agent)).toBe(false);
    expect(robots.isAllowed(`${base}/example/other.html`, agent)).toBe(true);
    expect(robots.isAllowed(`${base}/cat.gif`, agent)).toBe(true);
    expect(robots.forAgent(agent).groupLines).toEqual([11, 12]);
  });

  it('quxbot: an empty group at the end allows everything', () => {
    const verdict = robots.explain(`${base}/example/page.html`, 'quxbot');
    expect(verdict).toMatchObject({
      allowed: true,
      reason: 'no-matching-rule',
      selection: 'product',
    });
    expect(verdict.groupLines).toEqual([15]);
  });
});

describe('RFC 9309 §5.2 longest match', () => {
  const robots = parseRobotsTxt(
    'User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n',
  );

  it('the longer disallow rule decides for the .gif', () => {
    const verdict = robots.explain('https://example.com/example/page/disallowed.gif', 'foobot');
    expect(verdict.allowed).toBe(false);
    expect(verdict.rule).toEqual({
      kind: 'disallow',
      pattern: '/example/page/disallowed.gif',
      normalizedPattern: '/example/page/disallowed.gif',
      line: 3,
      text: 'Disallow: /example/page/disallowed.gif',
    });
  });

  it('the allow rule decides for the rest of the directory', () => {
    expect(robots.explain('https://example.com/example/page/other.gif', 'foobot').rule?.line).toBe(
      2,
    );
  });
});

describe('RFC 9309 §2.2.1 merging and the * fallback', () => {
  it('merges two groups that name the same product token', () => {
    const robots = parseRobotsTxt(
      'user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n',
    );
    for (const path of ['/foo', '/bar', '/baz']) {
      expect(robots.isAllowed(`https://example.com${path}`, 'ExampleBot')).toBe(false);
    }
    expect(robots.forAgent('ExampleBot').groupLines).toEqual([1, 5]);
  });

  it('uses * when no group names the crawler', () => {
    const robots = parseRobotsTxt(
      'user-agent: *\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: BazBot\ndisallow: /baz\n',
    );
    expect(robots.isAllowed('https://example.com/foo', 'ExampleBot')).toBe(false);
    expect(robots.isAllowed('https://example.com/baz', 'ExampleBot')).toBe(true);
  });
});

describe('RFC 9309 §2.2.2 percent-encoding table', () => {
  // | Path | Encoded Path | Path to Match |
  it.each([
    ['/foo/bar?baz=quz', '/foo/bar?baz=quz'],
    ['/foo/bar?baz=https%3A%2F%2Ffoo.bar', '/foo/bar?baz=https%3A%2F%2Ffoo.bar'],
    ['/foo/bar/ツ', '/foo/bar/%E3%83%84'], // the RFC's "U+E38384" is the UTF-8 of U+30C4
    ['/foo/bar/%E3%83%84', '/foo/bar/%E3%83%84'],
    ['/foo/bar/%62%61%7A', '/foo/bar/baz'],
  ])('URL %s is matched as %s', (path, expected) => {
    expect(toMatchPath(`https://example.com${path}`)).toBe(expected);
    expect(toMatchPath(path)).toBe(expected);
  });

  it.each([
    ['/foo/bar?baz=https://foo.bar', '/foo/bar?baz=https://foo.bar'],
    ['/foo/bar/ツ', '/foo/bar/%E3%83%84'],
    ['/foo/bar/%e3%83%84', '/foo/bar/%E3%83%84'],
    ['/foo/bar/%62%61%7A', '/foo/bar/baz'],
  ])('pattern %s is normalised to %s', (pattern, expected) => {
    expect(normalizePattern(pattern)).toBe(expected);
  });

  it('an encoded reserved character stays encoded: %3A does not match ":"', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /a%3Ab\n');
    expect(robots.isAllowed('https://example.com/a:b', 'ExampleBot')).toBe(true);
    expect(robots.isAllowed('https://example.com/a%3ab', 'ExampleBot')).toBe(false);
  });

  it('matches every row of the table both ways (pattern written raw or encoded)', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\nDisallow: /\nAllow: /foo/bar/ツ\nAllow: /foo/bar/%62%61%7A\n',
    );
    expect(robots.isAllowed('https://example.com/foo/bar/%E3%83%84', 'ExampleBot')).toBe(true);
    expect(robots.isAllowed('https://example.com/foo/bar/ツ', 'ExampleBot')).toBe(true);
    expect(robots.isAllowed('https://example.com/foo/bar/baz', 'ExampleBot')).toBe(true);
    expect(robots.isAllowed('https://example.com/foo/bar/%62%61%7a', 'ExampleBot')).toBe(true);
    expect(robots.isAllowed('https://example.com/foo/bar/qux', 'ExampleBot')).toBe(false);
  });
});

describe('RFC 9309 §2.2.3 special characters', () => {
  it('"%2A" in a pattern matches a literal "*" in the URL, and nothing else', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /path/file-with-a-%2A.html\n');
    expect(robots.isAllowed('https://www.example.com/path/file-with-a-*.html', 'ExampleBot')).toBe(
      false,
    );
    expect(
      robots.isAllowed('https://www.example.com/path/file-with-a-%2a.html', 'ExampleBot'),
    ).toBe(false);
    expect(robots.isAllowed('https://www.example.com/path/file-with-a-x.html', 'ExampleBot')).toBe(
      true,
    );
  });

  it('"%24" in a pattern matches a literal "$" in the URL and is no anchor', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /path/foo-%24\n');
    expect(robots.isAllowed('https://www.example.com/path/foo-$', 'ExampleBot')).toBe(false);
    expect(robots.isAllowed('https://www.example.com/path/foo-$/more', 'ExampleBot')).toBe(false);
    expect(robots.isAllowed('https://www.example.com/path/foo-', 'ExampleBot')).toBe(true);
  });

  it('"#" starts a comment, "$" anchors, "*" matches any run', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\nDisallow: / # comment in line\n# comment on its own line\nAllow: /this/path/exactly$\nAllow: /this/*/exactly\n',
    );
    expect(robots.isAllowed('https://example.com/this/path/exactly', 'ExampleBot')).toBe(true);
    expect(robots.isAllowed('https://example.com/this/a/b/exactly', 'ExampleBot')).toBe(true);
    expect(robots.isAllowed('https://example.com/this/path/exactly/not', 'ExampleBot')).toBe(true); // via /this/*/exactly
    expect(robots.isAllowed('https://example.com/this/path/exact', 'ExampleBot')).toBe(false);
  });
});

describe('user-agent-purpose draft example', () => {
  const robots = parseRobotsTxt(
    [
      '# robots.txt with purpose',
      '# FooBot and all bots that are crawling for EXAMPLE-PURPOSE-1 are disallowed.',
      'User-Agent: FooBot',
      'User-Agent-Purpose: EXAMPLE-PURPOSE-1',
      'Disallow: /',
      '# EXAMPLE-PURPOSE-2 crawlers are allowed.',
      'User-Agent-Purpose: EXAMPLE-PURPOSE-2',
    ].join('\n'),
  );
  const url = 'https://example.com/page';

  it('FooBot is disallowed whatever its purpose', () => {
    expect(robots.explain(url, 'FooBot')).toMatchObject({ allowed: false, selection: 'product' });
    expect(robots.isAllowed(url, { productToken: 'FooBot', purpose: 'EXAMPLE-PURPOSE-2' })).toBe(
      false,
    );
  });

  it('a crawler for EXAMPLE-PURPOSE-1 is disallowed', () => {
    const verdict = robots.explain(url, { productToken: 'BarBot', purpose: 'EXAMPLE-PURPOSE-1' });
    expect(verdict).toMatchObject({ allowed: false, selection: 'purpose', reason: 'rule' });
    expect(verdict.groupLines).toEqual([3, 4]);
    expect(verdict.rule?.line).toBe(5);
  });

  it('purpose tokens are compared case-insensitively', () => {
    expect(robots.isAllowed(url, { productToken: 'BarBot', purpose: 'example-purpose-1' })).toBe(
      false,
    );
  });

  it('a crawler for EXAMPLE-PURPOSE-2 is allowed (its group has no rules)', () => {
    const verdict = robots.explain(url, { productToken: 'BarBot', purpose: 'EXAMPLE-PURPOSE-2' });
    expect(verdict).toMatchObject({
      allowed: true,
      selection: 'purpose',
      reason: 'no-matching-rule',
    });
    expect(verdict.groupLines).toEqual([7]);
  });

  it('other crawlers find no group and no * group: allowed', () => {
    expect(
      robots.explain(url, { productToken: 'BarBot', purpose: 'EXAMPLE-PURPOSE-3' }),
    ).toMatchObject({
      allowed: true,
      selection: 'none',
      reason: 'no-applicable-group',
    });
    expect(robots.explain(url, 'BarBot').selection).toBe('none');
  });
});
