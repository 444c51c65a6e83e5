/**
 * The crawler's own Configuration: the adapter cannot see it before the first request (see the
 * README), so a default queue opened with another one is reported, once, at the first request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import core from '@crawlee/core';
import { politeCrawlee } from '@polite-crawler/crawlee';
import { startSite } from '../helpers/recording-server.js';
import type { RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { CheerioCrawler, Configuration, log } from './helpers/crawlee.js';
import { newRun } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';

/** Keeps the messages Crawlee's logger would print. */
class Capture extends core.Logger {
  readonly lines: string[] = [];
  override _log(_level: number, message: string): void {
    this.lines.push(message);
  }
}

let site: SiteServer | undefined;
let run: RunRecord | undefined;
let capture: Capture;
const saved = log.getOptions();

beforeEach(() => {
  // The global configuration is the one the adapter falls back to: keep it off the disk.
  Configuration.getGlobalConfig().set('persistStorage', false);
  capture = new Capture(saved);
  log.setOptions({ logger: capture, level: log.LEVELS.WARNING });
});

afterEach(async () => {
  log.setOptions({ logger: saved.logger, level: saved.level });
  await run?.policy.close();
  await site?.close();
});

const warnings = (): string[] =>
  capture.lines.filter((line) => line.includes('Configuration of its own'));

describe("the crawler's own Configuration", () => {
  it('a default queue opened with another one is reported once, at the first request', async () => {
    site = await startSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
      '/a': { headers: { 'content-type': 'text/html' }, body: '<p>a</p>' },
      '/b': { headers: { 'content-type': 'text/html' }, body: '<p>b</p>' },
    });
    run = newRun();
    const crawler = new CheerioCrawler(
      politeCrawlee(run.policy, { requestHandler: () => undefined }),
      run.config,
    );
    await crawler.run([`${site.origin}/a`, `${site.origin}/b`]);
    expect(crawler.stats.state.requestsFinished).toBe(2);
    expect(warnings()).toHaveLength(1);
  });

  it('nothing is reported when the adapter is given the same one', async () => {
    site = await startSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
      '/a': { headers: { 'content-type': 'text/html' }, body: '<p>a</p>' },
    });
    run = newRun();
    const crawler = new CheerioCrawler(
      politeCrawlee(run.policy, { requestHandler: () => undefined }, { config: run.config }),
      run.config,
    );
    await crawler.run([`${site.origin}/a`]);
    expect(crawler.stats.state.requestsFinished).toBe(1);
    expect(warnings()).toEqual([]);
  });
});
