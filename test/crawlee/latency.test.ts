/**
 * Latency-aware pacing through the Crawlee adapter's HTTP client, with each of its clients
 * (got-scraping; the policy's transport with `cache`): a server that slows down to 3 s gets its
 * next starts 3 s apart (latencyFactor 1) although `concurrency` allows four at once. Real
 * Crawlee client, real loopback server, the policy on a fake clock.
 */
import { afterEach, expect, it } from 'vitest';
import { FakeClock, until } from '../fetch/helpers/fake-clock.js';
import { gaps, pageStarts, startSlowSite } from '../helpers/slow-site.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { newRun, politeHttpClient } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';

let site: RecordingServer | undefined;
let run: RunRecord | undefined;

afterEach(async () => {
  await run?.policy.close();
  await site?.close();
});

for (const cache of [false, true]) {
  it(`a server slowing to 3 s: the next two requests start 3 s apart (cache: ${cache})`, async () => {
    const clock = new FakeClock();
    const slow = await startSlowSite(clock);
    site = slow.site;
    const { held } = slow;
    run = newRun({ clock, concurrency: 4, minInterval: 0 });
    await run.policy.prefetch(site.origin);
    const client = politeHttpClient(run, { cache });
    const get = (path: string) =>
      client.sendRequest({ url: `${site!.origin}${path}`, method: 'GET' });

    const first = get('/first');
    await until(() => held.length === 1, 'first request');
    await clock.advance(3_000); // the server takes 3 s to answer
    held.shift()!();
    expect((await first).statusCode).toBe(200);

    const a = get('/a');
    const b = get('/b');
    await until(() => held.length === 1 && clock.pending === 1, 'a sent, b waiting');
    expect(clock.deadlines[0]! - clock.now()).toBe(3_000);
    await clock.advance(3_000);
    await until(() => held.length === 2, 'b sent');
    for (const answer of held.splice(0)) answer();
    await Promise.all([a, b]);
    expect(gaps(pageStarts(site))).toEqual([3_000, 3_000]);
  });
}
