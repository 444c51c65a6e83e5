/**
 * What the adapter reports, and how often: a skipped URL once, however many pages link to it;
 * a refused redirect as a skip, never at ERROR.
 */
import { afterEach, describe, expect, it } from 'vitest';
import core from '@crawlee/core';
import type { LogLevel } from '@crawlee/core';
import { politeCrawlee } from '@polite-crawler/crawlee';
import { DEFAULTS } from '@polite-crawler/crawlee';
import { BoundedKeys } from '../../packages/crawlee/src/bounded-keys.js';
import { startSite } from '../helpers/recording-server.js';
import type { Answer, RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { CheerioCrawler, log } from './helpers/crawlee.js';
import { newRun } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';

let site: SiteServer | undefined;
let run: RunRecord | undefined;

afterEach(async () => {
  await run?.policy.close();
  await site?.close();
});

const linking: Answer = {
  headers: { 'content-type': 'text/html' },
  body: '<html><body><a href="/private/x">x</a><a href="/a">a</a><a href="/b">b</a><a href="/c">c</a></body></html>',
};

describe('a skipped URL is reported once', () => {
  it('however many pages link to it (log line, event and onSkippedRequest)', async () => {
    site = await startSite({
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nDisallow: /private/\n',
      },
      '/a': linking,
      '/b': linking,
      '/c': linking,
    });
    run = newRun();
    const record = run;
    const crawler = new CheerioCrawler(
      politeCrawlee(
        record.policy,
        {
          maxConcurrency: 1,
          requestHandler: async ({ enqueueLinks }) => {
            await enqueueLinks();
          },
          onSkippedRequest: record.onSkippedRequest,
        },
        { onEvent: record.onEvent },
      ),
      record.config,
    );
    await crawler.run([`${site.origin}/a`]);
    expect(
      site
        .paths()
        .filter((path) => path !== '/robots.txt')
        .sort(),
    ).toEqual(['/a', '/b', '/c']);
    expect(record.skipped).toEqual([{ url: `${site.origin}/private/x`, reason: 'robotsTxt' }]);
    expect(record.events.filter((event) => event.type === 'request-skipped')).toHaveLength(1);
  });

  it('remembers at most maxRememberedSkips URLs: at the limit nothing is forgotten, one past it the oldest is', () => {
    const reported = new BoundedKeys(3);
    expect(['a', 'b', 'c'].map((url) => reported.first(url))).toEqual([true, true, true]);
    expect(['a', 'b', 'c'].map((url) => reported.first(url))).toEqual([false, false, false]);
    expect(reported.size).toBe(3);
    expect(reported.first('d')).toBe(true); // one past: 'a' is forgotten
    expect(reported.size).toBe(3);
    expect(reported.first('a')).toBe(true);
    expect(reported.first('d')).toBe(false);
    expect(DEFAULTS.maxRememberedSkips).toBe(10_000);
  });
});

/** Keeps what Crawlee's logger would print: level and message (prefix and data apart). */
class Capture extends core.Logger {
  readonly lines: Array<{ level: LogLevel; message: string }> = [];
  override _log(level: LogLevel, message: string): void {
    this.lines.push({ level, message });
  }
}

describe('a refused redirect is logged as a skip', () => {
  it("not at ERROR by Crawlee: the adapter's skip line says it, other failures still log their ERROR", async () => {
    site = await startSite({
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nDisallow: /private/\n',
      },
      '/go': { status: 302, headers: { location: '/private/target' } },
      '/broken': { status: 500, headers: { 'content-type': 'text/plain' }, body: 'oops' },
    });
    run = newRun();
    const record = run;
    const saved = log.getOptions();
    const capture = new Capture(saved);
    log.setOptions({ logger: capture, level: log.LEVELS.INFO });
    try {
      const crawler = new CheerioCrawler(
        politeCrawlee(
          record.policy,
          {
            maxRequestRetries: 0,
            requestHandler: () => undefined,
            onSkippedRequest: record.onSkippedRequest,
          },
          { config: record.config },
        ),
        record.config,
      );
      await crawler.run([`${site.origin}/go`, `${site.origin}/broken`]);
      expect(crawler.stats.state.requestsFailed).toBe(2);
    } finally {
      log.setOptions({ logger: saved.logger, level: saved.level });
    }

    const errors = capture.lines.filter((line) => line.level === log.LEVELS.ERROR);
    expect(errors.map((line) => line.message).join('\n')).not.toMatch(/RobotsDenied|private/);
    // The 500 is a failure of its own: still at ERROR.
    expect(errors.filter((line) => line.message.includes('500'))).toHaveLength(1);
    expect(capture.lines).toContainEqual({
      level: log.LEVELS.INFO,
      message: `Skipped (robots.txt): ${site.origin}/private/target, the redirect target of ${site.origin}/go (line 2 "Disallow: /private/")`,
    });
    expect(record.skipped).toEqual([{ url: `${site.origin}/private/target`, reason: 'robotsTxt' }]);
    expect(site.hits('/private/target')).toEqual([]);
  });

  it('remembers at most maxRememberedSkips refused requests: the oldest key is forgotten one past it', () => {
    const refusals = new BoundedKeys(2);
    refusals.add('a');
    refusals.add('b');
    expect(refusals.size).toBe(2);
    refusals.add('c'); // one past: 'a' is forgotten
    expect(refusals.size).toBe(2);
    // The logger consumes a key when it drops the failure line it is about.
    expect(refusals.delete('a')).toBe(false);
    expect(refusals.delete('b')).toBe(true);
    expect(refusals.delete('b')).toBe(false); // once
  });
});
