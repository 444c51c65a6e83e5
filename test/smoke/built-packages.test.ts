/**
 * Imports each package's built output the way a user would: by package name, from a
 * workspace package that depends on it, in a plain Node process (no vitest aliases).
 * `pnpm test` builds before running vitest.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function runModule(cwd: string, source: string): unknown {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', source], {
    cwd: `${root}${cwd}`,
    encoding: 'utf8',
  });
  return JSON.parse(out) as unknown;
}

describe('built packages import by name', () => {
  it('robots-txt, robots-tag and fetch work from dist', () => {
    const result = runModule(
      'packages/cli',
      `
      import { parseRobotsTxt, combineUsage, parseContentUsage } from '@polite-crawler/robots-txt';
      import { parseRobotsTagHeaders, directivesFor } from '@polite-crawler/robots-tag';
      import { createRobotsPolicy, isRobotsDeniedError } from '@polite-crawler/fetch';
      const robots = parseRobotsTxt('User-agent: *\\nDisallow: /private\\nContent-Usage: train-ai=n\\n');
      const usage = combineUsage(robots.contentUsage('/public', 'ExampleBot'), parseContentUsage('search=y'));
      const directives = directivesFor(parseRobotsTagHeaders('noindex, nofollow'), 'ExampleBot');
      const policy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
      await policy.close();
      console.log(JSON.stringify({
        denied: robots.isAllowed('/private/x', 'ExampleBot'),
        allowed: robots.isAllowed('/public', 'ExampleBot'),
        noindex: directives.noindex,
        token: policy.productToken,
        guard: typeof isRobotsDeniedError,
        usage: [usage['train-ai'], usage.search],
      }));`,
    );
    expect(result).toEqual({
      denied: false,
      allowed: true,
      noindex: true,
      token: 'ExampleBot',
      guard: 'function',
      usage: ['disallowed', 'allowed'],
    });
  });

  it("fetch/internal (the adapters' and the CLI's subpath) and the interceptor load from dist", () => {
    const result = runModule(
      'packages/cli',
      `
      import { politeInterceptor } from '@polite-crawler/fetch';
      import { readCapped, walkRedirects } from '@polite-crawler/fetch/internal';
      const polite = politeInterceptor({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
      await polite.close();
      console.log(JSON.stringify({
        interceptor: typeof polite,
        token: polite.policy.productToken,
        internal: [typeof readCapped, typeof walkRedirects],
      }));`,
    );
    expect(result).toEqual({
      interceptor: 'function',
      token: 'ExampleBot',
      internal: ['function', 'function'],
    });
  });

  it('the polite bin prints its version', () => {
    const out = execFileSync(process.execPath, [`${root}packages/cli/dist/bin.js`, '--version'], {
      encoding: 'utf8',
    });
    expect(out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
