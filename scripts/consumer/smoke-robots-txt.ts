// @polite-crawler/robots-txt as a user installs it: parse the site's robots.txt, ask and explain.
import assert from 'node:assert/strict';
import { parseRobotsTxt } from '@polite-crawler/robots-txt';
import { startSite } from './site.mjs';

const site = await startSite();
try {
  const response = await fetch(`${site.origin}/robots.txt`);
  const robots = parseRobotsTxt(new Uint8Array(await response.arrayBuffer()));
  assert.equal(robots.isAllowed(`${site.origin}/a`, 'ExampleBot'), true);
  assert.equal(robots.isAllowed(`${site.origin}/private/x`, 'ExampleBot'), false);
  const why = robots.explain(`${site.origin}/private/x`, 'ExampleBot');
  assert.equal(why.rule?.pattern, '/private/');
  assert.equal(why.rule?.line, 2);
  console.log('ok robots-txt: /private/x disallowed by line 2');
} finally {
  await site.close();
}
