import type { JsonWebKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPoliteFetch, isRobotsInvalidOptionError } from '@polite-crawler/fetch';
import { startServer } from '../helpers/recording-server.js';
import { check } from '../helpers/web-bot-auth.js';
import type { Checked } from '../helpers/web-bot-auth.js';
import { callCli, parseJson } from './helpers/run-cli.js';

interface KeysJson {
  privateKey: JsonWebKey & { kid: string };
  keyid: string;
  directory: { keys: (JsonWebKey & { kid: string })[] };
  headers: Record<string, string>;
}

describe('polite keys', () => {
  it('--json: a private key the signature option takes, whose signatures the published directory key verifies', async () => {
    const result = await callCli(['keys', '--json']);
    expect(result.code).toBe(0);
    const keys = parseJson<KeysJson>(result);
    expect(keys.headers['Content-Type']).toBe('application/http-message-signatures-directory+json');
    expect(keys.directory.keys).toHaveLength(1);
    const [published] = keys.directory.keys;
    expect(published!.kid).toBe(keys.keyid);
    expect('d' in published!).toBe(false);
    const checked: Promise<Checked>[] = [];
    const server = await startServer((req, res) => {
      checked.push(check(req, published!));
      res.writeHead(req.url === '/robots.txt' ? 404 : 200).end('ok');
    });
    const fetch = createPoliteFetch({
      userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
      minInterval: 0,
      signature: {
        key: keys.privateKey,
        agent: 'https://example.com/.well-known/http-message-signatures-directory',
      },
    });
    try {
      await (await fetch(`${server.origin}/page`)).text();
      for (const c of await Promise.all(checked)) {
        expect(
          c.verdict instanceof Error,
          c.verdict instanceof Error ? c.verdict.message : 'verified',
        ).toBe(false);
        expect((c.verdict as { keyid: string }).keyid).toBe(keys.keyid);
      }
    } finally {
      await fetch.close();
      await server.close();
    }
    // A directory's public key alone is no signing key.
    let error: unknown;
    try {
      createPoliteFetch({ userAgent: 'ExampleBot/1.0', signature: { key: published! } });
    } catch (caught) {
      error = caught;
    }
    expect(isRobotsInvalidOptionError(error)).toBe(true);
    expect((error as { option: string }).option).toBe('signature');
  });

  it('text: prints the private key, the directory, where to serve it and its headers', async () => {
    const result = await callCli(['keys']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('/.well-known/http-message-signatures-directory');
    expect(result.stdout).toContain(
      'Content-Type: application/http-message-signatures-directory+json',
    );
    expect(result.stdout).toMatch(/"crv": "Ed25519"/);
  });
});
