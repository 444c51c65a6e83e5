import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRobotsPolicy, isRobotsInvalidOptionError } from '@polite-crawler/fetch';
import { systemClock } from '@polite-crawler/fetch/internal';
import type { RobotsPolicy, RobotsPolicyOptions } from '@polite-crawler/fetch';
import { DEFAULTS, createPlaywrightGate } from '@polite-crawler/playwright';
import type { GateEvent, PlaywrightGateOptions } from '@polite-crawler/playwright';
import { startSite } from '../helpers/recording-server.js';
import type { Answer, RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { launchChromium } from './helpers/chromium.js';
import { FakeClock, until } from '../fetch/helpers/fake-clock.js';
import { heldBatch } from '../helpers/held-batch.js';
import { WaitingPacer } from '../helpers/waiting-pacer.js';
import type { Browser, BrowserContext } from './helpers/playwright-core.js';

const USER_AGENT = 'GateBot/1.0 (+http://127.0.0.1/bot)';
const META = '<meta name="robots" content="noindex">';

/** A page whose robots meta ends exactly at byte `end` of the body. */
function metaEndingAt(end: number): Answer {
  const prefix = '<!doctype html><html><head><title>';
  const padding = 'x'.repeat(end - prefix.length - '</title>'.length - META.length);
  return {
    headers: { 'content-type': 'text/html' },
    body: `${prefix}${padding}</title>${META}<link rel="icon" href="data:,"></head><body>capped</body></html>`,
  };
}

/**
 * What the gate sent for `path`: as a page closes, Chromium may still send a request it had
 * paused for the route itself, unrouted, with its own User-Agent (see the README's limits).
 */
const sentByGate = (server: SiteServer, path: string): SiteServer['seen'] =>
  server.hits(path).filter((hit) => hit.headers['user-agent'] === USER_AGENT);

let browser: Browser;
let site: SiteServer;

beforeAll(async () => {
  browser = await launchChromium();
  site = await startSite({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    '/tagged': {
      headers: [
        ['content-type', 'text/html'],
        ['x-robots-tag', 'otherbot: noindex'],
        ['x-robots-tag', 'nosnippet'],
      ],
      body:
        '<!doctype html><html><head><meta name="robots" content="noarchive"><meta name="GateBot" content="nofollow">' +
        "<script>const m = document.createElement('meta'); m.name = 'robots'; m.content = 'noindex'; document.head.append(m);</script>" +
        '</head><body>tagged</body></html>',
    },
    '/image.png': {
      headers: [
        ['content-type', 'image/png'],
        ['x-robots-tag', 'noimageindex'],
      ],
      body: 'png',
    },
    '/expired': {
      headers: [
        ['content-type', 'text/html'],
        ['x-robots-tag', 'unavailable_after: 2001-01-01'],
        ['cache-control', 'no-store'],
        ['content-usage', 'train-ai=n'],
      ],
      body: '<!doctype html><html><head><title>old</title></head><body>old</body></html>',
    },
    '/cap-1024': metaEndingAt(1024),
    '/cap-1025': metaEndingAt(1025),
  });
});

afterAll(async () => {
  await browser.close();
  await site.close();
});

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0)) await close();
});

/** A context behind a gate of its own (and a policy: no spacing unless `policyOptions` say so). */
async function gated(
  options: Partial<PlaywrightGateOptions> = {},
  policyOptions: Partial<RobotsPolicyOptions> = {},
): Promise<{
  policy: RobotsPolicy;
  context: BrowserContext;
  gate: ReturnType<typeof createPlaywrightGate>;
}> {
  const policy = createRobotsPolicy({ userAgent: USER_AGENT, minInterval: 0, ...policyOptions });
  const gate = createPlaywrightGate({ policy, ...options });
  const context = await browser.newContext();
  await gate.attach(context);
  cleanup.push(async () => {
    await context.close();
    await policy.close();
  });
  return { policy, context, gate };
}

