import { generateKeyPairSync } from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import { MediaType, helpers, jwkToKeyID } from 'web-bot-auth';

/**
 * A new Web Bot Auth key: the private JWK for the `signature` option, and what to publish.
 * @example
 * const { privateKey, directory, headers } = await generateSignatureKey();
 */
export interface SignatureKey {
  /** The Ed25519 private key as a JWK (`signature: { key }`); keep it secret. */
  readonly privateKey: JsonWebKey;
  /** The JWK thumbprint (RFC 7638): the `keyid` of each signature, the `kid` in the directory. */
  readonly keyid: string;
  /**
   * The key directory (a JWKS with the public key) to serve at the `agent` URL, by convention
   * `https://<your host>/.well-known/http-message-signatures-directory`.
   */
  readonly directory: { readonly keys: readonly JsonWebKey[] };
  /** The response header fields to serve the directory with. */
  readonly headers: Readonly<Record<string, string>>;
}

/** How long a server may cache the directory, s: a day, so that a rotated key is seen soon. */
const DIRECTORY_MAX_AGE = 86_400;

/**
 * Makes a new Ed25519 key pair for Web Bot Auth, with its key directory and the headers to serve
 * it with (`Content-Type: application/http-message-signatures-directory+json`).
 * @example
 * const key = await generateSignatureKey();
 * createPoliteFetch({ userAgent, signature: { key: key.privateKey, agent: 'https://example.com/.well-known/http-message-signatures-directory' } });
 */
export async function generateSignatureKey(): Promise<SignatureKey> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicJwk = publicKey.export({ format: 'jwk' });
  const keyid = await jwkToKeyID(
    publicJwk as Parameters<typeof jwkToKeyID>[0],
    helpers.WEBCRYPTO_SHA256,
    helpers.BASE64URL_DECODE,
  );
  return {
    privateKey: { ...privateKey.export({ format: 'jwk' }), kid: keyid },
    keyid,
    directory: { keys: [{ ...publicJwk, kid: keyid }] },
    headers: {
      'Content-Type': MediaType.HTTP_MESSAGE_SIGNATURES_DIRECTORY,
      'Cache-Control': `max-age=${DIRECTORY_MAX_AGE}`,
    },
  };
}
