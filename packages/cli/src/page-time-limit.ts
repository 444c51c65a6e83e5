import { Agent } from 'undici';
import type { Dispatcher } from 'undici';

/**
 * The dispatcher for `fetch` and `crawl`: each request it sends (pages and robots.txt) has
 * `timeoutMs` from the moment it goes out (the wait for its origin's pacing slot comes before)
 * to its last body byte; a server that drips bytes, or holds back the end of a page's `<head>`,
 * would otherwise keep it going for ever. Undici's own header and idle timeouts get the same
 * value (their defaults are five minutes).
 */
export function pageDispatcher(timeoutMs: number): Dispatcher {
  return new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs }).compose(
    (dispatch) => (options, handler) => dispatch(options, withDeadline(handler, timeoutMs)),
  );
}

/** `handler`, with the request aborted when it has not ended `timeoutMs` after it started. */
function withDeadline(
  handler: Dispatcher.DispatchHandler,
  timeoutMs: number,
): Dispatcher.DispatchHandler {
  let timer: NodeJS.Timeout | undefined;
  const stop = (): void => clearTimeout(timer);
  return {
    onRequestStart(controller, context) {
      timer = setTimeout(() => {
        controller.abort(new Error(`no complete answer within ${timeoutMs} ms`));
      }, timeoutMs);
      handler.onRequestStart?.(controller, context);
    },
    onRequestUpgrade(controller, statusCode, headers, socket) {
      stop();
      handler.onRequestUpgrade?.(controller, statusCode, headers, socket);
    },
    onResponseStart(controller, statusCode, headers, statusMessage) {
      handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
    },
    onResponseData(controller, chunk) {
      handler.onResponseData?.(controller, chunk);
    },
    onResponseEnd(controller, trailers) {
      stop();
      handler.onResponseEnd?.(controller, trailers);
    },
    onResponseError(controller, error) {
      stop();
      handler.onResponseError?.(controller, error);
    },
  };
}
