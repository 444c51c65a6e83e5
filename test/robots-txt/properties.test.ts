/**
 * Property tests (fast-check): the parser never throws and stays bounded, the three ways
 * to ask agree, normalisation is idempotent, the string fast path equals the WHATWG path,
 * and the matcher agrees with a slow reference matcher written from the RFC text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  normalizePattern,
  PARSE_DEFAULTS,
  parseRobotsTxt,
  toMatchPath,
} from '@polite-crawler/robots-txt';
import { referenceGlob } from './reference-glob.js';

const KEYS = [
  'user-agent',
  'User-Agent',
  'allow',
  'disallow',
  'Disallow',
  'user-agent-purpose',
  'crawl-delay',
  'sitemap',
  'useragent',
  'foo',
  '',
];
const VALUES = [
  '*',
  'FooBot',
  'foobot/1.0',
  '/',
  '/a',
  '/a*',
  '/a$',
  '*.gif$',
  '/%41',
  '/%2A',
  '/ツ',
  '',
  '5',
  'https://e.com/s.xml',
  'x y',
];
const robotsLine = fc
  .tuple(
    fc.constantFrom(...KEYS),
    fc.constantFrom(':', ' : ', ' ', ''),
    fc.constantFrom(...VALUES),
    fc.constantFrom('', ' # c', '#'),
  )
  .map(([k, sep, v, comment]) => k + sep + v + comment);
const robotsBody = fc
  .array(fc.tuple(robotsLine, fc.constantFrom('\n', '\r', '\r\n')), { maxLength: 30 })
  .map((lines) => lines.map(([line, eol]) => line + eol).join(''));
const AGENTS = ['FooBot', 'foobot', 'BarBot', 'Other'];

describe('the parser never throws and stays bounded', () => {
  it('on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (body) => {
        const robots = parseRobotsTxt(body);
        expect(robots.diagnostics.length).toBeLessThanOrEqual(PARSE_DEFAULTS.maxDiagnostics + 1);
        expect(robots.parsedBytes).toBe(new TextEncoder().encode(body).length);
        expect(typeof robots.isAllowed('https://e.com/a', 'FooBot')).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });

  it('on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (body) => {
        const robots = parseRobotsTxt(body);
        expect(robots.parsedBytes).toBe(body.length);
        expect(typeof robots.explain('https://e.com/a', 'FooBot').allowed).toBe('boolean');
        void robots.sitemaps;
      }),
      { numRuns: 300 },
    );
  });

  it('on robots-like text, with few diagnostics kept when asked', () => {
    fc.assert(
      fc.property(robotsBody, fc.integer({ min: 0, max: 3 }), (body, maxDiagnostics) => {
        const robots = parseRobotsTxt(body, { maxDiagnostics });
        expect(robots.diagnostics.length).toBeLessThanOrEqual(maxDiagnostics + 1);
      }),
      { numRuns: 300 },
    );
  });
});

describe('isAllowed, explain and forAgent agree', () => {
  it('for generated files, paths and agents', () => {
    const path = fc.string({
      unit: fc.constantFrom('a', '/', '*', '$', '%41', 'ツ', '?', '.gif', '='),
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        robotsBody,
        path,
        fc.constantFrom(...AGENTS),
        fc.option(fc.constantFrom('x', 'FooBot')),
        (body, p, product, purpose) => {
          const robots = parseRobotsTxt(body);
          const agent = purpose === null ? product : { productToken: product, purpose };
          const url = `https://e.com/${p}`;
          const allowed = robots.isAllowed(url, agent);
          const verdict = robots.explain(url, agent);
          expect(verdict.allowed).toBe(allowed);
          expect(robots.forAgent(agent).isAllowed(url)).toBe(allowed);
          expect(robots.forAgent(agent).explain(url)).toEqual(verdict);
          expect(verdict.reason === 'rule').toBe(verdict.rule !== undefined);
          // A valid UTF-8 body gives the same answers as bytes.
          expect(parseRobotsTxt(new TextEncoder().encode(body)).explain(url, agent)).toEqual(
            verdict,
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('normalisation is idempotent', () => {
  it('normalizePattern', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const once = normalizePattern(s);
        expect(normalizePattern(once)).toBe(once);
        expect(once).toMatch(/^[\x21-\x7e]*$/);
      }),
      { numRuns: 500 },
    );
  });

  it('toMatchPath', () => {
    const tricky = fc.string({
      unit: fc.constantFrom(
        'a',
        '/',
        '.',
        '..',
        '%2e',
        '%41',
        '%',
        '*',
        '$',
        ' ',
        '\\',
        "'",
        '?',
        '#',
        'ツ',
        '|',
        '^',
        '"',
        '\t',
        ';',
        '%zz',
      ),
      maxLength: 12,
    });
    fc.assert(
      fc.property(tricky, (s) => {
        const once = toMatchPath(`https://e.com/${s}`);
        expect(toMatchPath(`https://e.com${once}`)).toBe(once);
        expect(once.startsWith('/')).toBe(true);
        expect(once).toMatch(/^[\x21-\x7e]*$/);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the string fast path equals the WHATWG URL path', () => {
  it('for generated absolute URLs', () => {
    const host = fc.constantFrom(
      'example.com',
      'a.b',
      'EXAMPLE.COM',
      'xn--p1ai.x',
      '1.2.3.4',
      'a-b.c',
      'localhost',
      'x.y.',
      'a..b',
      '0x1f.c',
    );
    const port = fc.constantFrom('', ':80', ':8080', ':65535', ':65536', ':');
    const rest = fc.string({
      unit: fc.constantFrom(
        '/',
        'a',
        'Z',
        '.',
        '..',
        '%2e',
        '%2E',
        '%41',
        '%',
        '*',
        '$',
        ' ',
        '\\',
        "'",
        '?',
        '#',
        'ツ',
        '|',
        '^',
        '"',
        '\t',
        '{',
        '`',
        '~',
        '@',
        ':',
        '[',
        ']',
      ),
      maxLength: 14,
    });
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'https', 'HTTP', 'ftp', 'ws'),
        host,
        port,
        rest,
        (scheme, h, p, r) => {
          const input = `${scheme}://${h}${p}${r.startsWith('/') || r.startsWith('?') || r.startsWith('#') ? '' : '/'}${r}`;
          let viaObject: string | undefined;
          try {
            viaObject = toMatchPath(new URL(input));
          } catch {
            viaObject = undefined;
          }
          let viaString: string | undefined;
          try {
            viaString = toMatchPath(input);
          } catch {
            viaString = undefined;
          }
          expect(viaString).toBe(viaObject);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('for webUrl()', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        expect(toMatchPath(url)).toBe(toMatchPath(new URL(url)));
      }),
      { numRuns: 500 },
    );
  });
});

/**
 * The reference: RFC 9309 §2.2.2 read literally, for a small alphabet. Normalise (decode
 * %41, keep %2A; a literal '*'/'$' in the URL is %2A/%24), glob-match octet by octet with a
 * memoised recursion, take the longest pattern, allow on a tie.
 */
