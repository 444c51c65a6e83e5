import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExplainJson } from '@polite-crawler/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCli, parseJson, runCli } from './helpers/run-cli.js';
import { redirect, routes, send, startServer, status } from '../helpers/recording-server.js';
import type { RecordingServer } from '../helpers/recording-server.js';

const ROBOTS = `User-agent: *
Disallow: /private/

User-agent-purpose: research
Disallow: /lab/
Crawl-delay: 2

User-agent: OnlyBot
Allow: /
`;

const USAGE_ROBOTS = `User-agent: *
Content-Usage: train-ai=n
Content-Usage: /open/ train-ai=y, search=y
Content-Signal: /open/ ai-train=no, ai-input=yes, ai-search=yes
Disallow: /private/
`;

let dir: string;
let robotsFile: string;
let usageFile: string;
let site: RecordingServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'polite-explain-'));
  robotsFile = join(dir, 'robots.txt');
  await writeFile(robotsFile, ROBOTS);
  usageFile = join(dir, 'usage-robots.txt');
  await writeFile(usageFile, USAGE_ROBOTS);
  site = await startServer(
    routes({
      '/robots.txt': redirect('/rules/robots.txt'),
      '/rules/robots.txt': send(ROBOTS, 'text/plain'),
    }),
  );
});

afterAll(async () => {
  await Promise.all([site.close(), rm(dir, { recursive: true, force: true })]);
});

describe('explain: usage preferences', () => {
  it('prints each preference with the robots.txt line(s) that set it', async () => {
    const result = await callCli([
      'explain',
      'https://example.com/open/page',
      '--agent',
      'ExampleBot',
      '--robots',
      usageFile,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        'Usage       train-ai: disallowed (line 4: Content-Signal: /open/ ai-train=no, ai-input=yes, ai-search=yes)',
        '            ai-use: allowed (line 4: Content-Signal: /open/ ai-train=no, ai-input=yes, ai-search=yes)',
        '            search: allowed (line 3: Content-Usage: /open/ train-ai=y, search=y)',
        '            ai-search: yes (not a vocabulary category, line 4)',
        "            (robots.txt only: a page's Content-Usage header may restrict further)",
        '',
        'Verdict     ALLOWED',
      ].join('\n'),
    );
    const json = parseJson<ExplainJson>(
      await callCli([
        'explain',
        'https://example.com/open/page',
        '--agent',
        'ExampleBot',
        '--robots',
        usageFile,
        '--json',
      ]),
    );
    expect(json.usage).toMatchObject({
      'train-ai': 'disallowed',
      'ai-use': 'allowed',
      search: 'allowed',
      reason: 'rule',
      lines: { 'train-ai': [4], 'ai-use': [4], search: [3] },
    });
    expect(json.usage?.rules.map((rule) => [rule.line, rule.kind])).toEqual([
      [3, 'content-usage'],
      [4, 'content-signal'],
    ]);
  });

  it('says nothing about usage for a path the group disallows (no preferences apply)', async () => {
    const result = await callCli([
      'explain',
      'https://example.com/private/x',
      '--agent',
      'ExampleBot',
      '--robots',
      usageFile,
      '--json',
    ]);
    expect(parseJson<ExplainJson>(result).usage).toMatchObject({
      'train-ai': 'unknown',
      'ai-use': 'unknown',
      search: 'unknown',
      reason: 'path-disallowed',
    });
  });
});

