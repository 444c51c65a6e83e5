import { test, expect } from 'vitest';
import { createPoliteFetch } from '@polite-crawler/fetch';
import { startServer, routes } from './helpers/server.js';
test('smoke', async () => {
  const s = await startServer(
    routes({
      '/robots.txt': { body: 'User-agent: *\nDisallow: /private\n' },
      '/a': {
        headers: {
          'content-type': 'text/html',
          'x-robots-tag': ['noindex', 'unavailable_after: Mon, 01 Jan 2024 00:00:00 GMT'],
        },
        body: '<html><head><meta name="robots" content="nofollow"></head><body>hi</body></html>',
      },
    }),
  );
  const f = createPoliteFetch({ userAgent: 'ExampleBot/1.0 (+https://x)', minInterval: 0 });
  const r = await f(`${s.origin}/a`);
  console.log(r.status, r.url, r.robots, await r.text());
  await expect(f(`${s.origin}/private/x`)).rejects.toMatchObject({
    code: 'ERR_ROBOTS_DENIED',
    line: 2,
  });
  console.log(await f.policy.explain(`${s.origin}/private/x`));
  console.log(s.seen.map((x) => x.path));
  await f.close();
  await s.close();
});
