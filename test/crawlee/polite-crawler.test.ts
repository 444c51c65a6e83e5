/**
 * `politeCrawler(Crawler, policy, options, config)`: the crawler is built with the
 * Configuration, and the adapter's request queue is opened under it. With
 * `new Configuration({ persistStorage: false })` nothing is written to ./storage (each test runs
 * in an empty temporary working directory), while robots.txt skips and pacing through the queue
 * still hold, for CheerioCrawler, HttpCrawler and PlaywrightCrawler (Debian Chromium).
 *
 * The policy's clock is fake and moves only while the crawler is idle (see runOnFakeClock): a
 * crawl-delay ten times the navigation timeout takes no real time, and the server records the
 * fake time each page arrived.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import core from '@crawlee/core';
import { politeCrawlee, politeCrawler } from '@polite-crawler/crawlee';
import type { PoliteCrawlerOptions } from '@polite-crawler/crawlee';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import { RobotsInvalidOptionError } from '@polite-crawler/fetch';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright/helpers/chromium.js';
import { FakeClock } from '../fetch/helpers/fake-clock.js';
import { startSite } from '../helpers/recording-server.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import {
  CheerioCrawler,
  Configuration,
  HttpCrawler,
  PlaywrightCrawler,
  log,
} from './helpers/crawlee.js';
import type { ConfigurationType } from './helpers/crawlee.js';
import { newRun } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';
import { runOnFakeClock } from './helpers/run-on-fake-clock.js';

const CRAWL_DELAY_MS = 10_000;
const PAGES = ['/p1', '/p2', '/p3'];

/** Keeps the messages Crawlee's logger would print (the adapter's warnings among them). */
class Capture extends core.Logger {
  readonly lines: string[] = [];
  override _log(_level: number, message: string): void {
    this.lines.push(message);
  }
}

const home = process.cwd();
const saved = log.getOptions();
let cwd: string;
/** The suite's CRAWLEE_STORAGE_DIR (test/crawlee-storage-setup.ts), set aside during each test. */
const suiteStorageDir = process.env.CRAWLEE_STORAGE_DIR;
let site: RecordingServer | undefined;
let run: RunRecord | undefined;
let capture: Capture;

beforeEach(() => {
  // A fresh, empty working directory: Crawlee's default storage folder is ./storage in it.
  cwd = mkdtempSync(join(tmpdir(), 'polite-crawler-cwd-'));
  process.chdir(cwd);
  // As a user runs it: no CRAWLEE_STORAGE_DIR, so ./storage is where Crawlee would write.
  delete process.env.CRAWLEE_STORAGE_DIR;
  errors = [];
  capture = new Capture(saved);
  log.setOptions({ logger: capture, level: log.LEVELS.WARNING });
});

afterEach(async () => {
  log.setOptions({ logger: saved.logger, level: saved.level });
  await run?.policy.close();
  await site?.close();
  process.chdir(home);
  if (suiteStorageDir !== undefined) process.env.CRAWLEE_STORAGE_DIR = suiteStorageDir;
  rmSync(cwd, { recursive: true, force: true });
});

/** A site with a crawl-delay and a disallowed area. */
async function pacedSite(clock: FakeClock): Promise<RecordingServer> {
  const page = (body: string) => ({
    headers: { 'content-type': 'text/html' },
    body: `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`,
  });
  return startSite(
    {
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nCrawl-delay: 10\nDisallow: /private/\n',
      },
      '/p1': page('p1'),
      '/p2': page('p2'),
      '/p3': page('p3'),
      '/private/x': page('secret'),
    },
    { now: () => clock.now() },
  );
}

/** What every crawl below must show: skips, pacing, the config, and no ./storage. */
async function expectPoliteInMemory(
  crawler: {
    readonly config: unknown;
    readonly requestQueue?: unknown;
    readonly stats: {
      readonly state: { requestsFinished: number; requestsFailed: number; requestsRetries: number };
    };
  },
  config: ConfigurationType,
  handled: string[],
): Promise<void> {
  const server = site!;
  expect(errors).toEqual([]);
  // The crawler's Configuration is the one given, and the adapter's queue was opened under it.
  expect(crawler.config).toBe(config);
  const manager = crawler.requestQueue as { inner(): Promise<{ readonly config: unknown }> };
  expect((await manager.inner()).config).toBe(config);
  expect(capture.lines.filter((line) => line.includes('Configuration'))).toEqual([]);
  // Robots gating: the disallowed link was skipped, never requested.
  expect(handled.sort()).toEqual(PAGES);
  expect(server.hits('/private/x')).toEqual([]);
  expect(run!.skipped).toEqual([{ url: `${server.origin}/private/x`, reason: 'robotsTxt' }]);
  // Pacing: each page once, each at least the crawl-delay after the one before; no timeouts.
  const times = PAGES.map((path) => server.hits(path).map((seen) => seen.at));
  expect(times.map((at) => at.length)).toEqual([1, 1, 1]);
  const sorted = times.flat().sort((a, b) => a - b);
  for (let at = 1; at < sorted.length; at += 1) {
    expect(sorted[at]! - sorted[at - 1]!).toBeGreaterThanOrEqual(CRAWL_DELAY_MS);
  }
  expect(crawler.stats.state.requestsFinished).toBe(3);
  expect(crawler.stats.state.requestsFailed).toBe(0);
  expect(crawler.stats.state.requestsRetries).toBe(0);
  // Nothing on disk: no ./storage in the working directory.
  expect(existsSync(join(cwd, 'storage'))).toBe(false);
  expect(readdirSync(cwd)).toEqual([]);
}