describe('the directives of a navigation', () => {
  it('reads repeated X-Robots-Tag lines one by one, as received', async () => {
    const { policy, context, gate } = await gated({ metas: 'served' });
    const page = await context.newPage();
    const robots = await gate.robots((await page.goto(`${site.origin}/tagged`))!);
    expect(robots.directives.nosnippet).toBe(true);
    expect(robots.directives.noindex).toBe(false);
    // Joined into one line (as Playwright's headers() and fulfil do), the rule would go to otherbot.
    expect(policy.directives([['x-robots-tag', 'otherbot: noindex, nosnippet']]).nosnippet).toBe(
      false,
    );
  });

  it('an unavailable_after that has passed is noindex, with its reason and the freshness', async () => {
    const { context, gate } = await gated({ metas: 'served' });
    const page = await context.newPage();
    const { directives } = await gate.robots((await page.goto(`${site.origin}/expired`))!);
    expect(directives).toMatchObject({ noindex: true, noindexReason: 'unavailable_after' });
    expect(directives.freshness?.source).toBe('no-store');
  });

  it('carries the usage preferences: the Content-Usage field with robots.txt for the URL', async () => {
    const { context, gate } = await gated({ metas: 'served' });
    const page = await context.newPage();
    const { usage } = await gate.robots((await page.goto(`${site.origin}/expired`))!);
    expect(usage).toMatchObject({ 'train-ai': 'disallowed', search: 'unknown' });
    expect(usage.sources['train-ai']).toEqual([{ kind: 'content-usage-field' }]);
  });

  it("with metas: 'both', a noindex injected by a script counts, and so do the served metas", async () => {
    const { context, gate } = await gated();
    const page = await context.newPage();
    const { directives } = await gate.robots((await page.goto(`${site.origin}/tagged`))!);
    expect(directives.noindex).toBe(true); // from the script
    expect(directives.noarchive).toBe(true); // served <meta name="robots">
    expect(directives.nofollow).toBe(true); // served <meta name="GateBot">
    expect(directives.nosnippet).toBe(true); // header
  });

  it("with metas: 'served', a meta injected by a script is not seen; with 'rendered' it is", async () => {
    const served = await gated({ metas: 'served' });
    const servedPage = await served.context.newPage();
    const fromHtml = await served.gate.robots((await servedPage.goto(`${site.origin}/tagged`))!);
    expect(fromHtml.directives.noindex).toBe(false);
    expect(fromHtml.directives.noarchive).toBe(true);

    const rendered = await gated({ metas: 'rendered' });
    const renderedPage = await rendered.context.newPage();
    const fromDom = await rendered.gate.robots((await renderedPage.goto(`${site.origin}/tagged`))!);
    expect(fromDom.directives.noindex).toBe(true);
    expect(fromDom.directives.noarchive).toBe(true);
  });

  it('reads the header of a non-HTML response and no metas', async () => {
    const { context, gate } = await gated();
    const page = await context.newPage();
    const { directives } = await gate.robots((await page.goto(`${site.origin}/image.png`))!);
    expect(directives.noimageindex).toBe(true);
    expect(directives.rules.every((rule) => rule.source === 'header')).toBe(true);
  });

  it('finds a served meta that ends at maxHeadBytes, not one byte past it', async () => {
    const { context, gate } = await gated({ metas: 'served', maxHeadBytes: 1024 });
    const page = await context.newPage();
    expect(
      (await gate.robots((await page.goto(`${site.origin}/cap-1024`))!)).directives.noindex,
    ).toBe(true);
    expect(
      (await gate.robots((await page.goto(`${site.origin}/cap-1025`))!)).directives.noindex,
    ).toBe(false);
  });
});

