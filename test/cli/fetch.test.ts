import type { FetchJson } from '@polite-crawler/cli';
import { CLI_DEFAULTS } from '@polite-crawler/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCli, parseJson, runCli } from './helpers/run-cli.js';
import {
  closedPort,
  redirect,
  routes,
  send,
  startServer,
  status,
} from '../helpers/recording-server.js';
import type { Route, RecordingServer } from '../helpers/recording-server.js';

const ROBOTS = 'User-agent: *\nDisallow: /private/\n';
const PAGE = `<!doctype html><html><head>
<meta name="robots" content="nofollow">
<meta name="examplebot" content="nosnippet">
<meta name="otherbot" content="noarchive">
<title>t</title></head><body><a href="/a">a</a></body></html>`;

let site: RecordingServer;

/** Headers at once, then a byte every 50 ms, `bytes` of them (the response never ends for Infinity). */
function drip(bytes: number): Route {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    let sent = 0;
    const timer = setInterval(() => {
      if (response.destroyed) {
        clearInterval(timer);
      } else if (sent >= bytes) {
        clearInterval(timer);
        response.end();
      } else {
        sent += 1;
        response.write('x');
      }
    }, 50);
    response.on('close', () => clearInterval(timer));
    return true;
  };
}

beforeAll(async () => {
  site = await startServer(
    routes({
      '/robots.txt': send(ROBOTS, 'text/plain'),
      '/page': send(PAGE, 'text/html; charset=utf-8', { 'x-robots-tag': 'noindex' }),
      '/plain': send('hello', 'text/plain'),
      '/expired': send('old news', 'text/plain', {
        'x-robots-tag': 'unavailable_after: 2020-01-01',
      }),
      '/go': redirect('/private/target', 302),
      '/hop': redirect('/plain', 301),
      '/missing': status(404, 'nope'),
      '/at-limit': send(Buffer.alloc(CLI_DEFAULTS.maxBodyBytes, 'a'), 'application/octet-stream'),
      '/past-limit': send(
        Buffer.alloc(CLI_DEFAULTS.maxBodyBytes + 1, 'a'),
        'application/octet-stream',
      ),
      // A byte every 50 ms: three, then the end; or for ever.
      '/drip-3': drip(3),
      '/drip-forever': drip(Infinity),
      '/silent': () => true,
    }),
  );
});

afterAll(async () => {
  await site.close();
});

