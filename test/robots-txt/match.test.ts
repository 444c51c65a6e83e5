/**
 * Matching: URL → match text, the longest-match rule, special characters, group
 * selection (product > purpose > * > none), verdicts, and typed errors for bad input.
 */
import { describe, expect, it } from 'vitest';
import {
  isRobotsTxtUsageError,
  parseRobotsTxt,
  RobotsTxtUsageError,
  toMatchPath,
  type Agent,
} from '@polite-crawler/robots-txt';

const usageReason = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (error) {
    if (isRobotsTxtUsageError(error)) return error.reason;
    throw error;
  }
  return undefined;
};

describe('toMatchPath', () => {
  it.each([
    ['https://example.com', '/'],
    ['https://example.com/', '/'],
    ['https://example.com?q', '/?q'],
    ['https://example.com#top', '/'],
    ['https://example.com/a/b;p?c=d&e=f#frag', '/a/b;p?c=d&e=f'],
    ['HTTPS://EXAMPLE.COM/A', '/A'],
    ['https://example.com:8443/a', '/a'],
    ['https://user:pw@example.com/a', '/a'],
    ['https://127.0.0.1/a', '/a'],
    ['https://[::1]/a', '/a'],
    ['https://xn--bcher-kva.example/a', '/a'],
    ['https://bücher.example/a', '/a'],
    ['ftp://example.com/a', '/a'],
    ['foo://example.com?x', '/?x'],
    ['https://example.com/a/./b/../c', '/a/c'],
    ['https://example.com/a/%2e%2E/c', '/c'],
    ['https://example.com/a\\b', '/a/b'],
    ['https://example.com/a b', '/a%20b'],
    ['https://example.com/a\tb', '/ab'],
    ['https://example.com/a  ', '/a'],
    // The WHATWG parser escapes ' in a query; %27 is read as ' (README, Normalisation).
    ["https://example.com/?q='x'", "/?q='x'"],
    ['https://example.com/?q=%27x%27', "/?q='x'"],
    ['https://example.com/ツ', '/%E3%83%84'],
    ['https://example.com/%e3%83%84', '/%E3%83%84'],
    ['https://example.com/%41%2D%7e', '/A-~'],
    ['https://example.com/%2f%2a%24', '/%2F%2A%24'],
    ['https://example.com/a*b$', '/a%2Ab%24'],
    ['https://example.com/a|b^c', '/a%7Cb%5Ec'],
    ['https://example.com/100%', '/100%25'],
    ['https://example.com/search?', '/search?'],
    ['https://example.com/search', '/search'],
    ['/search?', '/search?'],
    ['/a/../b?x#y', '/b?x'],
    ['//host/a/b', '/a/b'],
  ])('%s → %s', (input, expected) => {
    expect(toMatchPath(input)).toBe(expected);
  });

  it('keeps the empty query of a URL object too', () => {
    expect(toMatchPath(new URL('https://example.com/search?'))).toBe('/search?');
    expect(toMatchPath(new URL('https://example.com/search'))).toBe('/search');
    expect(toMatchPath(new URL('https://example.com/a?b#c'))).toBe('/a?b');
  });

  it.each([
    ['', 'empty'],
    ['example.com/a', 'schemeless'],
    ['a/b', 'relative'],
    ['not a url', 'words'],
    ['https://exa mple.com/', 'space in host'],
    ['http://1.2.3.999/', 'bad IPv4'],
    ['https://example.com:99999/', 'bad port'],
    ['mailto:someone@example.com', 'no authority'],
    ['data:text/plain,hi', 'no authority'],
  ])('rejects %j (%s) with RobotsTxtUsageError', (input) => {
    expect(usageReason(() => toMatchPath(input))).toBe('invalid-url');
  });

  it('rejects URL objects without an authority, and non-URLs', () => {
    expect(usageReason(() => toMatchPath(new URL('mailto:a@b.example')))).toBe('invalid-url');
    expect(usageReason(() => toMatchPath(42 as unknown as string))).toBe('invalid-url');
    expect(usageReason(() => toMatchPath(null as unknown as string))).toBe('invalid-url');
  });
});

describe('/search? is not /search', () => {
  it('a rule for the empty query matches only the URL with "?"', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /search?\n');
    expect(robots.isAllowed('https://e.com/search?', 'A')).toBe(false);
    expect(robots.isAllowed('https://e.com/search?q=1', 'A')).toBe(false);
    expect(robots.isAllowed('https://e.com/search', 'A')).toBe(true);
    expect(robots.isAllowed(new URL('https://e.com/search?'), 'A')).toBe(false);
    expect(robots.isAllowed('/search?', 'A')).toBe(false);
  });

  it('an anchored rule for /search does not match /search?', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /search$\n');
    expect(robots.isAllowed('https://e.com/search', 'A')).toBe(false);
    expect(robots.isAllowed('https://e.com/search?', 'A')).toBe(true);
    expect(robots.isAllowed(new URL('https://e.com/search?'), 'A')).toBe(true);
  });
});

