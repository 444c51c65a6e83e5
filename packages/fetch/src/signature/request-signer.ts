import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import { signatureHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import type { Signer } from 'web-bot-auth';
import { RobotsInvalidOptionError } from '../errors/errors.js';

/**
 * The `signature` option: Web Bot Auth (draft-ietf-webbotauth-httpsig-protocol) signatures on
 * every request the package sends.
 * @example
 * const signature: SignatureOptions = { key: privateJwk, agent: 'https://example.com/.well-known/http-message-signatures-directory' };
 */
export interface SignatureOptions {
  /** The crawler's Ed25519 private key as a JWK (`kty: 'OKP'`, `crv: 'Ed25519'`, `d` and `x`). */
  readonly key: JsonWebKey;
  /** The URL of the crawler's key directory, sent as `Signature-Agent` (and signed). */
  readonly agent?: string;
}

/**
 * Signs requests with one key: the headers a request to a URL carries. Made once per policy; the
 * undici interceptor, the Crawlee HTTP client and the Playwright route handler all use it.
 * @example
 * const extra = await policy.signer?.headersFor(new URL('https://example.com/page'));
 */
export interface RequestSigner {
  /** The JWK thumbprint (RFC 7638) of the key: `keyid` in `Signature-Input`. */
  keyid(): Promise<string>;
  /**
   * The `Signature`, `Signature-Input` and (with an agent) `Signature-Agent` fields of a request
   * to `url`, created now: a fresh nonce each call, `@authority` of this URL (re-signed per hop).
   */
  headersFor(url: URL): Promise<Readonly<Record<string, string>>>;
}

/**
 * How long a signature is valid after it is made, ms. Short, so that a captured request cannot
 * be replayed for long; long enough for a request to reach the server through a slow proxy.
 */
export const SIGNATURE_LIFETIME = 300_000;

const REDACTED = '[private key]';

function invalid(requirement: string, value: unknown = REDACTED): RobotsInvalidOptionError {
  return new RobotsInvalidOptionError('signature', value, requirement);
}

/**
 * Checks the Ed25519 private JWK synchronously (a bad key is an error at construction, not at the
 * first request): the shape, that node can load it, and that its `x` is the public half of `d`.
 * The error never carries the key.
 */
function checkKey(key: unknown): JsonWebKey {
  const jwk = key as Record<string, unknown> | null;
  if (
    typeof jwk !== 'object' ||
    jwk === null ||
    jwk.kty !== 'OKP' ||
    jwk.crv !== 'Ed25519' ||
    typeof jwk.d !== 'string' ||
    typeof jwk.x !== 'string'
  ) {
    throw invalid("{ key } an Ed25519 private JWK (kty 'OKP', crv 'Ed25519', d and x)");
  }
  let publicX: unknown;
  try {
    const privateKey = createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
    publicX = createPublicKey(privateKey).export({ format: 'jwk' }).x;
  } catch {
    throw invalid('{ key } an Ed25519 private JWK node can load');
  }
  if (publicX !== jwk.x) throw invalid('{ key } whose x is the public key of its d');
  return jwk;
}

function checkAgent(agent: unknown): string | undefined {
  if (agent === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = typeof agent === 'string' ? new URL(agent) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw invalid('{ agent } the http(s) URL of the key directory', agent);
  }
  // An sf-string (RFC 8941 §3.3.3): the URL serializer leaves neither `"` nor `\` in an href.
  return `"${url.href}"`;
}

/**
 * Reads the `signature` option: `undefined` (no signing) or a {@link RequestSigner}. Throws
 * {@link RobotsInvalidOptionError} naming `signature` for a bad key or agent.
 * @example
 * const signer = signatureOption({ key: privateJwk, agent: 'https://example.com/.well-known/http-message-signatures-directory' });
 */
export function signatureOption(value: unknown): RequestSigner | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) {
    throw invalid('{ key, agent? } with an Ed25519 private JWK', value);
  }
  const { key, agent } = value as { key?: unknown; agent?: unknown };
  const jwk = checkKey(key);
  const signatureAgent = checkAgent(agent);
  // web-bot-auth imports the key with WebCrypto (asynchronous): once, on first use.
  let signer: Promise<Signer> | undefined;
  const signerOf = (): Promise<Signer> => (signer ??= signerFromJWK(jwk));
  return {
    keyid: async () => (await signerOf()).keyid,
    async headersFor(url: URL): Promise<Readonly<Record<string, string>>> {
      const headers: Record<string, string> =
        signatureAgent === undefined ? {} : { 'signature-agent': signatureAgent };
      // The wall clock, not the policy's: the server checks `created`/`expires` against its own.
      const created = new Date();
      const signed = await signatureHeaders(
        { method: 'GET', url: url.href, headers },
        await signerOf(),
        {
          created,
          expires: new Date(created.getTime() + SIGNATURE_LIFETIME),
        },
      );
      return {
        ...(signatureAgent === undefined ? {} : { 'Signature-Agent': signatureAgent }),
        Signature: signed.Signature,
        'Signature-Input': signed['Signature-Input'],
      };
    },
  };
}
