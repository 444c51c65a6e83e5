import { generateKeyPairSync } from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { verify } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';

/** A fresh Ed25519 key pair as JWKs. */
export function keyPair(): { privateJwk: JsonWebKey; publicJwk: JsonWebKey } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateJwk: privateKey.export({ format: 'jwk' }),
    publicJwk: publicKey.export({ format: 'jwk' }),
  };
}

/** The signature parameters web-bot-auth's `verify` checked. */
export interface VerifiedParams {
  readonly keyid: string;
  readonly tag: string;
  readonly nonce: string;
  readonly created: Date;
  readonly expires: Date;
}

/**
 * What web-bot-auth's own `verify` says of a request as a server received it: the parameters
 * it checked, or the error it threw.
 */
export async function verdict(
  req: IncomingMessage,
  publicJwk: JsonWebKey,
): Promise<VerifiedParams | Error> {
  const verifier = await verifierFromJWK(publicJwk);
  const message = {
    method: req.method ?? 'GET',
    url: `http://${req.headers.host}${req.url}`,
    headers: req.headers as Record<string, string | string[]>,
  };
  try {
    let params: VerifiedParams | undefined;
    await verify(message, async (data, signature, checked) => {
      await verifier(data, signature, checked);
      params = checked as VerifiedParams;
    });
    return params ?? new Error('verify gave no parameters');
  } catch (error) {
    return error as Error;
  }
}

/** What a verifying server recorded of one request. */
export interface Checked {
  readonly path: string;
  readonly host: string;
  readonly verdict: VerifiedParams | Error;
  readonly input: string | undefined;
  readonly agent: string | undefined;
}

/** Records `req` with web-bot-auth's verdict on it. */
export function check(req: IncomingMessage, publicJwk: JsonWebKey): Promise<Checked> {
  return verdict(req, publicJwk).then((v) => ({
    path: req.url ?? '',
    host: req.headers.host ?? '',
    verdict: v,
    input: req.headers['signature-input'] as string | undefined,
    agent: req.headers['signature-agent'] as string | undefined,
  }));
}
