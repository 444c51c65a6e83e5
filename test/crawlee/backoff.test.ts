/**
 * Back-off through the Crawlee adapter's HTTP client (got-scraping inside, or the policy's transport with `cache`): a 500 and a reset
 * connection are distress, and the origin's next request waits for the back-off on the
 * policy's fake clock; a success brings it back.
 */
import { afterEach, expect, it } from 'vitest';
import type { PoliteEvent } from '@polite-crawler/fetch';
import { FakeClock } from '../fetch/helpers/fake-clock.js';
import { startSite } from '../helpers/recording-server.js';
import type { RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { newRun, politeHttpClient } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';

let site: SiteServer | undefined;
let run: RunRecord | undefined;

afterEach(async () => {
  await run?.policy.close();
  await site?.close();
});

for (const cache of [false, true])
  it(`a 500, then a reset connection: the origin backs off 2 s, then 4 s; a success recovers it (cache: ${cache})`, async () => {
    let failures = 1;
    const clock = new FakeClock();
    site = await startSite(
      {
        '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
        '/fail': { status: 500, body: 'broken' },
        '/reset': { reset: true },
        '/ok': () =>
          failures-- > 0 ? { status: 500, body: 'still broken' } : { body: 'fine', status: 200 },
      },
      { now: () => clock.now() },
    );
    const events: PoliteEvent[] = [];
    run = newRun({ clock, concurrency: 1, onEvent: (e) => events.push(e) });
    await run.policy.prefetch(site.origin);
    const httpClient = politeHttpClient(run, { cache });
    const backoffs = () => events.filter((e) => e.type === 'origin-backoff');

    expect(
      (await httpClient.sendRequest({ url: `${site.origin}/fail`, method: 'GET' })).statusCode,
    ).toBe(500);
    expect(backoffs()).toMatchObject([{ cause: 500, distress: 1, delay: 2_000 }]);

    const reset = httpClient.sendRequest({
      url: `${site.origin}/reset`,
      method: 'GET',
      retry: { limit: 0 },
    } as never);
    const settled = reset.then(
      () => 'answered',
      () => 'failed',
    );
    await clock.until(() => clock.pending > 0, 'the next request waiting for the back-off');
    expect(clock.deadlines[0]! - clock.now()).toBe(2_000);
    expect(site.hits('/reset')).toHaveLength(0);
    await clock.advance(2_000);
    expect(await settled).toBe('failed');
    expect(backoffs().at(-1)).toMatchObject({ cause: 'connection', distress: 2, delay: 4_000 });

    // 500 once more (distress 3: 8 s), then successes halve it: 4 s, 2 s, then recovered.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const next = httpClient.sendRequest({ url: `${site.origin}/ok`, method: 'GET' });
      await clock.until(() => clock.pending > 0 || site!.hits('/ok').length > i, 'sent or waiting');
      if (clock.pending > 0) await clock.advance(clock.deadlines[0]! - clock.now());
      statuses.push((await next).statusCode);
    }
    expect(statuses).toEqual([500, 200, 200, 200]);
    const starts = site.hits('/ok').map((hit) => hit.at);
    expect(starts.slice(1).map((at, i) => at - starts[i]!)).toEqual([8_000, 4_000, 2_000]);
    expect(events.at(-1)).toMatchObject({ type: 'origin-recovered', origin: site.origin });
  });