describe('matching', () => {
  const check = (rules: string, path: string, agent: Agent = 'A') =>
    parseRobotsTxt(`User-agent: *\n${rules}`).explain(`https://e.com${path}`, agent);

  it('the longest pattern wins, counted in normalised octets with * and $', () => {
    expect(check('Allow: /page\nDisallow: /*.html\n', '/page.html').allowed).toBe(false);
    expect(check('Allow: /x/page.\nDisallow: /*.html\n', '/x/page.html').allowed).toBe(true);
    // '/ツ' is 10 octets normalised, longer than '/abcdefgh' (9).
    expect(check('Allow: /*\nDisallow: /ツ\nAllow: /%E3%83%84$\n', '/ツ').rule?.line).toBe(4);
  });

  it('on equal length allow wins, whatever the order', () => {
    expect(check('Disallow: /a\nAllow: /a\n', '/a').allowed).toBe(true);
    expect(check('Allow: /a\nDisallow: /a\n', '/a').allowed).toBe(true);
    expect(check('Disallow: /a*\nAllow: /a$\n', '/a').allowed).toBe(true);
  });

  it('on equal length and kind the earlier line is reported', () => {
    expect(check('Disallow: /a*\nDisallow: /*a\n', '/a').rule?.line).toBe(2);
  });

  it('an empty pattern never decides', () => {
    expect(check('Disallow:\n', '/x')).toMatchObject({ allowed: true, reason: 'no-matching-rule' });
    expect(check('Disallow: /\nAllow:\n', '/x').allowed).toBe(false);
  });

  it('matching starts at the first octet and is case-sensitive', () => {
    expect(check('Disallow: /x\n', '/a/x').allowed).toBe(true);
    expect(check('Disallow: /X\n', '/x').allowed).toBe(true);
    expect(check('Disallow: x\n', '/x').allowed).toBe(true);
  });

  it('"*" matches any run including "/", "$" anchors only at the end', () => {
    expect(check('Disallow: /a*z\n', '/a/b/c/z/more').allowed).toBe(false);
    expect(check('Disallow: /a*z$\n', '/a/b/z').allowed).toBe(false);
    expect(check('Disallow: /a*z$\n', '/a/b/z/').allowed).toBe(true);
    expect(check('Disallow: /a$b\n', '/a$b').allowed).toBe(false);
    expect(check('Disallow: /a$b\n', '/a').allowed).toBe(true);
    expect(check('Disallow: /$\n', '/').allowed).toBe(false);
    expect(check('Disallow: /$\n', '/x').allowed).toBe(true);
    expect(check('Disallow: *\n', '/anything').allowed).toBe(false);
    expect(check('Disallow: /**/***x\n', '/a/bx').allowed).toBe(false);
    expect(check('Disallow: /**/***x\n', '/x').allowed).toBe(true);
  });

  it('the query is part of the matched text', () => {
    expect(check('Disallow: /*?sort=\n', '/list?sort=asc').allowed).toBe(false);
    expect(check('Disallow: /*?sort=\n', '/list?page=2').allowed).toBe(true);
  });

  it('"#" in a rule starts a comment', () => {
    expect(check('Disallow: /a#b\n', '/a').allowed).toBe(false);
  });

  it('/robots.txt is always allowed', () => {
    const verdict = check('Disallow: /\n', '/robots.txt');
    expect(verdict).toMatchObject({ allowed: true, reason: 'robots-txt-path' });
    expect(check('Disallow: /\n', '/robots.txt?x=1').allowed).toBe(true);
    expect(check('Disallow: /\n', '/robots.txt.bak').allowed).toBe(false);
    expect(
      parseRobotsTxt('User-agent: *\nDisallow: /\n').isAllowed('https://e.com/robots.txt', 'A'),
    ).toBe(true);
  });

  it('hundreds of rules: the same answers on every query', () => {
    const rules: string[] = [];
    for (let i = 0; i < 300; i++)
      rules.push(`Disallow: /${String.fromCharCode(97 + (i % 26))}${i}/`);
    rules.push('Allow: /b27/public', 'Disallow: /*.pdf$', 'Allow: /*/open/', 'Disallow: /b2');
    const robots = parseRobotsTxt(`User-agent: *\n${rules.join('\n')}\n`);
    const expected: [string, boolean, number | undefined][] = [
      ['/b27/x', false, 29],
      ['/b27/public', true, 302],
      ['/b28/x', false, 305],
      ['/b3/x', true, undefined],
      ['/zz/x.pdf', false, 303],
      ['/a0/open/', true, 304],
      ['/', true, undefined],
    ];
    // Ask each question three times: the compiled rules keep no state between queries.
    for (let round = 0; round < 3; round++) {
      for (const [path, allowed, line] of expected) {
        const verdict = robots.explain(`https://e.com${path}`, 'A');
        expect(verdict.allowed, `${path} round ${round}`).toBe(allowed);
        expect(verdict.rule?.line, `${path} round ${round}`).toBe(line);
        expect(robots.isAllowed(`https://e.com${path}`, 'A')).toBe(allowed);
      }
    }
  });
});

