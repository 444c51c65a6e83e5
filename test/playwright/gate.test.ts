import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createRobotsPolicy,
  isRobotsDeniedError,
  isRobotsInvalidOptionError,
} from '@polite-crawler/fetch';
import type { RobotsPolicy } from '@polite-crawler/fetch';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import type { GateEvent, PlaywrightGate, PlaywrightGateOptions } from '@polite-crawler/playwright';
import { startSite } from '../helpers/recording-server.js';
import type { Answer, RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { launchChromium } from './helpers/chromium.js';
import type { Browser, BrowserContext, Page } from './helpers/playwright-core.js';

const USER_AGENT = 'GateBot/1.0 (+http://127.0.0.1/bot)';
const html = (body: string, head = ''): Answer => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head>${head}</head><body>${body}</body></html>`,
});
const redirect = (status: number, location: string): Answer => ({ status, headers: { location } });
const png: Answer = { headers: { 'content-type': 'image/png' }, body: 'png' };
/** What a site served, without the favicon Chromium asks for on its own, whenever it likes. */
const requested = (server: SiteServer): string[] =>
  server.paths().filter((path) => path !== '/favicon.ico');

let browser: Browser;
let other: SiteServer;
let site: SiteServer;

beforeAll(async () => {
  browser = await launchChromium();
  other = await startSite({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /blocked\n',
    },
    '/open': html('<p>other origin</p>'),
  });
  site = await startSite({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    },
    '/page': html(
      '<img src="/img/ok.png"><img src="/private/no.png"><script src="/private/x.js"></script>',
      '<link rel="stylesheet" href="/style.css">',
    ),
    '/img/ok.png': png,
    '/style.css': { headers: { 'content-type': 'text/css' }, body: 'p { color: red }' },
    '/start': redirect(302, '/mid'),
    '/mid': redirect(301, '/private/end'),
    '/to-other': () => redirect(302, `${other.origin}/blocked`),
    '/to-other-open': () => redirect(307, `${other.origin}/open`),
    '/r1': redirect(302, '/r2'),
    '/r2': redirect(301, '/final'),
    '/final': html('<a href="next">next</a>'),
    '/c3': redirect(302, '/c2'),
    '/c2': redirect(302, '/c1'),
    '/c1': redirect(302, '/end'),
    '/end': html('<p>end</p>'),
    '/form': html('<form method="post" action="/submit"><input name="q" value="v"></form>'),
    '/submit': redirect(303, '/done'),
    '/done': html('<p>done</p>'),
    '/form307': html('<form method="post" action="/k307"><input name="q" value="w"></form>'),
    '/k307': redirect(307, '/k-target'),
    '/k-target': html('<p>kept</p>'),
  });
});

afterAll(async () => {
  await browser.close();
  await site.close();
  await other.close();
});

interface Setup {
  readonly policy: RobotsPolicy;
  readonly gate: PlaywrightGate;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly events: GateEvent[];
}

let open: Setup[] = [];

async function setup(options: Partial<PlaywrightGateOptions> = {}): Promise<Setup> {
  const policy = createRobotsPolicy({ userAgent: USER_AGENT, minInterval: 0, concurrency: 4 });
  const events: GateEvent[] = [];
  const gate = createPlaywrightGate({ policy, onEvent: (event) => events.push(event), ...options });
  const context = await browser.newContext({ serviceWorkers: 'block' });
  await gate.attach(context);
  const page = await context.newPage();
  const setupResult = { policy, gate, context, page, events };
  open.push(setupResult);
  return setupResult;
}

afterEach(async () => {
  for (const { context, policy } of open) {
    await context.close();
    await policy.close();
  }
  open = [];
  site.seen.length = 0;
  other.seen.length = 0;
});

describe('gating navigations and subresources', () => {
  it('never requests a disallowed subresource and sends the policy User-Agent', async () => {
    const { page, events } = await setup();
    const response = await page.goto(`${site.origin}/page`);
    await page.waitForLoadState('load');

    expect(response?.status()).toBe(200);
    expect(site.paths().filter((path) => path.startsWith('/private/'))).toEqual([]);
    expect(site.hits('/img/ok.png')).toHaveLength(1);
    expect(site.hits('/style.css')).toHaveLength(1);
    expect(site.hits('/robots.txt')).toHaveLength(1);
    for (const seen of site.seen) expect(seen.headers['user-agent']).toBe(USER_AGENT);

    const denied = events.filter((event) => event.type === 'request-denied');
    expect(denied.map((event) => new URL(event.url).pathname).sort()).toEqual([
      '/private/no.png',
      '/private/x.js',
    ]);
    expect(
      denied.every((event) => event.error.reason === 'disallowed' && event.error.line === 2),
    ).toBe(true);
  });

  it('aborts a disallowed navigation before sending it, and says why', async () => {
    const { page, gate } = await setup();
    await expect(page.goto(`${site.origin}/private/secret`)).rejects.toThrow(
      /ERR_BLOCKED_BY_CLIENT/,
    );
    expect(site.hits('/private/secret')).toEqual([]);
    const refusal = gate.deniedNavigation(page);
    expect(isRobotsDeniedError(refusal)).toBe(true);
    expect(refusal?.reason).toBe('disallowed');
    expect(refusal?.rule?.pattern).toBe('/private/');

    // Chromium then shows its error page; the next navigation clears the refusal.
    await page.waitForURL(/^chrome-error:/);
    await page.goto(`${site.origin}/final`);
    expect(gate.deniedNavigation(page)).toBeUndefined();
  });
});

describe('redirect chains, hop by hop', () => {
  it('stops at the first disallowed hop: the hop is never requested', async () => {
    const { page, gate } = await setup();
    await expect(page.goto(`${site.origin}/start`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
    expect(requested(site)).toEqual(['/robots.txt', '/start', '/mid']);
    const refusal = gate.deniedNavigation(page);
    expect(refusal?.reason).toBe('redirect-disallowed');
    expect(refusal?.url).toBe(`${site.origin}/private/end`);
    expect(refusal?.originalUrl).toBe(`${site.origin}/start`);
  });

  it("checks a cross-origin hop against the target origin's own robots.txt", async () => {
    const { page, gate, context } = await setup();
    await expect(page.goto(`${site.origin}/to-other`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
    expect(requested(other)).toEqual(['/robots.txt']);
    expect(gate.deniedNavigation(page)?.url).toBe(`${other.origin}/blocked`);

    // A fresh page: the failed one is busy showing Chromium's error page.
    const response = await (await context.newPage()).goto(`${site.origin}/to-other-open`);
    expect(response?.status()).toBe(200);
    expect(requested(other)).toEqual(['/robots.txt', '/open']);
  });

  it('follows an allowed chain once, requesting each hop exactly once', async () => {
    const { page, gate } = await setup();
    const response = await page.goto(`${site.origin}/r1`);
    expect(response).not.toBeNull();
    expect(requested(site)).toEqual(['/robots.txt', '/r1', '/r2', '/final']);
    const robots = await gate.robots(response!);
    expect(robots.url).toBe(`${site.origin}/final`);
    expect(robots.redirects).toEqual([`${site.origin}/r2`, `${site.origin}/final`]);
    // The browser was handed the final response for the URL it asked for (see the README):
    // page.url() and response.url() are the first URL, the helper has the final one.
    expect(page.url()).toBe(`${site.origin}/r1`);
    expect(response!.url()).toBe(`${site.origin}/r1`);
    expect(response!.request().redirectedFrom()).toBeNull();
    expect(await page.evaluate('document.baseURI')).toBe(`${site.origin}/r1`);
    expect(robots.status).toBe(200);
  });

  it('turns a POST answered 303 into a GET without body; 307 keeps method and body', async () => {
    const { page } = await setup();
    await page.goto(`${site.origin}/form`);
    await Promise.all([
      page.waitForURL(`${site.origin}/submit`),
      page.locator('form').evaluate((f) => (f as unknown as { submit(): void }).submit()),
    ]);
    const submit = site.hits('/submit')[0];
    const done = site.hits('/done')[0];
    expect(submit?.method).toBe('POST');
    expect(submit?.body).toBe('q=v');
    expect(done?.method).toBe('GET');
    expect(done?.body).toBe('');
    expect(done?.headers['content-type']).toBeUndefined();

    await page.goto(`${site.origin}/form307`);
    await Promise.all([
      page.waitForURL(`${site.origin}/k307`),
      page.locator('form').evaluate((f) => (f as unknown as { submit(): void }).submit()),
    ]);
    const kept = site.hits('/k-target')[0];
    expect(kept?.method).toBe('POST');
    expect(kept?.body).toBe('q=w');
  });

  it('follows maxRedirects hops and aborts at one more', async () => {
    const { page, events } = await setup({ maxRedirects: 2 });
    const ok = await page.goto(`${site.origin}/c2`);
    expect(ok?.status()).toBe(200);
    await expect(page.goto(`${site.origin}/c3`)).rejects.toThrow(/net::ERR_FAILED/);
    expect(site.hits('/end')).toHaveLength(1);
    const failed = events.find((event) => event.type === 'request-failed');
    expect(failed?.type === 'request-failed' && (failed.error as { code?: string }).code).toBe(
      'ERR_ROBOTS_TOO_MANY_REDIRECTS',
    );
  });
});

describe('withPolicy: the same gate sending through a view of its policy', () => {
  it("sends every hop through the view's enter, and the original gate reads what the view served", async () => {
    const policy = createRobotsPolicy({ userAgent: USER_AGENT, minInterval: 0, concurrency: 4 });
    const entered: string[] = [];
    const view: RobotsPolicy = {
      ...policyMethods(policy),
      enter: (url, options) => {
        entered.push(
          `${new URL(String(url)).pathname}${options?.redirectedFrom === undefined ? '' : ' (redirect)'}`,
        );
        return policy.enter(url, options);
      },
    };
    const gate = createPlaywrightGate({ policy, pace: 'documents' });
    const paced = gate.withPolicy(view);
    expect(paced.policy).toBe(view);
    const context = await browser.newContext({ serviceWorkers: 'block' });
    open.push({ policy, gate, context, page: await context.newPage(), events: [] });
    await paced.attach(context);
    const page = await context.newPage();

    const response = await page.goto(`${site.origin}/r1`);
    expect(entered.filter((line) => !line.startsWith('/favicon'))).toEqual([
      '/r1',
      '/r2 (redirect)',
      '/final (redirect)',
    ]);
    expect((await gate.robots(response!)).redirects).toEqual([
      `${site.origin}/r2`,
      `${site.origin}/final`,
    ]);

    await expect(page.goto(`${site.origin}/private/secret`)).rejects.toThrow(
      /ERR_BLOCKED_BY_CLIENT/,
    );
    expect(gate.deniedNavigation(page)?.reason).toBe('disallowed');
    expect(site.hits('/private/secret')).toEqual([]);
  });

  it('throws RobotsInvalidOptionError, naming it, for a view that is not a policy', () => {
    const policy = createRobotsPolicy({ userAgent: USER_AGENT });
    const gate = createPlaywrightGate({ policy });
    let thrown: unknown;
    try {
      gate.withPolicy({} as RobotsPolicy);
    } catch (error) {
      thrown = error;
    }
    expect(isRobotsInvalidOptionError(thrown)).toBe(true);
    expect((thrown as { option?: string }).option).toBe('view');
    void policy.close();
  });
});

/** The policy's members, bound, as an object a test can override one of. */
function policyMethods(policy: RobotsPolicy): RobotsPolicy {
  return {
    get userAgent() {
      return policy.userAgent;
    },
    get productToken() {
      return policy.productToken;
    },
    get signer() {
      return policy.signer;
    },
    get purpose() {
      return policy.purpose;
    },
    get dispatcher() {
      return policy.dispatcher;
    },
    get clock() {
      return policy.clock;
    },
    check: (url, options) => policy.check(url, options),
    assertAllowed: (url, options) => policy.assertAllowed(url, options),
    explain: (url, options) => policy.explain(url, options),
    peek: (url) => policy.peek(url),
    prefetch: (origins, options) => policy.prefetch(origins, options),
    enter: (url, options) => policy.enter(url, options),
    schedule: (url, task, options) => policy.schedule(url, task, options),
    noteResponse: (url, status, headers) => policy.noteResponse(url, status, headers),
    directives: (lines, metaRules, options) => policy.directives(lines, metaRules, options),
    usage: (url, headers) => policy.usage(url, headers),
    forget: (origin) => policy.forget(origin),
    close: () => policy.close(),
  };
}
