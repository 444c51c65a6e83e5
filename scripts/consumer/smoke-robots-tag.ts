// @polite-crawler/robots-tag as a user installs it: header directives and a streamed <head> scan.
import assert from 'node:assert/strict';
import {
  createMetaScanner,
  directivesFor,
  parseRobotsTagHeaders,
} from '@polite-crawler/robots-tag';
import { startSite } from './site.mjs';

const site = await startSite();
try {
  const page = await fetch(`${site.origin}/a`);
  await page.body?.cancel();
  assert.equal(directivesFor(parseRobotsTagHeaders(page.headers), 'ExampleBot').nosnippet, true);

  const meta = await fetch(`${site.origin}/meta`);
  const scanner = createMetaScanner({ productTokens: ['ExampleBot'] });
  const reader = meta.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    if (scanner.write(read.value)) break; // the head is over: stop reading
  }
  await reader.cancel();
  scanner.end();
  const directives = directivesFor(
    [parseRobotsTagHeaders(meta.headers), scanner.result()],
    'ExampleBot',
  );
  assert.equal(directives.noindex, true);
  console.log('ok robots-tag: nosnippet from the header, noindex from <meta>');
} finally {
  await site.close();
}
