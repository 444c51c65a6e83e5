// @polite-crawler/fetch as a user installs it: allowed pages come back with their directives, a
// disallowed one is refused with a typed error and never requested.
import assert from 'node:assert/strict';
import { createPoliteFetch, isRobotsDeniedError } from '@polite-crawler/fetch';
import { startSite } from './site.mjs';

const site = await startSite();
const politeFetch = createPoliteFetch({ userAgent: 'ExampleBot/1.0', minInterval: 0 });
try {
  const a = await politeFetch(`${site.origin}/a`);
  assert.equal(a.status, 200);
  assert.equal(a.robots.nosnippet, true);
  assert.match(await a.text(), /<title>A<\/title>/);

  const meta = await politeFetch(`${site.origin}/meta`);
  assert.equal(meta.robots.noindex, true);
  assert.match(await meta.text(), /<title>Meta<\/title>/); // the whole body, after the head scan

  const denied: unknown = await politeFetch(`${site.origin}/private/x`).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(isRobotsDeniedError(denied), `expected a RobotsDeniedError, got ${String(denied)}`);
  assert.equal(denied.reason, 'disallowed');
  assert.equal(denied.line, 2);
  assert.ok(!site.requested.includes('/private/x'), 'the refused URL was requested');
  console.log('ok fetch: 2 pages with their directives, /private/x refused and never sent');
} finally {
  await politeFetch.close();
  await site.close();
}