function referenceAllowed(
  rules: readonly { allow: boolean; pattern: string }[],
  path: string,
): boolean {
  const url = path.replaceAll('%41', 'A').replaceAll('*', '%2A').replaceAll('$', '%24');
  let best = -1;
  let bestAllow = true;
  for (const { allow, pattern } of rules) {
    if (pattern === '') continue;
    let p = pattern.replaceAll('%41', 'A');
    const anchored = p.endsWith('$');
    if (anchored) p = p.slice(0, -1);
    p = p.replaceAll('$', '%24');
    const length = p.length + (anchored ? 1 : 0);
    if (!referenceGlob(p, url, anchored)) continue;
    if (length > best || (length === best && allow)) {
      best = length;
      bestAllow = allow;
    }
  }
  return best < 0 || bestAllow;
}

describe('the matcher agrees with the reference', () => {
  const piece = fc.constantFrom('/', 'a', 'b', '*', '$', '%41', 'A', '%2A', '?', '=');
  const pattern = fc
    .string({ unit: piece, maxLength: 8 })
    .map((s) => (s.startsWith('*') ? s : `/${s}`));
  const rule = fc.record({ allow: fc.boolean(), pattern: fc.oneof(pattern, fc.constant('')) });
  const path = fc.string({
    unit: fc.constantFrom('/', 'a', 'b', 'A', '%41', '?', '=', '*', '$', 'ab'),
    maxLength: 10,
  });

  it('on generated rules and paths', () => {
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 8 }), path, (rules, p) => {
        const body = `User-agent: *\n${rules.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.pattern}`).join('\n')}\n`;
        const robots = parseRobotsTxt(body);
        expect(robots.isAllowed(`https://e.com/${p}`, 'ExampleBot')).toBe(
          referenceAllowed(rules, `/${p}`),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('with many rules', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 17, maxLength: 220 }),
        fc.array(path, { minLength: 1, maxLength: 12 }),
        (rules, paths) => {
          const body = `User-agent: *\n${rules.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.pattern}`).join('\n')}\n`;
          const robots = parseRobotsTxt(body);
          for (const p of paths)
            expect(robots.isAllowed(`https://e.com/${p}`, 'A')).toBe(
              referenceAllowed(rules, `/${p}`),
            );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('hostile input completes', () => {
  it('5,000 "*" against a long path', () => {
    const robots = parseRobotsTxt(
      `User-agent: *\nDisallow: /${'*'.repeat(5000)}x$\nAllow: /${'a*'.repeat(5000)}b\n`,
    );
    expect(robots.isAllowed(`/${'a'.repeat(50_000)}`, 'A')).toBe(true);
    expect(robots.isAllowed(`/${'a'.repeat(50_000)}x`, 'A')).toBe(false);
    expect(robots.isAllowed(`/${'a'.repeat(5000)}b`, 'A')).toBe(true);
  });

  it('a file of the maximum size made only of wildcard rules', () => {
    const line = `Disallow: /${'a*'.repeat(20)}b$\n`;
    const body = `User-agent: *\n${line.repeat(Math.floor(PARSE_DEFAULTS.maxBytes / line.length))}`;
    const robots = parseRobotsTxt(body);
    expect(robots.isAllowed(`/${'a'.repeat(2000)}`, 'A')).toBe(true);
    expect(robots.isAllowed(`/${'a'.repeat(2000)}b`, 'A')).toBe(false);
  });

  it('a very long URL against ordinary rules', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /*.pdf$\nDisallow: /private\n');
    expect(robots.isAllowed(`https://e.com/${'x/'.repeat(100_000)}a.pdf`, 'A')).toBe(false);
  });
});
