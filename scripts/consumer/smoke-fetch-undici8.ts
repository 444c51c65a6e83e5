// @polite-crawler/fetch with the user's own undici 8: their Agent as the dispatcher, a Request
// with a signal, and politeInterceptor composed onto an undici 8 Agent (typechecked against
// undici 8's own types).
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { createPoliteFetch, politeInterceptor } from '@polite-crawler/fetch';
import { startSite } from './site.mjs';

const site = await startSite();
const agent = new Agent();
const politeFetch = createPoliteFetch({
  userAgent: 'ExampleBot/1.0',
  minInterval: 0,
  dispatcher: agent,
});
const polite = politeInterceptor({ userAgent: 'ExampleBot/1.0', minInterval: 0 });
try {
  const a = await politeFetch(
    new Request(`${site.origin}/a`, { signal: AbortSignal.timeout(30_000) }),
  );
  assert.equal(a.status, 200);
  assert.match(await a.text(), /<title>A<\/title>/);
  const { statusCode, body } = await request(`${site.origin}/meta`, {
    dispatcher: new Agent().compose(polite),
  });
  assert.equal(statusCode, 200);
  assert.match(await body.text(), /<title>Meta<\/title>/);
  console.log(
    'ok fetch with undici 8: own Agent, a Request with a signal, the interceptor composed',
  );
} finally {
  await politeFetch.close();
  await polite.close();
  await agent.close();
  await site.close();
}
