import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckJson } from '@polite-crawler/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, callCli, ESCAPE, parseJson, runCli } from './helpers/run-cli.js';
import { closedPort, routes, send, startServer, status } from '../helpers/recording-server.js';
import type { RecordingServer } from '../helpers/recording-server.js';

const ROBOTS = `# test robots.txt
User-agent: *
Disallow: /private/
Allow: /private/open

User-agent-purpose: research
Disallow: /lab/

User-agent: ExampleBot
Disallow: /not-for-example
`;

let dir: string;
let robotsFile: string;
let site: RecordingServer;
let down: RecordingServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'polite-check-'));
  robotsFile = join(dir, 'robots.txt');
  await writeFile(robotsFile, ROBOTS);
  site = await startServer(routes({ '/robots.txt': send(ROBOTS, 'text/plain') }));
  down = await startServer(routes({ '/robots.txt': status(503, 'maintenance') }));
});

afterAll(async () => {
  await Promise.all([site.close(), down.close(), rm(dir, { recursive: true, force: true })]);
});

describe('check --robots <file>', () => {
  it('exits 0 and says why when every URL is allowed', async () => {
    const result = await callCli([
      'check',
      'https://example.org/',
      'https://example.org/private/open',
      '--agent',
      'OtherBot',
      '--robots',
      robotsFile,
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(
      'ALLOWED  https://example.org/\n         no rule matches; group "User-agent: *" (line 2)',
    );
    expect(result.stdout).toContain(
      'ALLOWED  https://example.org/private/open\n         Allow: /private/open (line 4)',
    );
    expect(result.stdout).toContain('OtherBot: 2 allowed, 0 denied');
  });

  it('exits 1 and quotes the deciding line when a URL is denied', async () => {
    // The bin (exit code 1 from a process); the other cases call the CLI's run() in this process.
    const result = await runCli([
      'check',
      'https://example.org/',
      'https://example.org/private/x',
      '--agent',
      'OtherBot',
      '--robots',
      robotsFile,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'DENIED   https://example.org/private/x\n         Disallow: /private/ (line 3); group "User-agent: *" (line 2)',
    );
    expect(result.stdout).toContain(
      `robots.txt ${robotsFile} (file, ${Buffer.byteLength(ROBOTS)} bytes)`,
    );
  });

  it('picks the product group over the purpose group over *', async () => {
    const product = await callCli([
      'check',
      'https://example.org/lab/a',
      'https://example.org/not-for-example',
      '--agent',
      'examplebot',
      '--purpose',
      'research',
      '--robots',
      robotsFile,
    ]);
    expect(product.code).toBe(1);
    expect(product.stdout).toContain(
      'ALLOWED  https://example.org/lab/a\n         no rule matches; group "User-agent: ExampleBot" (line 9)',
    );
    expect(product.stdout).toContain('DENIED   https://example.org/not-for-example');
    const purpose = await callCli([
      'check',
      'https://example.org/lab/a',
      'https://example.org/private/x',
      '--agent',
      'OtherBot',
      '--purpose',
      'research',
      '--robots',
      robotsFile,
    ]);
    expect(purpose.stdout).toContain(
      'DENIED   https://example.org/lab/a\n         Disallow: /lab/ (line 7); group "User-agent-purpose: research" (line 6)',
    );
    // The purpose group replaces the * group, so /private/ is not disallowed for it.
    expect(purpose.stdout).toContain('ALLOWED  https://example.org/private/x');
  });

  it('prints a JSON document with every field', async () => {
    const result = await callCli([
      'check',
      'https://example.org/private/x',
      'https://example.org/a',
      '--agent',
      'OtherBot',
      '--robots',
      robotsFile,
      '--json',
    ]);
    expect(result.code).toBe(1);
    const json = parseJson<CheckJson>(result);
    expect(json.agent).toEqual({
      productToken: 'OtherBot',
      purpose: null,
      userAgent:
        'OtherBot/1.0 (polite-crawler CLI; +https://github.com/polite-crawler/polite-crawler)',
    });
    expect(json.allowed).toBe(1);
    expect(json.denied).toBe(1);
    expect(json.results[0]).toEqual({
      url: 'https://example.org/private/x',
      allowed: false,
      reason: 'rule',
      selection: 'global',
      groups: [{ line: 2, text: 'User-agent: *' }],
      groupCount: 1,
      rule: { kind: 'disallow', pattern: '/private/', line: 3, text: 'Disallow: /private/' },
      path: '/private/x',
      stale: false,
      crawlDelay: null,
      usage: {
        'train-ai': 'unknown',
        'ai-use': 'unknown',
        search: 'unknown',
        reason: 'path-disallowed',
        lines: { 'train-ai': [], 'ai-use': [], search: [] },
        rules: [],
        extensions: [],
      },
      robotsTxt: {
        source: 'file',
        location: robotsFile,
        status: 'ok',
        httpStatus: null,
        redirects: [],
        cache: null,
        failure: null,
        bytes: Buffer.byteLength(ROBOTS),
        truncated: false,
      },
    });
    expect(json.results[1]).toMatchObject({
      url: 'https://example.org/a',
      allowed: true,
      reason: 'no-matching-rule',
      rule: null,
    });
  });
});

describe('check through the policy (no --robots)', () => {
  it('fetches each origin’s robots.txt once, with the crawler’s User-Agent', async () => {
    const before = site.seen.length;
    const result = await callCli([
      'check',
      `${site.origin}/a`,
      `${site.origin}/private/b`,
      `${site.origin}/c`,
      '--agent',
      'OtherBot',
      '--json',
    ]);
    expect(result.code).toBe(1);
    const seen = site.seen.slice(before);
    expect(seen.map((request) => request.path)).toEqual(['/robots.txt']);
    expect(seen[0]?.userAgent).toBe(
      'OtherBot/1.0 (polite-crawler CLI; +https://github.com/polite-crawler/polite-crawler)',
    );
    const json = parseJson<CheckJson>(result);
    expect(json.results.map((verdict) => verdict.allowed)).toEqual([true, false, true]);
    expect(json.results[1]?.rule).toEqual({
      kind: 'disallow',
      pattern: '/private/',
      line: 3,
      text: 'Disallow: /private/',
    });
    expect(json.results[1]?.robotsTxt).toMatchObject({
      source: 'policy',
      location: `${site.origin}/robots.txt`,
      status: 'ok',
      httpStatus: 200,
    });
  });

  it('denies everything on an origin whose robots.txt answers 503', async () => {
    const result = await callCli(['check', `${down.origin}/anything`, '--agent', 'OtherBot']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `DENIED   ${down.origin}/anything\n         robots.txt unreachable (HTTP 503): everything disallowed`,
    );
    expect(down.paths()).not.toContain('/anything');
  });

  it('allows everything when robots.txt is missing (404)', async () => {
    const empty = await startServer(() => false);
    try {
      const result = await callCli(['check', `${empty.origin}/x`, '--agent', 'OtherBot', '--json']);
      expect(result.code).toBe(0);
      const json = parseJson<CheckJson>(result);
      expect(json.results[0]).toMatchObject({
        allowed: true,
        reason: 'unavailable',
        selection: null,
        rule: null,
      });
      expect(json.results[0]?.robotsTxt).toMatchObject({ status: 'unavailable', httpStatus: 404 });
    } finally {
      await empty.close();
    }
  });

  it('reports an origin that refuses connections as unreachable (denied), with exit code 4 as fetch', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/x`;
    // The bin (exit code 4 from a process), and the CLI's run() for fetch below.
    const result = await runCli(['check', url, '--agent', 'OtherBot']);
    expect(result.code).toBe(4);
    expect(result.stdout).toContain(
      'robots.txt unreachable (connection refused): everything disallowed',
    );
    expect(result.stderr).toBe(
      `polite: cannot reach http://127.0.0.1:${port}/robots.txt: connection refused; its URLs are reported denied\n`,
    );
    // fetch agrees: the same origin is exit code 4 there too.
    expect((await callCli(['fetch', url, '--agent', 'OtherBot'])).code).toBe(4);
  });

  it('says what it waits for on a terminal (stderr), and nothing when stderr is not one', async () => {
    const silent = await startServer(() => undefined);
    try {
      const url = `${silent.origin}/x`;
      // The bin, its stderr a real pipe.
      const piped = await runCli(['check', url, '--agent', 'OtherBot', '--timeout', '1500']);
      expect(piped.stderr).not.toContain('waiting');
      // A real pseudo-terminal: script(1) runs the bin with its output on a pty.
      const command = [
        process.execPath,
        BIN,
        'check',
        url,
        '--agent',
        'OtherBot',
        '--timeout',
        '1500',
      ]
        .map((arg) => `'${arg}'`)
        .join(' ');
      const tty = spawnSync('script', ['-q', '-e', '-c', command, '/dev/null'], {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      const erase = `\r${ESCAPE}2K`;
      expect(tty.stdout).toContain(`${erase}waiting for robots.txt: 0 of 1 URL answered · `);
      // Erased before the report is printed.
      expect(tty.stdout).toContain(`${erase}DENIED `);
    } finally {
      await silent.close();
    }
  });
});

describe('check --robots <url>', () => {
  it('reads the rules from the URL and applies them to every URL given', async () => {
    const result = await callCli([
      'check',
      'https://example.org/private/x',
      '--agent',
      'OtherBot',
      '--robots',
      `${site.origin}/robots.txt`,
      '--json',
    ]);
    expect(result.code).toBe(1);
    expect(parseJson<CheckJson>(result).results[0]?.robotsTxt).toMatchObject({
      source: 'url',
      httpStatus: 200,
      location: `${site.origin}/robots.txt`,
    });
  });

  it('fails with exit code 4 when the URL does not answer 2xx', async () => {
    const result = await callCli([
      'check',
      'https://example.org/',
      '--agent',
      'OtherBot',
      '--robots',
      `${down.origin}/robots.txt`,
    ]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `polite: cannot fetch robots.txt ${down.origin}/robots.txt: HTTP 503 (a crawler treats robots.txt as unreachable and disallows everything)\n`,
    );
  });
});

describe('check usage errors', () => {
  it.each([
    [
      ['check', 'https://example.org/', '--agent', 'Example Bot'],
      'polite: invalid --agent "Example Bot": a product token is letters, "_" and "-" only (RFC 9309 §2.2.1), e.g. ExampleBot',
    ],
    [
      ['check', 'https://example.org/', '--agent', 'ExampleBot/1.0'],
      'polite: invalid --agent "ExampleBot/1.0": a product token is letters, "_" and "-" only (RFC 9309 §2.2.1), e.g. ExampleBot',
    ],
    [
      ['check', 'https://example.org/', '--agent', 'ExampleBot', '--purpose', 'a b'],
      'polite: invalid --purpose "a b": a purpose token is letters, digits, "_" and "-" only, e.g. search',
    ],
    [
      ['check', 'https://example.org/', '--agent', 'ExampleBot', '--user-agent', 'Other/1.0'],
      'polite: invalid --user-agent "Other/1.0": it must contain the product token ExampleBot (RFC 9309 §2.2.1)',
    ],
    [
      ['check', 'example.org/x', '--agent', 'ExampleBot'],
      'polite: invalid URL "example.org/x": not an absolute URL',
    ],
    [
      ['check', 'ftp://example.org/x', '--agent', 'ExampleBot'],
      'polite: invalid URL "ftp://example.org/x": only http and https URLs are supported',
    ],
    [
      ['check', 'https://example.org/'],
      "polite: required option '-a, --agent <token>' not specified",
    ],
    [['check', '--agent', 'ExampleBot'], "polite: missing required argument 'url'"],
    [
      ['check', 'https://example.org/', '--agent', 'ExampleBot', '--robot', 'x'],
      "polite: unknown option '--robot' (Did you mean --robots?)",
    ],
  ])('%j → exit 2 and one line', async (args, line) => {
    const result = await callCli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`${line}\n`);
  });

  it('fails with exit code 4 when the robots.txt file does not exist', async () => {
    const result = await callCli([
      'check',
      'https://example.org/',
      '--agent',
      'ExampleBot',
      '--robots',
      join(dir, 'nope.txt'),
    ]);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      `polite: cannot read robots.txt file ${join(dir, 'nope.txt')}: no such file\n`,
    );
  });
});
