import { generateKeyPairSync } from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import { interceptors, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { isRobotsInvalidOptionError, politeInterceptor } from '@polite-crawler/fetch';
import { USER_AGENT, localAgent, useRigs } from '../fetch/helpers/setup.js';
import { FakeClock } from '../fetch/helpers/fake-clock.js';
import { thrown } from '../fetch/helpers/thrown.js';
import { check, keyPair } from '../helpers/web-bot-auth.js';
import type { Checked } from '../helpers/web-bot-auth.js';

const { server, polite, defer } = useRigs();

const AGENT = 'https://example.com/.well-known/http-message-signatures-directory';

/** A server that verifies every request it gets; answers from `answer`. */
async function verifyingServer(
  publicJwk: JsonWebKey,
  answer: (path: string) => { status: number; headers?: Record<string, string>; body?: string },
) {
  const checked: Promise<Checked>[] = [];
  const s = await server((req, res) => {
    checked.push(check(req, publicJwk));
    const { status, headers = {}, body = '' } = answer(req.url ?? '');
    res.writeHead(status, headers).end(body);
  });
  return { s, checked: () => Promise.all(checked) };
}

const isParams = (v: unknown): v is { keyid: string; tag: string; nonce: string } =>
  typeof v === 'object' && v !== null && 'keyid' in v;

describe('signature: Web Bot Auth on every request', () => {
  it('politeFetch signs the robots.txt fetch and each redirect hop (re-signed for its own @authority); web-bot-auth verifies them', async () => {
    const { privateJwk, publicJwk } = keyPair();
    const target = await verifyingServer(publicJwk, (path) =>
      path === '/robots.txt'
        ? { status: 200, body: 'User-agent: *\nAllow: /\n' }
        : { status: 200, body: 'landed' },
    );
    const start = await verifyingServer(publicJwk, (path) =>
      path === '/robots.txt'
        ? { status: 200, body: 'User-agent: *\nAllow: /\n' }
        : { status: 301, headers: { location: `http://b.localhost:${target.s.port}/end` } },
    );
    const { fetch, policy } = polite({ signature: { key: privateJwk, agent: AGENT } });
    const response = await fetch(`http://a.localhost:${start.s.port}/go`);
    expect(await response.text()).toBe('landed');
    const all = [...(await start.checked()), ...(await target.checked())];
    expect(all.map((c) => `${c.host.split(':')[0]}${c.path}`).sort()).toEqual([
      'a.localhost/go',
      'a.localhost/robots.txt',
      'b.localhost/end',
      'b.localhost/robots.txt',
    ]);
    const keyid = await policy.signer!.keyid();
    for (const c of all) {
      expect(
        isParams(c.verdict),
        `${c.path}: ${c.verdict instanceof Error ? c.verdict.message : 'verified'}`,
      ).toBe(true);
      const params = c.verdict as { keyid: string; tag: string; nonce: string };
      expect(params.keyid).toBe(keyid);
      expect(params.tag).toBe('web-bot-auth');
      expect(params.nonce.length).toBeGreaterThan(0);
      expect(c.agent).toBe(`"${AGENT}"`);
      expect(c.input).toContain('"@authority"');
      expect(c.input).toContain('"signature-agent"');
    }
    // A fresh nonce each request.
    expect(new Set(all.map((c) => (c.verdict as { nonce: string }).nonce)).size).toBe(4);
  });

  it('the keyid is the key’s JWK thumbprint (RFC 7638), and a signature without an agent has no Signature-Agent', async () => {
    const { privateJwk, publicJwk } = keyPair();
    const { s, checked } = await verifyingServer(publicJwk, (path) =>
      path === '/robots.txt' ? { status: 404 } : { status: 200, body: 'ok' },
    );
    const { fetch } = polite({ signature: { key: privateJwk } });
    await (await fetch(`${s.origin}/page`)).text();
    const [robots, page] = await checked();
    const { createHash } = await import('node:crypto');
    const canonical = JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x: publicJwk.x });
    const thumbprint = createHash('sha256').update(canonical).digest('base64url');
    for (const c of [robots!, page!]) {
      expect((c.verdict as { keyid: string }).keyid).toBe(thumbprint);
      expect(c.agent).toBeUndefined();
    }
  });

  it('a request signed with another key fails web-bot-auth’s verify (the check can fail)', async () => {
    const signing = keyPair();
    const other = keyPair();
    const { s, checked } = await verifyingServer(other.publicJwk, () => ({ status: 404 }));
    const { fetch } = polite({ signature: { key: signing.privateJwk } });
    await (await fetch(`${s.origin}/page`)).text();
    for (const c of await checked()) expect(isParams(c.verdict)).toBe(false);
  });

  it('the interceptor signs what it sends (robots.txt and pages), composed inside undici’s redirect', async () => {
    const { privateJwk, publicJwk } = keyPair();
    const { s, checked } = await verifyingServer(publicJwk, (path) =>
      path === '/robots.txt'
        ? { status: 200, body: 'User-agent: *\nAllow: /\n' }
        : path === '/from'
          ? { status: 302, headers: { location: '/to' } }
          : { status: 200, body: 'to' },
    );
    const agent = localAgent();
    const polite = politeInterceptor({
      userAgent: USER_AGENT,
      minInterval: 0,
      dispatcher: agent,
      clock: new FakeClock(),
      signature: { key: privateJwk, agent: AGENT },
    });
    defer(
      () => agent.close(),
      () => polite.close(),
    );
    const dispatcher = agent.compose(polite, interceptors.redirect({ maxRedirections: 5 }));
    const { body } = await request(`${s.origin}/from`, { dispatcher });
    expect(await body.text()).toBe('to');
    const all = await checked();
    expect(all.map((c) => c.path).sort()).toEqual(['/from', '/robots.txt', '/to']);
    for (const c of all)
      expect(
        isParams(c.verdict),
        `${c.path}: ${c.verdict instanceof Error ? c.verdict.message : 'verified'}`,
      ).toBe(true);
  });

  it('a bad key or agent is RobotsInvalidOptionError naming `signature` at construction, without the key in it', () => {
    const { privateJwk, publicJwk } = keyPair();
    const { privateJwk: otherPrivate } = keyPair();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      format: 'jwk',
    });
    const bad: unknown[] = [
      'key',
      { key: publicJwk },
      { key: rsa },
      { key: { ...privateJwk, d: 'not base64url!' } },
      { key: { ...privateJwk, x: otherPrivate.x } },
      { key: privateJwk, agent: 'not a url' },
      { key: privateJwk, agent: 'ftp://example.com/keys' },
    ];
    for (const signature of bad) {
      const error = thrown(() => polite({ signature: signature as never }));
      expect(isRobotsInvalidOptionError(error), JSON.stringify(signature)).toBe(true);
      expect((error as { option: string }).option).toBe('signature');
      expect(String((error as Error).message)).not.toContain(String(privateJwk.d));
      expect(JSON.stringify((error as { value: unknown }).value ?? null)).not.toContain(
        String(privateJwk.d),
      );
    }
  });
});
