import type { Dispatcher } from 'undici';

/** Response headers as undici parsed them: repeated field lines stay separate (arrays). */
export type RawHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * `dispatcher`, composed with an interceptor that hands the final response's headers to
 * `onHeaders` exactly as received: fetch's `Headers` joins repeated lines with `, `, which
 * breaks `X-Robots-Tag` values that contain commas (dates), so the checker reads these.
 * One composed view per request; the underlying dispatcher (and its pool) is shared.
 * @example
 * let raw; const dispatcher = captureHeaders(getGlobalDispatcher(), (h) => (raw = h));
 * await fetch(url, { dispatcher });
 */
export function captureHeaders(
  dispatcher: Dispatcher,
  onHeaders: (headers: RawHeaders) => void,
): Dispatcher {
  return dispatcher.compose(
    (dispatch) => (options, handler) =>
      dispatch(options, {
        onRequestStart: (controller, context: unknown) =>
          handler.onRequestStart?.(controller, context),
        onRequestUpgrade: (controller, statusCode, headers, socket) =>
          handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
        onResponseStarted: () => handler.onResponseStarted?.(),
        onResponseStart: (controller, statusCode, headers, statusMessage) => {
          if (statusCode >= 200) onHeaders(headers);
          handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
        },
        onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
        onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
        onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
      }),
  );
}
