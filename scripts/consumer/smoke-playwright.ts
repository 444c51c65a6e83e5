// @polite-crawler/playwright as a user installs it, with the user's playwright-core and the
// system's Chromium: a navigation is gated, its directives read, a disallowed one refused.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import { startSite } from './site.mjs';

const site = await startSite();
const policy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0', minInterval: 0 });
const browser = await chromium.launch({
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const gate = createPlaywrightGate({ policy });
  const context = await browser.newContext({
    userAgent: policy.userAgent,
    serviceWorkers: 'block',
  });
  await gate.attach(context);
  const page = await context.newPage();

  const response = await page.goto(`${site.origin}/a`);
  assert.ok(response, 'no response for /a');
  assert.equal(response.status(), 200);
  const { directives } = await gate.robots(response);
  assert.equal(directives.nosnippet, true);

  await assert.rejects(page.goto(`${site.origin}/private/x`), /ERR_BLOCKED_BY_CLIENT/);
  assert.ok(!site.requested.includes('/private/x'), 'the refused URL was requested');
  console.log('ok playwright: /a gated and read (nosnippet), /private/x blocked and never sent');
} finally {
  await browser.close();
  await policy.close();
  await site.close();
}
