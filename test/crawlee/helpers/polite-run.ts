import { createRobotsPolicy } from '@polite-crawler/fetch';
import type { RobotsPolicy, RobotsPolicyOptions } from '@polite-crawler/fetch';
import { politeCrawlee } from '@polite-crawler/crawlee';
import type { CrawleeEvent, PoliteCrawleeOptions } from '@polite-crawler/crawlee';
import type { BaseHttpClient } from '@crawlee/core';
import { Configuration, log } from './crawlee.js';
import type { ConfigurationType } from './crawlee.js';

export const USER_AGENT = 'PoliteTestBot/1.0 (+http://127.0.0.1/bot)';

// Crawlee logs every skip and failure; the tests assert on the record instead.
log.setLevel(process.env.CRAWLEE_TEST_LOG === '1' ? log.LEVELS.DEBUG : log.LEVELS.OFF);

/** What a test run collects: Crawlee's skip reports, the adapter's events, handled URLs. */
export interface RunRecord {
  readonly policy: RobotsPolicy;
  /** In-memory storage: nothing is written to disk or ./storage. */
  readonly config: ConfigurationType;
  readonly skipped: Array<{ url: string; reason: string }>;
  readonly events: CrawleeEvent[];
  readonly handled: string[];
  onSkippedRequest(args: { url: string; reason: string }): void;
  onEvent(event: CrawleeEvent): void;
}

/** A fresh policy (no pacing delay unless asked) and in-memory Crawlee storage for one test. */
export function newRun(policyOptions: Partial<RobotsPolicyOptions> = {}): RunRecord {
  const skipped: RunRecord['skipped'] = [];
  const events: CrawleeEvent[] = [];
  return {
    policy: createRobotsPolicy({
      userAgent: USER_AGENT,
      minInterval: 0,
      concurrency: 4,
      ...policyOptions,
    }),
    config: new Configuration({ persistStorage: false, purgeOnStart: true }),
    skipped,
    events,
    handled: [],
    onSkippedRequest: (args) => {
      skipped.push({ url: args.url, reason: args.reason });
    },
    onEvent: (event) => {
      events.push(event);
    },
  };
}

/** The polite HTTP client the adapter gives an HTTP crawler of `record`'s policy. */
export function politeHttpClient(
  record: RunRecord,
  adapterOptions: PoliteCrawleeOptions = {},
): BaseHttpClient {
  const { httpClient } = politeCrawlee<{ httpClient?: BaseHttpClient }>(
    record.policy,
    {},
    { config: record.config, ...adapterOptions },
  );
  if (httpClient === undefined) throw new Error('politeCrawlee gives an httpClient');
  return httpClient;
}
