import type { Dispatcher } from 'undici';
import type { RequestSigner } from './request-signer.js';

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[0];
type HeaderList = Record<string, string | string[]>;

/** The fields a signature sets: a caller's own are dropped, not sent beside ours. */
const SIGNATURE_FIELDS = new Set(['signature', 'signature-input', 'signature-agent']);

/** `headers` (any shape undici takes) as one object, without the signature fields. */
function withoutSignature(headers: Dispatcher.DispatchOptions['headers']): HeaderList {
  const out: HeaderList = {};
  if (headers === undefined || headers === null) return out;
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null || SIGNATURE_FIELDS.has(name.toLowerCase())) return;
    // Header values are strings (or lists of them) by undici's types; numbers are allowed too.
    const text = Array.isArray(value)
      ? value.map((item) => `${item as string}`)
      : `${value as string}`;
    const seen = out[name];
    out[name] = seen === undefined ? text : [seen, text].flat();
  };
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), headers[i + 1]);
  } else {
    const entries = Symbol.iterator in headers ? headers : Object.entries(headers);
    for (const [name, value] of entries as Iterable<[string, unknown]>) add(name, value);
  }
  return out;
}

/**
 * An undici interceptor that signs every request dispatched through it with `signer` (Web Bot
 * Auth), each with its own `@authority`, `created` and nonce: composed innermost, so each
 * redirect hop, each robots.txt fetch and each cache revalidation is signed as it leaves. A
 * signing failure fails the request (nothing unsigned is sent).
 * @example
 * const dispatcher = new Agent().compose(signInterceptor(signer));
 */
export function signInterceptor(signer: RequestSigner): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    let url: URL;
    try {
      url = new URL(opts.path, opts.origin);
    } catch (error) {
      handler.onResponseError?.(null as unknown as Controller, error as Error);
      return true;
    }
    signer.headersFor(url).then(
      (signature) => {
        try {
          dispatch(
            { ...opts, headers: { ...withoutSignature(opts.headers), ...signature } },
            handler,
          );
        } catch (error) {
          handler.onResponseError?.(null as unknown as Controller, error as Error);
        }
      },
      (error: unknown) => handler.onResponseError?.(null as unknown as Controller, error as Error),
    );
    return true;
  };
}