describe('verdicts', () => {
  const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\nAllow: /private/%70ublic\n');

  it('explain names the deciding rule, its line and both forms of its pattern', () => {
    const verdict = robots.explain('https://e.com/private/public/x', 'ExampleBot');
    expect(verdict).toEqual({
      allowed: true,
      reason: 'rule',
      selection: 'global',
      groups: [[1]],
      groupLines: [1],
      groupLineTexts: ['User-agent: *'],
      path: '/private/public/x',
      rule: {
        kind: 'allow',
        pattern: '/private/%70ublic',
        normalizedPattern: '/private/public',
        line: 3,
        text: 'Allow: /private/%70ublic',
      },
    });
    expect(Object.isFrozen(verdict)).toBe(true);
  });

  it('isAllowed, explain().allowed and forAgent().isAllowed agree', () => {
    for (const path of ['/', '/private/', '/private/public', '/other']) {
      const url = `https://e.com${path}`;
      const allowed = robots.isAllowed(url, 'ExampleBot');
      expect(robots.explain(url, 'ExampleBot').allowed).toBe(allowed);
      expect(robots.forAgent('ExampleBot').isAllowed(url)).toBe(allowed);
      expect(robots.forAgent('ExampleBot').explain(url).allowed).toBe(allowed);
    }
  });

  it('forAgent is cached per agent and shared for the same groups', () => {
    expect(robots.forAgent('ExampleBot')).toBe(robots.forAgent('ExampleBot'));
    expect(robots.forAgent('OtherBot').selection).toBe('global');
    expect(Object.isFrozen(robots.forAgent('OtherBot'))).toBe(true);
  });

  it('with no groups at all everything is allowed', () => {
    expect(parseRobotsTxt('').explain('https://e.com/x', 'A')).toEqual({
      allowed: true,
      reason: 'no-applicable-group',
      selection: 'none',
      groups: [],
      groupLines: [],
      groupLineTexts: [],
      path: '/x',
    });
  });

  it('quotes the deciding line and the group lines as read (standard key, value as written)', () => {
    const file = parseRobotsTxt(
      [
        'useragent: OtherBot',
        'USER-AGENT: ExampleBot/2.1 # ours',
        'disallow:/private/   # keep out',
        'user-agent-purpose: Research',
        'Allow: /private/open',
      ].join('\n'),
    );
    const verdict = file.explain('https://e.com/private/x', 'examplebot');
    expect(verdict.groupLines).toEqual([1, 2]);
    expect(verdict.groupLineTexts).toEqual(['User-agent: OtherBot', 'User-agent: ExampleBot']);
    expect(verdict.rule?.text).toBe('Disallow: /private/');
    const purpose = file.explain('https://e.com/private/open', {
      productToken: 'NoBot',
      purpose: 'research',
    });
    expect(purpose.selection).toBe('purpose');
    expect(purpose.groupLineTexts).toEqual(['User-agent-purpose: Research']);
    expect(purpose.rule?.text).toBe('Allow: /private/open');
  });

  it('matches user-agent tokens in any case, whatever case the file writes them in', () => {
    const file = parseRobotsTxt('User-agent: ExampleBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n');
    for (const agent of ['ExampleBot', 'examplebot', 'EXAMPLEBOT'])
      expect(file.isAllowed('https://e.com/x', agent)).toBe(false);
    expect(file.isAllowed('https://e.com/x', 'OtherBot')).toBe(true);
  });

  it('counts merged groups, not user-agent lines', () => {
    const file = parseRobotsTxt(
      [
        'User-agent: FooBot',
        'User-agent: BarBot',
        'Disallow: /a',
        'User-agent: *',
        'Disallow: /',
        'User-agent: BazBot',
        'User-agent: FooBot',
        'Disallow: /b',
      ].join('\n'),
    );
    const verdict = file.explain('https://e.com/b', 'FooBot');
    expect(verdict.groups).toEqual([
      [1, 2],
      [6, 7],
    ]);
    expect(verdict.groups).toHaveLength(2);
    expect(verdict.groupLines).toEqual([1, 2, 6, 7]);
    expect(verdict.rule?.line).toBe(8);
    expect(file.forAgent('FooBot').groups).toBe(verdict.groups);
    expect(file.explain('https://e.com/b', 'QuxBot').groups).toEqual([[4]]);
  });
});

