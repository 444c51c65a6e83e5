import { beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from './helpers/run-cli.js';
import { ESCAPE, runCli } from './helpers/run-cli.js';

/** The output with what legitimately changes between runs (ports, durations) masked. */
function stable(stdout: string): string {
  return stdout
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:PORT')
    .replace(/ in \d+\.\d s/g, ' in N s');
}

describe('demo', () => {
  let first: CliResult;
  let second: CliResult;

  beforeAll(async () => {
    [first, second] = await Promise.all([runCli(['demo']), runCli(['demo'])]);
  }, 60_000);

  it('exits 0 with nothing on stderr and no colours or progress line when piped', () => {
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.stdout).not.toContain(ESCAPE);
    expect(first.stdout).not.toContain('\r');
  });

  it('serves two origins on 127.0.0.1 and names them A and B', () => {
    expect(first.stdout).toMatch(/^ {2}A = http:\/\/127\.0\.0\.1:\d+ {2}the demo site/m);
    expect(first.stdout).toMatch(
      /^ {2}B = http:\/\/127\.0\.0\.1:\d+ {2}a second origin linked from A; its robots\.txt answers 503$/m,
    );
  });

  it('shows the usage preferences robots.txt and a page header state, and where', () => {
    const out = first.stdout;
    expect(out).toMatch(/^ {2}fetched +200 +A\/about +train-ai: no \(header\), 2 links$/m);
    expect(out).toMatch(
      /^ {2}fetched +200 +A\/articles\/first +train-ai: no \(robots\.txt\), search: yes \(robots\.txt\), 1 link$/m,
    );
  });

  it('lists the fetched, noindex, denied and failed pages with their reasons', () => {
    const out = first.stdout;
    expect(out).toMatch(/^ {2}fetched +200 +A\/ +\d+ links$/m);
    expect(out).toMatch(/^ {2}fetched +200 +A\/old-home → A\/welcome +1 link$/m);
    expect(out).toMatch(/^ {2}fetched +200 +A\/search\?q=polite&page=2 +1 link$/m);
    expect(out).toMatch(/^ {2}noindex +200 +A\/noindex-header +noindex \(header\), 1 link$/m);
    expect(out).toMatch(/^ {2}noindex +200 +A\/noindex-meta +noindex \(meta\), 1 link$/m);
    expect(out).toMatch(/^ {2}fetched +200 +A\/nofollow-meta +nofollow \(meta\), 1 link$/m);
    expect(out).toMatch(
      /^ {2}denied +- +A\/private\/report +Disallow: \/private\/ \(line 8 of A\/robots\.txt\)$/m,
    );
    expect(out).toMatch(
      /^ {2}denied +- +A\/drafts\/next-post +Disallow: \/drafts\/ \(line 9 of A\/robots\.txt\)$/m,
    );
    expect(out).toMatch(
      /^ {2}denied +- +A\/moved +redirect to A\/private\/moved refused, never requested: Disallow: \/private\/ \(line 8 of A\/robots\.txt\)$/m,
    );
    expect(out).toMatch(
      /^ {2}denied +- +B\/ +B\/robots\.txt unreachable \(HTTP 503\): everything disallowed$/m,
    );
    expect(out).toMatch(/^ {2}error +404 +A\/missing +HTTP 404$/m);
    expect(out).toMatch(/^ {2}A +HTTP 200, \d+ bytes +1 s +250 ms +15$/m);
    expect(out).toMatch(/^ {2}B +unreachable \(HTTP 503\) +- +- +1$/m);
  });

  it('lists the links it did not follow', () => {
    expect(first.stdout).toMatch(/^ {2}nofollow-link +A\/login +A\/$/m);
    expect(first.stdout).toMatch(/^ {2}nofollow-page +A\/hidden-by-nofollow +A\/nofollow-meta$/m);
    expect(first.stdout).toMatch(/^ {2}off-site +https:\/\/example\.com\/ +A\/$/m);
    expect(first.stdout).not.toContain('commented-out');
    expect(first.stdout).not.toContain('from-script');
  });

  it('ends with the summary, an explanation and what the servers saw', () => {
    expect(first.stdout).toContain(
      'Summary: 10 fetched (2 noindex), 5 denied by robots.txt, 1 error, 3 links not followed\n',
    );
    expect(first.stdout).toContain('Why was A/private/report denied? (polite explain)');
    expect(first.stdout).toContain(
      '  Group       chosen by purpose: no group names PoliteDemoBot; the group for purpose research applies\n' +
        '              line 6: User-agent-purpose: research\n',
    );
    expect(first.stdout).toContain('  Rule        line 8: Disallow: /private/\n');
    expect(first.stdout).toContain('  A: 15 requests, B: 1 request (3 for robots.txt)\n');
    expect(first.stdout).toContain(
      '  0 requests to a URL that robots.txt or nofollow put off limits\n',
    );
  });

  it('prints the same report on every run, apart from ports and durations', () => {
    expect(second.code).toBe(0);
    expect(stable(second.stdout)).toBe(stable(first.stdout));
  });
});