/** Errors the crawls below met (none expected: the waits are not inside Crawlee's timeouts). */
let errors: string[] = [];

/**
 * The crawler options every crawl below shares: a navigation timeout half the crawl-delay (a
 * wait inside the navigation would time out), and every error recorded.
 */
const crawlOptions = (handled: string[]) => ({
  autoscaledPoolOptions: { maybeRunIntervalSecs: 0.01 },
  minConcurrency: 2,
  maxConcurrency: 2,
  navigationTimeoutSecs: CRAWL_DELAY_MS / 2_000,
  maxRequestRetries: 1,
  onSkippedRequest: (args: { url: string; reason: string }) => run!.onSkippedRequest(args),
  errorHandler: (_context: unknown, error: Error) => void errors.push(error.message),
  failedRequestHandler: (_context: unknown, error: Error) => void errors.push(error.message),
  requestHandler: (context: { request: { url: string } }) => {
    handled.push(new URL(context.request.url).pathname);
  },
});

/** The start URLs: the pages and the disallowed one. */
const startUrls = (): string[] => [...PAGES, '/private/x'].map((path) => `${site!.origin}${path}`);

describe("politeCrawler: the crawler's own Configuration", () => {
  it('CheerioCrawler with persistStorage: false writes nothing to ./storage; skips and pacing hold', async () => {
    const clock = new FakeClock();
    site = await pacedSite(clock);
    run = newRun({ clock, concurrency: 1 });
    const config = new Configuration({ persistStorage: false });
    const handled: string[] = [];
    const crawler = politeCrawler(CheerioCrawler, run.policy, crawlOptions(handled), config);
    expect(crawler).toBeInstanceOf(CheerioCrawler);
    await runOnFakeClock(crawler, clock, startUrls());
    await expectPoliteInMemory(crawler, config, handled);
  });

  it('HttpCrawler: the same', async () => {
    const clock = new FakeClock();
    site = await pacedSite(clock);
    run = newRun({ clock, concurrency: 1 });
    const config = new Configuration({ persistStorage: false });
    const handled: string[] = [];
    const crawler = politeCrawler(HttpCrawler, run.policy, crawlOptions(handled), config);
    expect(crawler).toBeInstanceOf(HttpCrawler);
    await runOnFakeClock(crawler, clock, startUrls());
    await expectPoliteInMemory(crawler, config, handled);
  });

  it('PlaywrightCrawler (with the browser gate): the same', async () => {
    const clock = new FakeClock();
    site = await pacedSite(clock);
    run = newRun({ clock, concurrency: 1 });
    const config = new Configuration({ persistStorage: false });
    const handled: string[] = [];
    const crawler = politeCrawler(
      PlaywrightCrawler,
      run.policy,
      {
        ...crawlOptions(handled),
        launchContext: {
          launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS },
        },
        browserPoolOptions: { useFingerprints: false },
      },
      config,
      { browser: createPlaywrightGate({ policy: run.policy }) },
    );
    expect(crawler).toBeInstanceOf(PlaywrightCrawler);
    await runOnFakeClock(crawler, clock, startUrls());
    await expectPoliteInMemory(crawler, config, handled);
  }, 120_000);

  it('without the factory, the queue is opened under the global configuration: ./storage is written (what the factory fixes)', async () => {
    const clock = new FakeClock();
    site = await pacedSite(clock);
    run = newRun({ clock, concurrency: 1 });
    const config = new Configuration({ persistStorage: false });
    const handled: string[] = [];
    const crawler = new CheerioCrawler(politeCrawlee(run.policy, crawlOptions(handled)), config);
    await runOnFakeClock(crawler, clock, [`${site.origin}/p1`]);
    expect(handled).toEqual(['/p1']);
    expect(existsSync(join(cwd, 'storage', 'request_queues'))).toBe(true);
    expect(capture.lines.filter((line) => line.includes('Configuration of its own'))).toHaveLength(
      1,
    );
  });

  it('without a config, the crawler and its queue use the global configuration', () => {
    run = newRun();
    const crawler = politeCrawler(CheerioCrawler, run.policy, { requestHandler: () => undefined });
    expect(crawler.config).toBe(Configuration.getGlobalConfig());
  });

  it('refuses a config that is not a Configuration, and config among the adapter options', () => {
    run = newRun();
    const policy = run.policy;
    const options = { requestHandler: () => undefined };
    const refusal = (call: () => unknown): unknown => {
      try {
        call();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const notConfig = refusal(() =>
      politeCrawler(CheerioCrawler, policy, options, { persistStorage: false } as never),
    );
    expect(notConfig).toBeInstanceOf(RobotsInvalidOptionError);
    expect(notConfig).toMatchObject({ option: 'config' });
    const inAdapter = refusal(() =>
      politeCrawler(CheerioCrawler, policy, options, undefined, {
        config: new Configuration(),
      } as PoliteCrawlerOptions),
    );
    expect(inAdapter).toBeInstanceOf(RobotsInvalidOptionError);
    expect(inAdapter).toMatchObject({ option: 'config' });
    expect(
      refusal(() => politeCrawler(CheerioCrawler, policy, options, undefined, 'reject' as never)),
    ).toMatchObject({ option: 'options' });
    expect(
      refusal(() => politeCrawler(undefined as unknown as typeof CheerioCrawler, policy, options)),
    ).toMatchObject({
      option: 'Crawler',
    });
    // A browser crawler without the gate is refused as with politeCrawlee.
    expect(
      refusal(() =>
        politeCrawler(PlaywrightCrawler, policy, { headless: true }, undefined, {} as never),
      ),
    ).toMatchObject({ option: 'browser' });
  });
});
