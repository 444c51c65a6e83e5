import type { Dispatcher } from 'undici';
import type { RequestSigner } from './request-signer.js';
import { headerRecord } from '../transport/dispatch-headers.js';

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[0];
/** The fields a signature sets: a caller's own are dropped, not sent beside ours. */
const SIGNATURE_FIELDS: ReadonlySet<string> = new Set([
  'signature',
  'signature-input',
  'signature-agent',
]);

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
            { ...opts, headers: { ...headerRecord(opts.headers, SIGNATURE_FIELDS), ...signature } },
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