describe('group selection: product > purpose > * > none', () => {
  const robots = parseRobotsTxt(
    [
      'User-agent: *',
      'Disallow: /global',
      'User-agent-purpose: search',
      'Disallow: /purpose',
      'User-agent: FooBot',
      'Disallow: /product',
      'user-agent-purpose: SEARCH',
      'Disallow: /purpose2',
    ].join('\n'),
  );
  const url = (path: string) => `https://e.com${path}`;

  it('a group naming the product token wins over purpose and *', () => {
    const rules = robots.forAgent({ productToken: 'foobot', purpose: 'search' });
    expect(rules.selection).toBe('product');
    expect(rules.isAllowed(url('/product'))).toBe(false);
    expect(rules.isAllowed(url('/purpose'))).toBe(true);
  });

  it('else the purpose groups, merged', () => {
    const rules = robots.forAgent({ productToken: 'BarBot', purpose: 'Search' });
    expect(rules.selection).toBe('purpose');
    expect(rules.groupLines).toEqual([3, 7]);
    expect(rules.isAllowed(url('/purpose'))).toBe(false);
    expect(rules.isAllowed(url('/purpose2'))).toBe(false);
    expect(rules.isAllowed(url('/global'))).toBe(true);
  });

  it('else *', () => {
    expect(robots.forAgent({ productToken: 'BarBot', purpose: 'ads' }).selection).toBe('global');
    expect(robots.forAgent('BarBot').isAllowed(url('/global'))).toBe(false);
  });

  it('a purpose group line is a group start like user-agent', () => {
    const file = parseRobotsTxt(
      'User-agent: A\nDisallow: /a\nUser-agent-purpose: x\nDisallow: /x\n',
    );
    expect(file.isAllowed(url('/x'), 'A')).toBe(true);
    expect(file.isAllowed(url('/x'), { productToken: 'B', purpose: 'x' })).toBe(false);
  });

  it('purpose tokens may hold digits, product tokens may not', () => {
    const file = parseRobotsTxt('User-agent-purpose: EXAMPLE-PURPOSE-1\nDisallow: /\n');
    expect(file.isAllowed(url('/'), { productToken: 'B', purpose: 'EXAMPLE-PURPOSE-1' })).toBe(
      false,
    );
  });
});