describe('fetch', () => {
  it('prints status, type, size and the directives for this agent', async () => {
    // The bin once (exit code 0 from a process); the other cases call the CLI's run() here.
    const result = await runCli(['fetch', `${site.origin}/page`, '--agent', 'ExampleBot']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        `URL           ${site.origin}/page`,
        'Status        200 OK',
        'Content-Type  text/html; charset=utf-8',
        `Size          ${Buffer.byteLength(PAGE)} bytes`,
        'Robots        noindex (header, all agents)',
        '              nofollow (meta, all agents)',
        '              nosnippet (meta, examplebot)',
        '              index: no · follow links: no · snippet: no · archive: yes',
        '',
      ].join('\n'),
    );
    expect(site.seen.find((request) => request.path === '/page')?.userAgent).toBe(
      'ExampleBot/1.0 (polite-crawler CLI; +https://github.com/polite-crawler/polite-crawler)',
    );
  });

  it('says index: no for a page whose unavailable_after has passed, and why', async () => {
    const result = await callCli(['fetch', `${site.origin}/expired`, '--agent', 'ExampleBot']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('unavailable_after: 2020-01-01 (header, all agents)');
    expect(result.stdout).toContain('index: no (unavailable_after has passed) · follow links: yes');
    const json = parseJson<FetchJson>(
      await callCli(['fetch', `${site.origin}/expired`, '--agent', 'ExampleBot', '--json']),
    );
    expect(json.response?.robots).toMatchObject({
      noindex: true,
      noindexReason: 'unavailable_after',
      unavailableAfter: '2020-01-01T00:00:00.000Z',
    });
  });

  it('prints a JSON document', async () => {
    const result = await callCli([
      'fetch',
      `${site.origin}/hop`,
      '--agent',
      'ExampleBot',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const json = parseJson<FetchJson>(result);
    expect(json).toEqual({
      agent: {
        productToken: 'ExampleBot',
        purpose: null,
        userAgent:
          'ExampleBot/1.0 (polite-crawler CLI; +https://github.com/polite-crawler/polite-crawler)',
      },
      url: `${site.origin}/hop`,
      allowed: true,
      denied: null,
      response: {
        finalUrl: `${site.origin}/plain`,
        redirected: true,
        status: 200,
        statusText: 'OK',
        contentType: 'text/plain',
        bytes: 5,
        complete: true,
        robots: {
          noindex: false,
          noindexReason: null,
          nofollow: false,
          nosnippet: false,
          noarchive: false,
          noimageindex: false,
          notranslate: false,
          indexIfEmbedded: false,
          maxSnippet: null,
          maxImagePreview: null,
          maxVideoPreview: null,
          unavailableAfter: null,
          rules: [],
        },
        // Neither robots.txt nor the response states a usage preference.
        usage: {
          'train-ai': 'unknown',
          'ai-use': 'unknown',
          search: 'unknown',
          sources: { 'train-ai': [], 'ai-use': [], search: [] },
          extensions: [],
        },
      },
    });
  });

  it('lists the rules with where they came from in JSON', async () => {
    const json = parseJson<FetchJson>(
      await callCli(['fetch', `${site.origin}/page`, '--agent', 'ExampleBot', '--json']),
    );
    expect(json.response?.robots).toMatchObject({
      noindex: true,
      nofollow: true,
      nosnippet: true,
      noarchive: false,
    });
    expect(json.response?.robots.rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'noindex', source: 'header', token: '*' }),
        expect.objectContaining({ name: 'nosnippet', source: 'meta', token: 'examplebot' }),
      ]),
    );
  });

  it('reports an HTTP error status with exit code 0: a response arrived', async () => {
    const result = await callCli(['fetch', `${site.origin}/missing`, '--agent', 'ExampleBot']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Status        404 Not Found');
  });

  it('refuses a disallowed URL without requesting it: exit 1', async () => {
    const result = await callCli(['fetch', `${site.origin}/private/doc`, '--agent', 'ExampleBot']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      `DENIED  ${site.origin}/private/doc\n        Disallow: /private/ (line 2 of ${site.origin}/robots.txt)\n        nothing was sent to this URL\n`,
    );
    expect(site.paths()).not.toContain('/private/doc');
  });

  it('refuses a redirect into a disallowed path before requesting it', async () => {
    const result = await callCli(['fetch', `${site.origin}/go`, '--agent', 'ExampleBot', '--json']);
    expect(result.code).toBe(1);
    const json = parseJson<FetchJson>(result);
    expect(json.allowed).toBe(false);
    expect(json.response).toBeNull();
    expect(json.denied).toEqual({
      reason: 'redirect-disallowed',
      url: `${site.origin}/private/target`,
      rule: { kind: 'disallow', pattern: '/private/', line: 2, text: 'Disallow: /private/' },
      robotsTxt: `${site.origin}/robots.txt`,
      unreachable: null,
    });
    expect(site.paths()).toContain('/go');
    expect(site.paths()).not.toContain('/private/target');
  });

  it('refuses everything on an origin whose robots.txt answers 503', async () => {
    const down = await startServer(routes({ '/robots.txt': status(503) }));
    try {
      const result = await callCli(['fetch', `${down.origin}/x`, '--agent', 'ExampleBot']);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        `${down.origin}/robots.txt unreachable (HTTP 503): everything disallowed`,
      );
      expect(down.paths()).toEqual(['/robots.txt']);
    } finally {
      await down.close();
    }
  });

  it('fails with one line and exit 4 when the host refuses connections', async () => {
    const port = await closedPort();
    const result = await callCli(['fetch', `http://127.0.0.1:${port}/`, '--agent', 'ExampleBot']);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `polite: cannot fetch http://127.0.0.1:${port}/: robots.txt unreachable (connection refused); nothing was requested\n`,
    );
  });

  it(`reads a body of exactly ${CLI_DEFAULTS.maxBodyBytes} bytes in full, and stops one byte later`, async () => {
    const at = parseJson<FetchJson>(
      await callCli(['fetch', `${site.origin}/at-limit`, '--agent', 'ExampleBot', '--json']),
    );
    expect(at.response).toMatchObject({ bytes: CLI_DEFAULTS.maxBodyBytes, complete: true });
    const past = await callCli(['fetch', `${site.origin}/past-limit`, '--agent', 'ExampleBot']);
    expect(past.code).toBe(0);
    expect(past.stdout).toContain(
      `Size          ${CLI_DEFAULTS.maxBodyBytes} bytes (stopped reading at the limit)`,
    );
  });

  it('--page-timeout: a body read within it is whole; one that drips for ever, or no answer, fails with exit 4', async () => {
    const agent = ['--agent', 'ExampleBot', '--page-timeout', '1000'];
    const within = parseJson<FetchJson>(
      await callCli(['fetch', `${site.origin}/drip-3`, ...agent, '--json']),
    );
    expect(within.response).toMatchObject({ bytes: 3, complete: true });
    const forever = await callCli(['fetch', `${site.origin}/drip-forever`, ...agent]);
    expect(forever.code).toBe(4);
    expect(forever.stderr).toMatch(/drip-forever.*1000 ms/);
    const silent = await callCli(['fetch', `${site.origin}/silent`, ...agent]);
    expect(silent.code).toBe(4);
    expect(silent.stderr).toMatch(/cannot fetch .*\/silent/);
    expect(CLI_DEFAULTS.pageTimeoutMs).toBe(30_000);
  });

  it('rejects an invalid agent token with exit 2 before any request', async () => {
    const before = site.seen.length;
    const result = await callCli(['fetch', `${site.origin}/plain`, '--agent', 'Bot 2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'polite: invalid --agent "Bot 2": a product token is letters, "_" and "-" only (RFC 9309 §2.2.1), e.g. ExampleBot\n',
    );
    expect(site.seen.length).toBe(before);
  });
});
