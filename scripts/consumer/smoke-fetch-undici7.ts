// @polite-crawler/fetch with a project's undici 7 (installed as `undici7`): its Agent as the
// dispatcher, and politeInterceptor composed onto an undici 7 Agent with undici 7's request
// (typechecked against undici 7's own types).
import assert from 'node:assert/strict';
import { Agent, request } from 'undici7';
import { createPoliteFetch, politeInterceptor } from '@polite-crawler/fetch';
import { startSite } from './site.mjs';

const site = await startSite();
const agent = new Agent();
const politeFetch = createPoliteFetch({
  userAgent: 'ExampleBot/1.0',
  minInterval: 0,
  dispatcher: agent as never, // undici 7's Dispatcher type is not undici 8's; the object works
});
const polite = politeInterceptor({ userAgent: 'ExampleBot/1.0', minInterval: 0 });
try {
  const a = await politeFetch(`${site.origin}/a`);
  assert.equal(a.status, 200);
  assert.match(await a.text(), /<title>A<\/title>/);
  const { statusCode, body } = await request(`${site.origin}/meta`, {
    dispatcher: new Agent().compose(polite),
  });
  assert.equal(statusCode, 200);
  assert.match(await body.text(), /<title>Meta<\/title>/);
  console.log('ok fetch with undici 7: its Agent driven, the interceptor composed onto one');
} finally {
  await politeFetch.close();
  await polite.close();
  await agent.close();
  await site.close();
}