describe('pacing and options', () => {
  it('counts a request until its body has ended: a slow image body holds the slot (concurrency 1)', async () => {
    const open: ServerResponse[] = [];
    // Each image: headers and a first chunk now, the rest when the test says so.
    const slowImage = (_req: unknown, res: ServerResponse): void => {
      res.writeHead(200, { 'content-type': 'image/png' }).write('p');
      open.push(res);
    };
    const slow = await startSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
      '/two': { body: '<img src="/i/1.png"><img src="/i/2.png">' },
      '/i/1.png': slowImage,
      '/i/2.png': slowImage,
    });
    cleanup.push(() => slow.close());
    const { context } = await gated({ pace: 'all' }, { concurrency: 1 });
    const page = await context.newPage();
    const loaded = page.goto(`${slow.origin}/two`);
    await until(() => open.length === 1, 'the first image at the server');
    for (let i = 0; i < 200; i += 1) await new Promise((resolve) => setImmediate(resolve));
    // Its body has not ended: the other image has not been sent.
    expect(open).toHaveLength(1);
    open.shift()!.end('ng');
    await until(() => open.length === 1, 'the second image at the server');
    open.shift()!.end('ng');
    await loaded;
    expect(slow.maxConcurrent).toBe(1);
  });

  it('holds concurrent subresources of one origin to the policy concurrency', async () => {
    const images = Array.from({ length: 4 }, (_, i) => `/slow/${i}.png`);
    const png: Answer = { headers: { 'content-type': 'image/png' }, body: 'png' };
    const pacer = new WaitingPacer(systemClock);
    // Each image is held until another arrives, so a browser that sends them in parallel is
    // caught with several in flight; or, behind the gate, until the others wait for the slot.
    const slow = await startSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
      '/gallery': { body: images.map((src) => `<img src="${src}">`).join('') },
      '/plain': { body: images.map((src) => `<img src="${src}?plain">`).join('') },
      ...heldBatch(images, png, pacer),
      ...heldBatch(
        images.map((src) => `${src}?plain`),
        png,
      ),
    });
    try {
      const { context } = await gated({}, { pacer });
      const page = await context.newPage();
      await page.goto(`${slow.origin}/gallery`);
      expect(images.every((src) => slow.hits(src).length === 1)).toBe(true);
      expect(slow.maxConcurrent).toBe(1);

      // The same page without the gate (its images a batch of their own): Chromium fetches the
      // images in parallel.
      const plain = await browser.newContext();
      cleanup.push(() => plain.close());
      const before = slow.seen.length;
      await (await plain.newPage()).goto(`${slow.origin}/plain`);
      expect(slow.seen.length).toBeGreaterThan(before);
      expect(slow.seen.slice(before).some((seen) => seen.concurrent > 1)).toBe(true);
    } finally {
      await slow.close();
    }
  });

  it('a 429 with Retry-After pauses the origin before the next subresource takes the slot', async () => {
    const clock = new FakeClock();
    const pacer = new WaitingPacer(clock);
    const paused: number[] = [];
    const paced = await startSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
      '/two': { body: `<img src="/busy.png">` },
      // Answered once the second image waits for the slot the first holds.
      '/busy.png': () => ({
        status: 429,
        headers: { 'retry-after': '30' },
        body: '',
        hold: pacer.whenWaiting(1),
      }),
      '/next.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
    });
    const { context } = await gated(
      {},
      {
        concurrency: 1,
        clock,
        pacer,
        onEvent: (event) => {
          if (event.type === 'origin-paused') paused.push(event.until);
        },
      },
    );
    cleanup.push(() => paced.close());
    const page = await context.newPage();
    await page.goto(`${paced.origin}/two`, { waitUntil: 'domcontentloaded' });
    // The second image is asked for while the first holds the slot.
    await paced.arrived('/busy.png');
    await page.evaluate("new Image().src = '/next.png'");
    // The slot given back, the second image sleeps until the end of the pause; noted too late,
    // the pause would have let it take the slot at once (and reach the server).
    await clock.until(
      () =>
        paced.hits('/next.png').length > 0 ||
        (paused.length === 1 && clock.deadlines.includes(paused[0]!)),
      'the second image sent, or asleep until the end of the pause',
    );
    expect(paced.hits('/next.png')).toHaveLength(0);
    await clock.advance(1_000);
    expect(paced.hits('/next.png')).toHaveLength(0);
    await clock.advance(29_000);
    await clock.until(() => paced.hits('/next.png').length === 1, 'the second image');
  });

  it('drops the requests of a closed page that still wait for their slot: the gate never sends them', async () => {
    const clock = new FakeClock();
    // More than Node's default of 10 listeners on one signal: no leak warning for a busy page.
    const images = Array.from({ length: 12 }, (_, i) => `/queued/${String(i + 10)}.png`);
    const png: Answer = { headers: { 'content-type': 'image/png' }, body: 'png' };
    const queued = await startSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
      '/gallery': {
        headers: { 'content-type': 'text/html' },
        body: images.map((src) => `<img src="${src}">`).join(''),
      },
      '/next': { headers: { 'content-type': 'text/html' }, body: '<p>next</p>' },
      ...Object.fromEntries(images.map((src) => [src, png])),
    });
    // The page takes the slot; each image must wait 10 s after it, on a clock that stands still.
    const events: GateEvent[] = [];
    const pacer = new WaitingPacer(clock);
    const { context } = await gated(
      { onEvent: (event) => events.push(event) },
      { minInterval: 10_000, concurrency: 1, clock, pacer },
    );
    cleanup.push(() => queued.close());
    const warnings: Error[] = [];
    const onWarning = (warning: Error): number => warnings.push(warning);
    process.on('warning', onWarning);
    cleanup.push(() => {
      process.off('warning', onWarning);
      return Promise.resolve();
    });
    const page = await context.newPage();
    const asked = new Set<string>();
    page.on('request', (request) => asked.add(new URL(request.url()).pathname));
    await page.goto(`${queued.origin}/gallery`, { waitUntil: 'domcontentloaded' });
    // The route handlers of all the images have reached the wait for the slot.
    await clock.until(
      () => images.every((src) => asked.has(src)) && pacer.waiting === images.length,
      'the images waiting for their slot',
    );
    await page.close();

    const dropped = (): string[] =>
      events
        .filter((event) => event.type === 'request-failed')
        .filter((event) => (event.error as Error).name === 'AbortError')
        .map((event) => new URL(event.url).pathname)
        .sort();
    await clock.until(() => dropped().length === images.length, 'the dropped images');
    expect(dropped()).toEqual(images);
    // Long past every image's turn: the gate sends none of them, and the slot is free at once.
    await clock.advance(60_000);
    const next = await context.newPage();
    expect((await next.goto(`${queued.origin}/next`, { timeout: 10_000 }))?.status()).toBe(200);
    for (const src of images) expect(sentByGate(queued, src)).toHaveLength(0);
    expect(sentByGate(queued, '/next')).toHaveLength(1);
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });

  it('a subresource that waited for its slot is refused when the robots.txt in force by then disallows it', async () => {
    const clock = new FakeClock();
    let robotsFetches = 0;
    const changing = await startSite({
      // The first copy allows everything; every later one disallows everything.
      '/robots.txt': () => {
        robotsFetches += 1;
        return {
          headers: { 'content-type': 'text/plain' },
          body: robotsFetches === 1 ? 'User-agent: *\nAllow: /\n' : 'User-agent: *\nDisallow: /\n',
        };
      },
      '/gallery': { headers: { 'content-type': 'text/html' }, body: '<img src="/late.png">' },
      '/late.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
    });
    // The copy is used for 1 s; the image waits 1.5 s for its slot after the page.
    const events: GateEvent[] = [];
    const pacer = new WaitingPacer(clock);
    const { context } = await gated(
      { onEvent: (event) => events.push(event) },
      { minInterval: 1_500, concurrency: 1, robotsMaxTtl: 1_000, robotsMinTtl: 0, clock, pacer },
    );
    cleanup.push(() => changing.close());
    const page = await context.newPage();
    await page.goto(`${changing.origin}/gallery`, { waitUntil: 'domcontentloaded' });
    await clock.until(
      () => pacer.waiting === 1 && clock.pending > 0,
      'the image waiting for its slot',
    );
    await clock.advance(1_500);
    const denied = (): GateEvent[] =>
      events.filter((event) => event.type === 'request-denied' && event.url.endsWith('/late.png'));
    await clock.until(() => denied().length === 1, 'the image refused');
    expect(sentByGate(changing, '/late.png')).toHaveLength(0);
    expect(robotsFetches).toBe(2);
  });

  it('drops a navigation whose page closes while its robots.txt is still being fetched', async () => {
    let answerRobots = (): void => {};
    const robotsHeld = new Promise<void>((resolve) => (answerRobots = resolve));
    const slow = await startSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '', hold: robotsHeld },
      '/page': { headers: { 'content-type': 'text/html' }, body: '<p>page</p>' },
    });
    const events: GateEvent[] = [];
    const { context } = await gated({ onEvent: (event) => events.push(event) });
    cleanup.push(async () => {
      answerRobots();
      await slow.close();
    });
    const page = await context.newPage();
    const navigation = page.goto(`${slow.origin}/page`).catch((error: unknown) => error);
    await until(() => slow.hits('/robots.txt').length === 1, 'the robots.txt request');
    await page.close();
    await navigation;
    answerRobots();
    // robots.txt is answered and cached; the page it was fetched for is gone, so is its request.
    const failed = (): GateEvent[] => events.filter((event) => event.type === 'request-failed');
    await until(() => failed().length === 1, 'the dropped navigation');
    expect((failed()[0] as { error: Error }).error.name).toBe('AbortError');
    // A later navigation to the origin goes through: nothing of the closed page went before it.
    const next = await context.newPage();
    await next.goto(`${slow.origin}/robots.txt`);
    expect(sentByGate(slow, '/page')).toHaveLength(0);
  });

  it('validates its options once, naming the bad one', () => {
    const policy = createRobotsPolicy({ userAgent: USER_AGENT });
    cleanup.push(() => policy.close());
    const invalid = (options: Partial<PlaywrightGateOptions>): unknown => {
      try {
        createPlaywrightGate({ policy, ...options });
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(DEFAULTS.maxRedirects).toBe(20);
    expect(invalid({ maxRedirects: 100 })).toBeUndefined();
    expect(invalid({ maxRedirects: 101 })).toMatchObject({
      code: 'ERR_ROBOTS_INVALID_OPTION',
      option: 'maxRedirects',
    });
    expect(invalid({ maxHeadBytes: 1023 })).toMatchObject({ option: 'maxHeadBytes' });
    expect(invalid({ metas: 'dom' as 'served' })).toMatchObject({ option: 'metas' });
    expect(invalid({ paces: 'all' } as Partial<PlaywrightGateOptions>)).toMatchObject({
      code: 'ERR_ROBOTS_INVALID_OPTION',
      option: 'paces',
      suggestion: 'pace',
    });
    expect(isRobotsInvalidOptionError(invalid({ policy: {} as RobotsPolicy }))).toBe(true);
  });
});
