import type { Dispatcher } from 'undici';
import type { HopSlot } from '../policy/robots-policy.js';
import { onAbort } from '../time/signals.js';

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[0];
type HeaderObject = Record<string, string | string[] | undefined>;

/**
 * Holds a request's pacing slot while undici delivers its response (noting the response and its
 * failure in the slot), and gives it back when the
 * body has ended at the transport (all of it received, or cancelled, destroyed or failed): the
 * one meaning of `concurrency`, a request in flight at the server. (The slot bounds the hold
 * itself: `maxBodyHold` after the headers.)
 */
export class SlotHandler implements Dispatcher.DispatchHandler {
  readonly #handler: Dispatcher.DispatchHandler;
  readonly #slot: HopSlot;
  /** Why the request was given up before the dispatcher started it (its signal aborted). */
  #abandoned: Error | undefined;
  #started = false;
  readonly #unsubscribe: (() => void) | undefined;

  /** Whether the response came from the HTTP cache, not the origin (never noted as its). */
  readonly #fromStore: (() => boolean) | undefined;

  /**
   * `signal`: the request's, when the handler must end a request its dispatcher never starts.
   * `fromStore`: asked at the response's headers; a copy the cache served (or a follower of an
   * identical GET) is no response of the origin's, so it eases no back-off and times nothing.
   */
  constructor(
    handler: Dispatcher.DispatchHandler,
    slot: HopSlot,
    signal?: AbortSignal,
    fromStore?: () => boolean,
  ) {
    this.#handler = handler;
    this.#slot = slot;
    this.#fromStore = fromStore;
    // undici's `request` settles on abort only once the dispatcher has started the request
    // (`onRequestStart`): a dispatcher that never does would hold the call and its slot for
    // good. Until then the handler ends the request itself, with the signal's reason.
    this.#unsubscribe =
      signal === undefined ? undefined : onAbort(signal, () => this.#abandon(signal.reason));
  }

  #abandon(reason: unknown): void {
    if (this.#started || this.#abandoned !== undefined) return;
    this.#abandoned = reason as Error;
    this.#slot.release();
    this.#handler.onResponseError?.(null as unknown as Controller, this.#abandoned);
  }

  onRequestStart(controller: Controller, context: unknown): void {
    this.#unsubscribe?.();
    if (this.#abandoned !== undefined) {
      controller.abort(this.#abandoned);
      return;
    }
    this.#started = true;
    this.#handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    ...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>
  ): void {
    this.#slot.release();
    this.#handler.onRequestUpgrade?.(...args);
  }

  onResponseStart(
    controller: Controller,
    statusCode: number,
    headers: HeaderObject,
    statusMessage?: string,
  ): void {
    // The response time is the time to these headers (for HTML, to its head: the tap is inside).
    if (statusCode >= 200 && this.#fromStore?.() !== true) {
      this.#slot.noteResponse(statusCode, headers);
    }
    this.#handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    this.#handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: HeaderObject): void {
    this.#slot.release();
    this.#handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Controller, error: Error): void {
    this.#unsubscribe?.();
    if (this.#abandoned !== undefined) return; // already reported
    // A connection error or a timeout (before or during the body) makes the origin back off.
    this.#slot.noteFailure(error);
    this.#slot.release();
    this.#handler.onResponseError?.(controller, error);
  }
}

/**
 * {@link SlotHandler} as an interceptor for one request.
 * @example
 * agent.compose(holdSlot(slot));
 */
export function holdSlot(
  slot: HopSlot,
  fromStore?: () => boolean,
): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) =>
    dispatch(options, new SlotHandler(handler, slot, undefined, fromStore));
}