describe('typed errors', () => {
  const robots = parseRobotsTxt('User-agent: *\nDisallow: /\n');

  it.each([
    ['', 'empty'],
    ['Foo Bar', 'space'],
    ['FooBot/1.0', 'version'],
    ['*', 'star'],
    ['ツ', 'non-ASCII'],
    ['Bot2', 'digit'],
    [' Foo', 'leading space'],
  ])('rejects the agent %j (%s)', (agent) => {
    for (const call of [
      () => robots.isAllowed('https://e.com/', agent),
      () => robots.explain('https://e.com/', agent),
      () => robots.forAgent(agent),
      () => robots.crawlDelay(agent),
      () => robots.isAllowed('https://e.com/', { productToken: agent }),
    ]) {
      expect(usageReason(call)).toBe('invalid-agent');
    }
  });

  it.each([null, undefined, 42, {}, { productToken: 42 }])('rejects the agent %j', (agent) => {
    expect(usageReason(() => robots.isAllowed('https://e.com/', agent as unknown as Agent))).toBe(
      'invalid-agent',
    );
  });

  it.each(['', 'two words', 'ads/1', 'ツ'])('rejects the purpose %j', (purpose) => {
    expect(usageReason(() => robots.forAgent({ productToken: 'A', purpose }))).toBe(
      'invalid-purpose',
    );
  });

  it("a rule written with ' matches the query fetch sends for it (%27), and one written with %27 too", () => {
    for (const rule of ["Disallow: /search?q='", 'Disallow: /search?q=%27', "Disallow: /*'"]) {
      const file = parseRobotsTxt(`User-agent: *\n${rule}\n`);
      for (const url of [
        "https://example.com/search?q='1 OR 1=1",
        'https://example.com/search?q=%271',
        new URL("https://example.com/search?q='1"),
      ]) {
        expect(file.isAllowed(url, 'AnyBot'), `${rule} ${String(url)}`).toBe(false);
        // Asked again: the same compiled rules, the same answer.
        expect(file.isAllowed(url, 'AnyBot'), `${rule} ${String(url)} again`).toBe(false);
      }
      expect(file.isAllowed('https://example.com/search?q=1', 'AnyBot')).toBe(true);
    }
  });

  it('an agent that was answered before does not let a lookalike through, nor answer for it', () => {
    const file = parseRobotsTxt(
      'User-agent: bot\nDisallow: /\n\nUser-agent-purpose: undefined\nAllow: /\n',
    );
    // Answered (and cached) first: the product token alone, then with a purpose.
    expect(file.isAllowed('https://e.com/a', { productToken: 'Bot' })).toBe(false);
    expect(file.forAgent({ productToken: 'Other', purpose: 'undefined' }).selection).toBe(
      'purpose',
    );
    // A purpose spelled "undefined" is not the same agent as no purpose.
    expect(file.forAgent({ productToken: 'Bot', purpose: 'undefined' }).selection).toBe('product');
    expect(file.forAgent({ productToken: 'Nobody', purpose: 'undefined' }).selection).toBe(
      'purpose',
    );
    expect(file.forAgent({ productToken: 'Nobody' }).selection).toBe('none');
    // Invalid agents whose values print like cached ones are still refused.
    for (const agent of [
      '\u0000Bot\u0000undefined',
      { productToken: 'Bot', purpose: 123 },
      { productToken: ['Bot'] },
      { productToken: 'Other', purpose: ['undefined'] },
    ]) {
      expect(
        usageReason(() => file.isAllowed('https://e.com/a', agent as unknown as Agent)),
      ).toMatch(/^invalid-(agent|purpose)$/);
    }
  });

  it('rejects bad URLs on every entry point', () => {
    for (const call of [
      () => robots.isAllowed('example.com/a', 'A'),
      () => robots.explain('', 'A'),
      () => robots.forAgent('A').isAllowed('a/b'),
      () => robots.forAgent('A').explain('mailto:x@y.example'),
    ]) {
      expect(usageReason(call)).toBe('invalid-url');
    }
  });

  it('the error carries name, code, reason, value and a cause when there is one', () => {
    let caught: unknown;
    try {
      robots.isAllowed('http://[bad/', 'A');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RobotsTxtUsageError);
    const error = caught as RobotsTxtUsageError;
    expect(error.name).toBe('RobotsTxtUsageError');
    expect(error.code).toBe('ERR_ROBOTS_TXT_USAGE');
    expect(error.reason).toBe('invalid-url');
    expect(error.value).toBe('http://[bad/');
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^Invalid URL for robots\.txt matching: "http:\/\/\[bad\/" \(/);
  });

  it('the type guard works across copies of the package (Symbol.for brand)', () => {
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('@polite-crawler/robots-txt/RobotsTxtUsageError')]: true,
    });
    expect(isRobotsTxtUsageError(foreign)).toBe(true);
    expect(isRobotsTxtUsageError(new Error('x'))).toBe(false);
    expect(isRobotsTxtUsageError(null)).toBe(false);
    expect(isRobotsTxtUsageError('ERR_ROBOTS_TXT_USAGE')).toBe(false);
  });

  it.each([
    ['maxBytes', Number.NaN],
    ['maxBytes', -1],
    ['maxBytes', '512000'],
    ['maxDiagnostics', -5],
    ['maxCachedAgents', Number.NaN],
  ])('rejects the option %s = %j, naming it', (option, value) => {
    let caught: unknown;
    try {
      parseRobotsTxt('', { [option]: value });
    } catch (error) {
      caught = error;
    }
    expect(isRobotsTxtUsageError(caught)).toBe(true);
    expect(caught).toMatchObject({ reason: 'invalid-option', option });
    expect((caught as Error).message).toContain(option);
  });

  it('rejects a body that is neither a string nor bytes, but never throws on content', () => {
    expect(usageReason(() => parseRobotsTxt(42 as unknown as string))).toBe('invalid-body');
    expect(usageReason(() => parseRobotsTxt(new ArrayBuffer(4) as unknown as Uint8Array))).toBe(
      'invalid-body',
    );
    expect(() => parseRobotsTxt('\u0000\uFFFF\uD800:::\r\r\n#*$%')).not.toThrow();
  });
});
