/**
 * What the adapter reports, and how often: a skipped URL once, however many pages link to it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { politeCrawlee } from '@polite-crawler/crawlee';
import { DEFAULTS } from '@polite-crawler/crawlee';
import { ReportedSkips } from '../../packages/crawlee/src/reported-skips.js';
import { startSite } from '../helpers/recording-server.js';
import type { Answer, RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { CheerioCrawler } from './helpers/crawlee.js';
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
    const reported = new ReportedSkips(3);
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
