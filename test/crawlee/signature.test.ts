import { afterEach, describe, expect, it } from 'vitest';
import { politeCrawlee } from '@polite-crawler/crawlee';
import { startServer } from '../helpers/recording-server.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { check, keyPair } from '../helpers/web-bot-auth.js';
import type { Checked } from '../helpers/web-bot-auth.js';
import { CheerioCrawler } from './helpers/crawlee.js';
import { newRun } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';

let server: RecordingServer | undefined;
let run: RunRecord | undefined;

afterEach(async () => {
  await run?.policy.close();
  await server?.close();
});

describe('signature through the Crawlee HTTP client', () => {
  it('signs robots.txt and each page hop; web-bot-auth verifies every request', async () => {
    const { privateJwk, publicJwk } = keyPair();
    const checked: Promise<Checked>[] = [];
    server = await startServer((req, res) => {
      checked.push(check(req, publicJwk));
      if (req.url === '/robots.txt') res.end('User-agent: *\nAllow: /\n');
      else if (req.url === '/go') res.writeHead(302, { location: '/page' }).end();
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>p</body></html>');
    });
    run = newRun({
      signature: {
        key: privateJwk,
        agent: 'https://example.com/.well-known/http-message-signatures-directory',
      },
    });
    const handled: string[] = [];
    const crawler = new CheerioCrawler(
      politeCrawlee(
        run.policy,
        { requestHandler: ({ request }) => void handled.push(request.loadedUrl ?? '') },
        { config: run.config },
      ),
      run.config,
    );
    await crawler.run([`${server.origin}/go`]);
    expect(handled).toEqual([`${server.origin}/page`]);
    const all = await Promise.all(checked);
    expect(all.map((c) => c.path).sort()).toEqual(['/go', '/page', '/robots.txt']);
    const keyid = await run.policy.signer!.keyid();
    for (const c of all) {
      expect(
        c.verdict instanceof Error,
        `${c.path}: ${c.verdict instanceof Error ? c.verdict.message : 'verified'}`,
      ).toBe(false);
      expect((c.verdict as { keyid: string }).keyid).toBe(keyid);
      expect(c.agent).toBe('"https://example.com/.well-known/http-message-signatures-directory"');
    }
  });
});
