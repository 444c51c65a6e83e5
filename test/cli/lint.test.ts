import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckJson, LintJson } from '@polite-crawler/cli';
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
import type { RecordingServer } from '../helpers/recording-server.js';

const MESSY = [
  'Disallow: /before-any-group', // 1: rule outside a group
  'User-agent: ExampleBot', // 2
  'Dissallow: /typo', // 3: accepted typo
  'Frobnicate: yes', // 4: unknown key
  'User-agent: Bad Bot/2.0', // 5: invalid product token
  'Crawl-delay: soon', // 6: invalid crawl-delay
  'Sitemap: /relative.xml', // 7: invalid sitemap URL
  'Sitemap: https://example.org/sitemap.xml', // 8: fine
  '',
].join('\n');

let dir: string;
let site: RecordingServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'polite-lint-'));
  site = await startServer(
    routes({
      '/robots.txt': send(MESSY, 'text/plain'),
      '/clean.txt': send('User-agent: *\nDisallow: /private/\n', 'text/plain'),
      '/hop0': redirect('/hop1'),
      '/hop1': redirect('/hop2'),
      '/hop2': redirect('/hop3'),
      '/hop3': redirect('/hop4'),
      '/hop4': redirect('/hop5'),
      '/hop5': redirect('/clean.txt'),
      '/gone.txt': status(404),
      '/image.png': send(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
        'image/png',
      ),
    }),
  );
});

afterAll(async () => {
  await Promise.all([site.close(), rm(dir, { recursive: true, force: true })]);
});

