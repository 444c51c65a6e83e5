import type { Dispatcher } from 'undici';
import type { HopSlot } from '../policy/robots-policy.js';
import { startTimer } from '../time/clock.js';
import type { Clock } from '../time/clock.js';
import { onAbort } from '../time/signals.js';
import type { Carried } from './network-mark.js';

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[0];
type HeaderObject = Record<string, string | string[] | undefined>;

/** The longest wait for a request's response (its headers; for HTML, its head too), on `clock`. */
export interface ResponseLimit {
  readonly ms: number;
  readonly clock: Clock;
}

/** What a {@link SlotHandler} watches besides the response, each when given. */
export interface SlotWatch {
  /** The request's signal, when the handler must end a request its dispatcher never starts. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Asked at the response's headers: a copy the cache served (or a follower of an identical GET)
   * is no response of the origin's, so it eases no back-off and times nothing.
   */
  readonly fromStore?: (() => boolean) | undefined;
  /** No response within the limit: the request fails with a `TimeoutError` (see {@link responseTimeoutIn}). */
  readonly responseLimit?: ResponseLimit | undefined;
}

/** The `TimeoutError`s a {@link SlotHandler} failed a request with. */
const responseTimeouts = new WeakSet<Error>();

/**
 * The `TimeoutError` of a request a {@link SlotHandler} timed out, when `error` is it or undici's
 * fetch error around it (fetch hands a dispatcher's failure back as the `cause` of its own).
 * @example
 * throw responseTimeoutIn(error) ?? error;
 */
export function responseTimeoutIn(error: unknown): Error | undefined {
  if (error instanceof Error && responseTimeouts.has(error)) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof Error && responseTimeouts.has(cause) ? cause : undefined;
}

/**
 * Holds a request's pacing slot while undici delivers its response (noting the response and its
 * failure in the slot), and gives it back when the
 * body has ended at the transport (all of it received, or cancelled, destroyed or failed): the
 * one meaning of `concurrency`, a request in flight at the server. (The slot bounds the hold
 * itself: `maxBodyHold` after the headers.) With a {@link ResponseLimit}, it also fails a
 * request whose response is not in by then: a timer of the handler's own, not a signal handed to
 * fetch (a signal and the controllers behind it cost a page hop tens of µs).
 */
export class SlotHandler implements Dispatcher.DispatchHandler, Carried {
  /** Whether the response has started (from the network or the store): see `Carried`. */
  answered = false;
  readonly #handler: Dispatcher.DispatchHandler;
  readonly #slot: HopSlot;
  /** Why the request was given up before the dispatcher started it (its signal aborted, or the limit passed). */
  #abandoned: Error | undefined;
  /** The dispatcher's controller, once it has started the request. */
  #controller: Controller | undefined;
  readonly #unsubscribe: (() => void) | undefined;
  /** Stops the response timer (none: no limit, or the response is in). */
  #stopTimer: (() => void) | undefined;

  /** Whether the response came from the HTTP cache, not the origin (never noted as its). */
  readonly #fromStore: (() => boolean) | undefined;

  constructor(handler: Dispatcher.DispatchHandler, slot: HopSlot, watch: SlotWatch = {}) {
    this.#handler = handler;
    this.#slot = slot;
    const { signal, responseLimit } = watch;
    this.#fromStore = watch.fromStore;
    // undici's `request` settles on abort only once the dispatcher has started the request
    // (`onRequestStart`): a dispatcher that never does would hold the call and its slot for
    // good. Until then the handler ends the request itself, with the signal's reason.
    this.#unsubscribe =
      signal === undefined ? undefined : onAbort(signal, () => this.#abandon(signal.reason));
    if (responseLimit !== undefined) {
      this.#stopTimer = startTimer(responseLimit.clock, responseLimit.ms, () =>
        this.#timeOut(responseLimit.ms),
      );
    }
  }

  #timeOut(ms: number): void {
    this.#stopTimer = undefined;
    const error = new DOMException(`no response within responseTimeout (${ms} ms)`, 'TimeoutError');
    responseTimeouts.add(error);
    // Started: undici ends the request and reports it back through onResponseError.
    if (this.#controller === undefined) this.#abandon(error);
    else this.#controller.abort(error);
  }

  #abandon(reason: unknown): void {
    if (this.#controller !== undefined || this.#abandoned !== undefined) return;
    this.#abandoned = reason as Error;
    this.#unsubscribe?.();
    this.#stopTimer?.();
    // A request that never went out: its slot goes back as it is, with nothing to note.
    this.#slot.release();
    this.#handler.onResponseError?.(null as unknown as Controller, this.#abandoned);
  }

  onRequestStart(controller: Controller, context: unknown): void {
    this.#unsubscribe?.();
    if (this.#abandoned !== undefined) {
      controller.abort(this.#abandoned);
      return;
    }
    this.#controller = controller;
    this.#handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    ...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>
  ): void {
    this.#stopTimer?.();
    this.#slot.release();
    this.#handler.onRequestUpgrade?.(...args);
  }

  onResponseStart(
    controller: Controller,
    statusCode: number,
    headers: HeaderObject,
    statusMessage?: string,
  ): void {
    // The response is in (for HTML, its head too: the tap is inside): the timer's work is done,
    // and the response time is the time to here.
    this.answered = true;
    if (statusCode >= 200) {
      this.#stopTimer?.();
      this.#stopTimer = undefined;
      if (this.#fromStore?.() !== true) this.#slot.noteResponse(statusCode, headers);
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
    this.#stopTimer?.();
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
  watch?: SlotWatch,
): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) =>
    dispatch(options, new SlotHandler(handler, slot, watch));
}
