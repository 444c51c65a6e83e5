import { interceptors, request } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  createPoliteFetch,
  isRobotsInvalidOptionError,
  isRobotsUsageError,
  politeInterceptor,
} from '@polite-crawler/fetch';
import type { RobotsUsageError } from '@polite-crawler/fetch';
import { routes } from '../helpers/recording-server.js';
import { USER_AGENT, localAgent, useRigs } from '../fetch/helpers/setup.js';
import { caught, thrown } from '../fetch/helpers/thrown.js';
import { until } from '../fetch/helpers/fake-clock.js';

const { server, polite, defer } = useRigs();

// Line numbers matter: explain() and the error name them.
const ROBOTS = [
  'User-agent: *', // 1
  'Content-Usage: train-ai=n', // 2
  'Content-Usage: /open/ train-ai=y, search=y', // 3
  'Content-Signal: search=yes, ai-train=no, ai-input=yes', // 4
  'Disallow: /private', // 5
  '',
].join('\n');

const PAGES = {
  '/robots.txt': { body: ROBOTS },
  // robots.txt says train-ai=n (line 2, and Content-Signal ai-train=no on line 4), the field y.
  '/article': { headers: { 'content-usage': 'train-ai=y, search=y' }, body: 'article' },
  // robots.txt says train-ai=y for /open/ (line 3), the field n.
  '/open/page': { headers: { 'content-usage': 'train-ai=n' }, body: 'page' },
  '/open/plain': { body: 'plain' },
  // Two field lines: combined as HTTP combines them, the later duplicate key wins.
  '/open/lines': { headers: { 'content-usage': ['train-ai=n', 'train-ai=y'] }, body: 'lines' },
  // A field that fails to parse says nothing (uppercase key).
  '/open/bad': { headers: { 'content-usage': 'Train-AI=n' }, body: 'bad' },
  // vocab-08: the field says ai-use=n; robots.txt's Content-Signal ai-input=yes (line 4) says y.
  '/rag': { headers: { 'content-usage': 'ai-use=n, search=y' }, body: 'rag' },
};