describe('explain', () => {
  it('shows how robots.txt was obtained, the group, the deciding line and the verdict', async () => {
    // The bin once, as a user runs it; the other cases call the CLI's run() in this process.
    const result = await runCli([
      'explain',
      `${site.origin}/lab/x?y=1`,
      '--agent',
      'ExampleBot',
      '--purpose',
      'research',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        `URL         ${site.origin}/lab/x?y=1`,
        'Agent       ExampleBot (purpose: research)',
        '            User-Agent: ExampleBot/1.0 (polite-crawler CLI; +https://github.com/polite-crawler/polite-crawler; research)',
        '',
        `robots.txt  ${site.origin}/robots.txt`,
        '  obtained  HTTP 200 after 1 redirect',
        `            → ${site.origin}/rules/robots.txt`,
        '  cache     miss',
        `  size      ${Buffer.byteLength(ROBOTS)} bytes (read in full)`,
        '  delay     crawl-delay 2 s for this agent',
        '',
        'Group       chosen by purpose: no group names ExampleBot; the group for purpose research applies',
        '            line 4: User-agent-purpose: research',
        '',
        'Rule        line 5: Disallow: /lab/',
        '            disallow pattern "/lab/" matches /lab/x?y=1',
        '            (the longest matching pattern decides; allow wins a tie)',
        '',
        'Verdict     DENIED',
        '',
      ].join('\n'),
    );
  });

  it.each([
    [
      'OnlyBot',
      [],
      'chosen by product token: the group naming OnlyBot',
      'Rule        line 9: Allow: /',
      0,
    ],
    [
      'ExampleBot',
      [],
      'the * group: no group names ExampleBot',
      'Rule        line 2: Disallow: /private/',
      1,
    ],
    [
      'ExampleBot',
      ['--purpose', 'other'],
      'the * group: no group names ExampleBot or purpose other',
      'Rule        line 2: Disallow: /private/',
      1,
    ],
  ])('explains the group chosen for %s %j', async (agent, extra, group, rule, code) => {
    const result = await callCli([
      'explain',
      'https://example.org/private/a',
      '--agent',
      agent,
      ...extra,
      '--robots',
      robotsFile,
    ]);
    expect(result.code).toBe(code);
    expect(result.stdout).toContain(`Group       ${group}`);
    expect(result.stdout).toContain(rule);
    expect(result.stdout).toContain(`robots.txt  ${robotsFile} (file)`);
  });

  it('counts merged groups, not their user-agent lines', async () => {
    // Two groups naming ExampleBot, each started by two user-agent lines: 2 groups, 4 lines.
    const file = join(dir, 'two-groups.txt');
    await writeFile(
      file,
      'User-agent: ExampleBot\nUser-agent: OtherBot\nDisallow: /a/\n\nUser-agent: ThirdBot\nUser-agent: ExampleBot\nDisallow: /b/\n',
    );
    const result = await callCli([
      'explain',
      'https://example.org/b/x',
      '--robots',
      file,
      '--agent',
      'ExampleBot',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Group       chosen by product token: the groups naming ExampleBot\n            (2 groups merged)\n',
    );
    expect(result.stdout).not.toContain('(4 groups merged)');
    const json = parseJson<ExplainJson>(
      await callCli([
        'explain',
        'https://example.org/b/x',
        '--robots',
        file,
        '--agent',
        'ExampleBot',
        '--json',
      ]),
    );
    expect(json).toMatchObject({ groupCount: 2 });
    expect(json.groups).toHaveLength(4);
  });

  it('explains that no group applies when there is no * group', async () => {
    const file = join(dir, 'no-star.txt');
    await writeFile(file, 'User-agent: SomeBot\nDisallow: /\n');
    const result = await callCli([
      'explain',
      'https://example.org/a',
      '--agent',
      'ExampleBot',
      '--robots',
      file,
      '--json',
    ]);
    expect(result.code).toBe(0);
    const json = parseJson<ExplainJson>(result);
    expect(json).toMatchObject({
      allowed: true,
      reason: 'no-applicable-group',
      selection: 'none',
      groups: [],
      groupCount: 0,
      rule: null,
    });
  });

  it('explains an unreachable robots.txt (503): everything disallowed', async () => {
    const down = await startServer(routes({ '/robots.txt': status(503) }));
    try {
      const result = await callCli(['explain', `${down.origin}/page`, '--agent', 'ExampleBot']);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('  obtained  unreachable: HTTP 503\n');
      expect(result.stdout).toContain(
        'Rule        none: robots.txt is unreachable (HTTP 503),\n            so every URL is disallowed (RFC 9309 §2.3.1.4)',
      );
      expect(result.stdout).toContain('Verdict     DENIED');
      expect(down.paths()).toEqual(['/robots.txt']);
    } finally {
      await down.close();
    }
  });

  it('prints the verdict and the robots.txt report as JSON', async () => {
    const result = await callCli([
      'explain',
      `${site.origin}/private/a`,
      '--agent',
      'ExampleBot',
      '--json',
    ]);
    expect(result.code).toBe(1);
    const json = parseJson<ExplainJson>(result);
    expect(json).toEqual({
      agent: {
        productToken: 'ExampleBot',
        purpose: null,
        userAgent:
          'ExampleBot/1.0 (polite-crawler CLI; +https://github.com/polite-crawler/polite-crawler)',
      },
      url: `${site.origin}/private/a`,
      allowed: false,
      reason: 'rule',
      selection: 'global',
      groups: [{ line: 1, text: 'User-agent: *' }],
      groupCount: 1,
      rule: { kind: 'disallow', pattern: '/private/', line: 2, text: 'Disallow: /private/' },
      path: '/private/a',
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
        source: 'policy',
        location: `${site.origin}/robots.txt`,
        status: 'ok',
        httpStatus: 200,
        redirects: [`${site.origin}/rules/robots.txt`],
        cache: 'miss',
        bytes: Buffer.byteLength(ROBOTS),
        truncated: false,
        failure: null,
      },
    });
  });

  it('says when the file was cut at the byte limit and ignores what follows', async () => {
    const file = join(dir, 'huge.txt');
    // The deciding rule sits past the 512000-byte limit, so it is not read.
    const filler = `# ${'x'.repeat(98)}\n`.repeat(5_200);
    await writeFile(file, `User-agent: *\n${filler}Disallow: /late\n`);
    const result = await callCli([
      'explain',
      'https://example.org/late',
      '--agent',
      'ExampleBot',
      '--robots',
      file,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      / {2}size {6}\d+ bytes parsed: the file is longer, the rest is ignored \(RFC 9309 §2\.5\)/,
    );
    expect(result.stdout).toContain('Verdict     ALLOWED');
  });

  it('times out a robots.txt URL that never answers, with exit code 4', async () => {
    const silent = await startServer(() => undefined);
    try {
      const result = await callCli([
        'explain',
        'https://example.org/',
        '--agent',
        'ExampleBot',
        '--robots',
        `${silent.origin}/robots.txt`,
        '--timeout',
        '200',
      ]);
      expect(result.code).toBe(4);
      expect(result.stderr).toBe(
        `polite: cannot fetch robots.txt ${silent.origin}/robots.txt: timed out after 0.2 s\n`,
      );
    } finally {
      await silent.close();
    }
  });
});