async function file(name: string, content: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

describe('lint', () => {
  it('lists every diagnostic with its line and exits 3 when there are errors', async () => {
    const path = await file('messy.txt', MESSY);
    // The bin once (exit code 3 from a process); the other cases call the CLI's run() here.
    const result = await runCli(['lint', path]);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('');
    const rows = result.stdout.split('\n').filter((line) => /^ {2}\d+ /.test(line));
    expect(rows.map((row) => row.trim().split(/\s+/).slice(0, 3))).toEqual([
      ['1', 'error', 'rule-outside-group'],
      ['3', 'warning', 'accepted-typo'],
      ['4', 'warning', 'unknown-key'],
      ['5', 'warning', 'invalid-product-token'],
      ['6', 'error', 'invalid-crawl-delay'],
      ['7', 'error', 'invalid-sitemap-url'],
    ]);
    expect(result.stdout).toContain('| Dissallow: /typo');
    expect(result.stdout).toContain(
      `6 problems: 3 errors, 3 warnings, 0 infos (${Buffer.byteLength(MESSY)} bytes, 1 sitemap)`,
    );
  });

  it('reports malformed Content-Usage / Content-Signal values and usage rules that can never apply', async () => {
    const content = [
      'User-agent: *',
      'Content-Usage: train-ai=maybe',
      'Content-Usage: /x/',
      'Content-Usage: Train-AI=n',
      'Content-Signal: search=perhaps',
      'Disallow: /private/',
      'Content-Usage: /private/docs/ train-ai=y',
      'Content-Usage: /ok/ train-ai=n, search=y',
      '',
    ].join('\n');
    const result = await callCli(['lint', await file('usage.txt', content)]);
    expect(result.code).toBe(3);
    const rows = result.stdout.split('\n').filter((line) => /^ {2}\d+ /.test(line));
    expect(rows.map((row) => row.trim().split(/\s+/).slice(0, 3))).toEqual([
      ['2', 'warning', 'unknown-usage-value'],
      ['3', 'warning', 'empty-usage-statement'],
      ['4', 'error', 'invalid-usage-value'],
      ['5', 'warning', 'unknown-usage-value'],
      ['7', 'error', 'usage-path-disallowed'],
    ]);
    // Each with the offending line quoted, and the blocking line named.
    expect(result.stdout).toContain('| Content-Usage: Train-AI=n');
    expect(result.stdout).toContain('| Content-Signal: search=perhaps');
    expect(result.stdout).toContain('"/private/docs/" (line 6)');
  });

  it('exits 1 when there are warnings only, 0 when clean', async () => {
    const warnings = await callCli([
      'lint',
      await file('warn.txt', 'User-agent: *\nDissallow: /x\n'),
    ]);
    expect(warnings.code).toBe(1);
    expect(warnings.stdout).toContain('1 problem: 0 errors, 1 warning, 0 infos');
    const clean = await callCli(['lint', await file('clean.txt', 'User-agent: *\nDisallow: /x\n')]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('no problems (27 bytes, 0 sitemaps)');
  });

  it('prints a JSON document with every diagnostic, its line text and a summary', async () => {
    const path = await file('messy.json.txt', MESSY);
    const result = await callCli(['lint', path, '--json']);
    expect(result.code).toBe(3);
    const json = parseJson<LintJson>(result);
    expect(json.robotsTxt).toMatchObject({
      source: 'file',
      location: path,
      bytes: Buffer.byteLength(MESSY),
      truncated: false,
    });
    expect(json.summary).toEqual({
      errors: 3,
      warnings: 3,
      infos: 0,
      sitemaps: ['https://example.org/sitemap.xml'],
    });
    expect(json.diagnostics[0]).toEqual({
      line: 1,
      severity: 'error',
      code: 'rule-outside-group',
      message: expect.any(String) as string,
      text: 'Disallow: /before-any-group',
    });
    expect(json.diagnostics.map((diagnostic) => diagnostic.line)).toEqual([1, 3, 4, 5, 6, 7]);
  });

  it('reports encoding problems', async () => {
    const path = await file(
      'latin1.txt',
      Buffer.concat([
        Buffer.from('User-agent: *\nDisallow: /caf'),
        Buffer.from([0xe9]),
        Buffer.from('\n'),
      ]),
    );
    const result = await callCli(['lint', path, '--json']);
    const json = parseJson<LintJson>(result);
    // The line is quoted as the parser read it: the octet 0xE9 is one character, U+00E9.
    expect(json.diagnostics).toContainEqual(
      expect.objectContaining({ line: 2, code: 'invalid-utf8', text: 'Disallow: /caf\u00e9' }),
    );
  });

  it('reads a URL, following redirects', async () => {
    const result = await callCli(['lint', `${site.origin}/robots.txt`]);
    expect(result.code).toBe(3);
    expect(result.stdout.split('\n')[0]).toBe(`${site.origin}/robots.txt (HTTP 200)`);
    const hops = await callCli(['lint', `${site.origin}/hop1`, '--json']);
    expect(hops.code).toBe(0);
    expect(parseJson<LintJson>(hops).robotsTxt.redirects).toHaveLength(CLI_DEFAULTS.maxRedirects);
  });
});

describe('lint limits', () => {
  it(`parses a file of exactly ${CLI_DEFAULTS.maxRobotsBytes} bytes in full`, async () => {
    const head = 'User-agent: *\n';
    const line = `Disallow: /${'a'.repeat(88)}\n`; // 100 bytes
    const body =
      head +
      line.repeat((CLI_DEFAULTS.maxRobotsBytes - head.length) / 100) +
      'x'.repeat((CLI_DEFAULTS.maxRobotsBytes - head.length) % 100);
    expect(Buffer.byteLength(body)).toBe(CLI_DEFAULTS.maxRobotsBytes);
    const result = await callCli(['lint', await file('at-limit.txt', body), '--json']);
    const json = parseJson<LintJson>(result);
    expect(json.robotsTxt.truncated).toBe(false);
    expect(json.diagnostics.map((diagnostic) => diagnostic.code)).not.toContain('input-truncated');
  });

  it('cuts a file one byte past the limit and says so', async () => {
    const head = 'User-agent: *\n';
    const line = `Disallow: /${'a'.repeat(88)}\n`;
    const body = head + line.repeat(Math.ceil(CLI_DEFAULTS.maxRobotsBytes / 100));
    const trimmed = body.slice(0, CLI_DEFAULTS.maxRobotsBytes + 1);
    const result = await callCli(['lint', await file('past-limit.txt', trimmed), '--json']);
    const json = parseJson<LintJson>(result);
    expect(json.robotsTxt.truncated).toBe(true);
    expect(json.robotsTxt.bytes).toBeLessThanOrEqual(CLI_DEFAULTS.maxRobotsBytes);
    expect(json.diagnostics.map((diagnostic) => diagnostic.code)).toContain('input-truncated');
  });

  it('counts the bytes parsed as check does (a line cut by the limit is not parsed)', async () => {
    const line = `Disallow: /${'a'.repeat(88)}\n`;
    const body = 'User-agent: *\n' + line.repeat(Math.ceil(CLI_DEFAULTS.maxRobotsBytes / 100));
    const served = await startServer(routes({ '/robots.txt': send(body, 'text/plain') }));
    try {
      const linted = parseJson<LintJson>(
        await callCli(['lint', await file('cut.txt', body), '--json']),
      );
      const checked = parseJson<CheckJson>(
        await callCli(['check', `${served.origin}/x`, '--agent', 'ExampleBot', '--json']),
      );
      expect(linted.robotsTxt.bytes).toBeLessThan(CLI_DEFAULTS.maxRobotsBytes);
      expect(checked.results[0]?.robotsTxt).toMatchObject({
        bytes: linted.robotsTxt.bytes,
        truncated: true,
      });
      const text = await callCli(['lint', await file('cut.txt', body)]);
      expect(text.stdout).toContain(
        `(${linted.robotsTxt.bytes} bytes parsed (truncated), 0 sitemaps)`,
      );
    } finally {
      await served.close();
    }
  });

  it('reads only the start of a huge file', async () => {
    const huge = Buffer.alloc(64 * 1024 * 1024, 'User-agent: *\nDisallow: /x\n');
    const result = await callCli(['lint', await file('huge.txt', huge), '--json']);
    expect(result.stderr).toBe('');
    const json = parseJson<LintJson>(result);
    expect(json.robotsTxt.truncated).toBe(true);
    expect(json.robotsTxt.bytes).toBeLessThanOrEqual(CLI_DEFAULTS.maxRobotsBytes);
  });

  it(`refuses a NUL byte within the first ${CLI_DEFAULTS.binarySniffBytes} bytes, not after`, async () => {
    const last = Buffer.alloc(CLI_DEFAULTS.binarySniffBytes, '#');
    last[CLI_DEFAULTS.binarySniffBytes - 1] = 0;
    const rejected = await callCli(['lint', await file('nul-last.bin', last)]);
    expect(rejected.code).toBe(4);
    expect(rejected.stderr).toBe(
      `polite: cannot read robots.txt file ${join(dir, 'nul-last.bin')}: not a text file (NUL byte at offset ${CLI_DEFAULTS.binarySniffBytes - 1})\n`,
    );
    const past = Buffer.alloc(CLI_DEFAULTS.binarySniffBytes + 1, '#');
    past[CLI_DEFAULTS.binarySniffBytes] = 0;
    const accepted = await callCli(['lint', await file('nul-past.bin', past)]);
    expect(accepted.stderr).toBe('');
    expect([0, 1, 3]).toContain(accepted.code);
  });

  it(`follows ${CLI_DEFAULTS.maxRedirects} redirects but not ${CLI_DEFAULTS.maxRedirects + 1}`, async () => {
    const result = await callCli(['lint', `${site.origin}/hop0`]);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      `polite: cannot fetch robots.txt ${site.origin}/hop0: more than ${CLI_DEFAULTS.maxRedirects} redirects\n`,
    );
  });
});

describe('lint input errors', () => {
  it.each([
    [
      'a missing file',
      () => join(dir, 'missing.txt'),
      (path: string) => `cannot read robots.txt file ${path}: no such file`,
    ],
    [
      'a directory',
      () => dir,
      (path: string) => `cannot read robots.txt file ${path}: is a directory`,
    ],
    [
      'a binary URL',
      () => `${site.origin}/image.png`,
      (url: string) => `cannot read robots.txt ${url}: not a text file (NUL byte at offset 8)`,
    ],
    [
      'a 404 URL',
      () => `${site.origin}/gone.txt`,
      (url: string) =>
        `cannot fetch robots.txt ${url}: HTTP 404 (a crawler treats robots.txt as unavailable and allows everything)`,
    ],
  ])('%s → exit 4 and one line', async (_name, target, message) => {
    const spec = target();
    const result = await callCli(['lint', spec]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`polite: ${message(spec)}\n`);
  });

  it('an unreachable URL → exit 4 and one line', async () => {
    const port = await closedPort();
    const result = await callCli(['lint', `http://127.0.0.1:${port}/robots.txt`]);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      `polite: cannot fetch robots.txt http://127.0.0.1:${port}/robots.txt: connection refused\n`,
    );
  });

  it('a missing argument → exit 2', async () => {
    const result = await callCli(['lint']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("polite: missing required argument 'file|url'\n");
  });
});