describe('response.usage: robots.txt and the Content-Usage field, combined', () => {
  it('when robots.txt and the header disagree, the most restrictive wins, either way round', async () => {
    const s = await server(routes(PAGES));
    const { fetch } = polite();
    const article = await fetch(`${s.origin}/article`);
    expect(await article.text()).toBe('article');
    expect(article.usage['train-ai']).toBe('disallowed');
    expect(article.usage.search).toBe('allowed');
    expect(article.usage.sources['train-ai']).toEqual([
      { kind: 'content-usage-rule', line: 2, pattern: '', text: 'Content-Usage: train-ai=n' },
      {
        kind: 'content-signal-rule',
        line: 4,
        pattern: '',
        text: 'Content-Signal: search=yes, ai-train=no, ai-input=yes',
      },
    ]);
    // Content-Signal's ai-input is vocab-08's ai-use (line 4), not an extension label any more.
    expect(article.usage['ai-use']).toBe('allowed');
    expect(article.usage.sources['ai-use']).toEqual([
      {
        kind: 'content-signal-rule',
        line: 4,
        pattern: '',
        text: 'Content-Signal: search=yes, ai-train=no, ai-input=yes',
      },
    ]);
    expect(article.usage.extensions).toEqual([]);

    const rag = await fetch(`${s.origin}/rag`);
    await rag.arrayBuffer();
    expect(rag.usage).toMatchObject({
      'train-ai': 'disallowed',
      'ai-use': 'disallowed',
      search: 'allowed',
    });
    expect(rag.usage.sources['ai-use']).toEqual([{ kind: 'content-usage-field' }]);

    const page = await fetch(`${s.origin}/open/page`);
    await page.arrayBuffer();
    expect(page.usage['train-ai']).toBe('disallowed');
    expect(page.usage.sources['train-ai']).toEqual([{ kind: 'content-usage-field' }]);
    expect(page.usage.search).toBe('allowed'); // robots.txt line 3

    const plain = await fetch(`${s.origin}/open/plain`);
    await plain.arrayBuffer();
    expect(plain.usage).toMatchObject({ 'train-ai': 'allowed', search: 'allowed' });

    const lines = await fetch(`${s.origin}/open/lines`);
    await lines.arrayBuffer();
    expect(lines.usage['train-ai']).toBe('allowed'); // field: later y wins; robots.txt: y

    const bad = await fetch(`${s.origin}/open/bad`);
    await bad.arrayBuffer();
    expect(bad.usage['train-ai']).toBe('allowed'); // the field says nothing; robots.txt says y
  });

  it("usage: { 'train-ai': 'reject' } rejects a disallowed page with ERR_ROBOTS_USAGE and cancels its body", async () => {
    const s = await server(routes(PAGES));
    const { fetch } = polite({ usage: { 'train-ai': 'reject', search: 'annotate' } });
    const error = (await caught(fetch(`${s.origin}/article`))) as RobotsUsageError;
    expect(isRobotsUsageError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'ERR_ROBOTS_USAGE',
      url: `${s.origin}/article`,
      status: 200,
      categories: ['train-ai'],
    });
    expect(error.message).toContain(
      'train-ai disallowed by robots.txt line 2 and robots.txt line 4',
    );
    const fromField = (await caught(fetch(`${s.origin}/open/page`))) as RobotsUsageError;
    expect(fromField.message).toContain('Content-Usage field');
    const plain = await fetch(`${s.origin}/open/plain`);
    expect(await plain.text()).toBe('plain');
    // Only declared categories reject: search is allowed everywhere here.
    const { fetch: searchOnly } = polite({ usage: { search: 'reject' } });
    expect((await searchOnly(`${s.origin}/article`)).usage.search).toBe('allowed');
  });

  it("usage: { 'ai-use': 'reject' } rejects on ai-use alone, from either source", async () => {
    const s = await server(routes(PAGES));
    const { fetch } = polite({ usage: { 'ai-use': 'reject' } });
    const error = (await caught(fetch(`${s.origin}/rag`))) as RobotsUsageError;
    expect(isRobotsUsageError(error)).toBe(true);
    expect(error.categories).toEqual(['ai-use']);
    expect(error.message).toContain('ai-use disallowed by Content-Usage field');
    // train-ai is disallowed on /article but only ai-use was declared; ai-use is allowed there.
    const article = await fetch(`${s.origin}/article`);
    expect(await article.text()).toBe('article');
    expect(article.usage['ai-use']).toBe('allowed');
  });

  it('a rejected page’s body is cancelled, not read', async () => {
    let closedEarly = false;
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') {
        res.end(ROBOTS);
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-usage': 'train-ai=n',
      });
      res.write(Buffer.alloc(64 * 1024)); // and never ends
      res.on('close', () => (closedEarly = !res.writableFinished));
    });
    const { fetch } = polite({ usage: { 'train-ai': 'reject' } });
    const error = await caught(fetch(`${s.origin}/open/stream`));
    expect(isRobotsUsageError(error)).toBe(true);
    await until(() => closedEarly, 'body cancelled');
  });

  it('the usage option is validated', () => {
    const bad = [{ train_ai: 'reject' }, { 'train-ai': 'deny' }, 'reject', ['train-ai'], null];
    for (const usage of bad) {
      const error = thrown(() =>
        createPoliteFetch({ userAgent: USER_AGENT, usage: usage as never }),
      );
      expect(isRobotsInvalidOptionError(error), JSON.stringify(usage)).toBe(true);
    }
  });

  it('policy.check carries the robots.txt part, explain the deciding lines', async () => {
    const s = await server(routes(PAGES));
    const { policy } = polite();
    const decision = await policy.check(`${s.origin}/article`);
    expect(decision.usage).toMatchObject({ 'train-ai': 'disallowed', search: 'allowed' });
    const open = await policy.explain(`${s.origin}/open/x`);
    expect(open.usage).toMatchObject({ 'train-ai': 'allowed', search: 'allowed' });
    expect(open.contentUsage?.reason).toBe('rule');
    expect(open.contentUsage?.rules.map((rule) => rule.line)).toEqual([3]);
    // A disallowed path has no preferences (attach §3.1).
    const closed = await policy.explain(`${s.origin}/private/x`);
    expect(closed.usage).toMatchObject({ 'train-ai': 'unknown', search: 'unknown' });
    expect(closed.contentUsage?.reason).toBe('path-disallowed');
    // The response side for adapters: robots.txt in memory plus the field lines.
    expect(policy.usage(`${s.origin}/open/x`, ['train-ai=n'])['train-ai']).toBe('disallowed');
    expect(policy.usage(`${s.origin}/open/x`)['train-ai']).toBe('allowed');
    expect(policy.usage('https://not-fetched.example/', 'search=n')).toMatchObject({
      'train-ai': 'unknown',
      search: 'disallowed',
    });
  });

  it('politeInterceptor: the caller reads usage from the policy, as the directives', async () => {
    const s = await server(routes(PAGES));
    const agent = localAgent();
    const interceptor = politeInterceptor({
      userAgent: USER_AGENT,
      minInterval: 0,
      dispatcher: agent,
    });
    const dispatcher = agent.compose(interceptor, interceptors.redirect({ maxRedirections: 5 }));
    defer(
      () => agent.close(),
      () => interceptor.close(),
    );
    const url = `${s.origin}/open/page`;
    const { headers, body } = await request(url, { dispatcher });
    expect(await body.text()).toBe('page');
    expect(interceptor.policy.usage(url, headers)).toMatchObject({
      'train-ai': 'disallowed',
      search: 'allowed',
    });
  });
});
