import type { Dispatcher } from 'undici';
import type { RobotsPolicyOptions, SharedPolicyOptions } from '../options/option-types.js';
import { policyFromOptions } from '../policy/policy-from-options.js';
import { signInterceptor } from '../signature/sign-interceptor.js';
import { headerRecord } from '../transport/dispatch-headers.js';
import { carrying, markSent } from '../transport/network-mark.js';
import { SlotHandler } from '../transport/slot-handler.js';
import type { SlotWatch } from '../transport/slot-handler.js';
import type { EnterOptions, HopSlot, RobotsPolicy } from '../policy/robots-policy.js';

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[0];

/**
 * Options of {@link politeInterceptor}: the policy options, or a shared `policy`.
 * @example
 * politeInterceptor({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' } satisfies PoliteInterceptorOptions);
 */
export type PoliteInterceptorOptions =
  (RobotsPolicyOptions & { readonly policy?: never }) | SharedPolicyOptions;

/**
 * Any undici `dispatch(options, handler)` function: undici 8's and undici 7's (both take the
 * handler API this interceptor is written against). Typed loosely so that a consumer's own
 * undici types, of either major, accept the interceptor in `compose`.
 * @example
 * const dispatch: AnyDispatch = agent.dispatch.bind(agent);
 */
// `never` parameters: every two-parameter dispatch function is one of these.
export type AnyDispatch = (options: never, handler: never) => boolean;

/**
 * An undici interceptor that makes a dispatcher polite, plus the policy behind it. Its call
 * signature is generic (`dispatch` in, the same type out), so that `compose` of undici 8 and of
 * undici 7 both typecheck it, whichever copy of undici's types a project has.
 * @example
 * const polite: PoliteInterceptor = politeInterceptor({ userAgent });
 */
export interface PoliteInterceptor {
  <D extends AnyDispatch>(dispatch: D): D;
  /** The policy: `polite.policy.directives(response.headers)` reads a response's directives. */
  readonly policy: RobotsPolicy;
  /** Closes the policy if the interceptor created it (a shared policy is left open). */
  close(): Promise<void>;
}

const USER_AGENT: ReadonlySet<string> = new Set(['user-agent']);

/** `headers` with the policy's User-Agent in place of any other (any header shape undici takes). */
function withUserAgent(
  headers: Dispatcher.DispatchOptions['headers'],
  userAgent: string,
): Record<string, string | string[]> {
  // Most requests give no headers: nothing to copy.
  if (headers === undefined || headers === null) return { 'user-agent': userAgent };
  const out = headerRecord(headers, USER_AGENT);
  out['user-agent'] = userAgent;
  return out;
}

type Dispatch = Dispatcher['dispatch'];

/** The enter options of a request without a signal (shared). */
const NO_OPTIONS: EnterOptions = Object.freeze({});

/**
 * Sends a request admitted with `slot`, which it holds until its body has ended or failed. It
 * runs after the admission, in a promise callback where a throw would reach no caller: a dispatch
 * that throws fails the request through its handler instead.
 */
function send(
  dispatch: Dispatch,
  opts: Dispatcher.DispatchOptions,
  handler: Dispatcher.DispatchHandler,
  userAgent: string,
  slot: HopSlot,
  watch: SlotWatch,
): void {
  try {
    const slotHandler = new SlotHandler(handler, slot, watch);
    // Carried past a cache composed inside, where `politeCacheGuard` reads it (see there).
    dispatch(
      carrying({ ...opts, headers: withUserAgent(opts.headers, userAgent) }, slotHandler),
      slotHandler,
    );
  } catch (error) {
    slot.release();
    fail(handler, error);
  }
}

/** The request's signal, when `undici.request` (or another caller) passed one on. */
function signalOf(opts: Dispatcher.DispatchOptions): AbortSignal | undefined {
  const given = (opts as { signal?: unknown }).signal;
  return given instanceof AbortSignal ? given : undefined;
}

/** As undici's own interceptors report a failure before anything was dispatched. */
function fail(handler: Dispatcher.DispatchHandler, error: unknown): void {
  handler.onResponseError?.(null as unknown as Controller, error as Error);
}

/**
 * An undici interceptor, as undici ships `redirect`, `retry`, `dns` and `cache`: every request
 * dispatched through it (`undici.request`, `stream`, `pipeline`, `fetch`; each redirect hop when
 * composed *inside* `redirect`) is refused with `RobotsDeniedError` before anything is sent when
 * robots.txt disallows it, else paced, sent with the policy's User-Agent, and holds its slot
 * until its body has ended or failed (read it or destroy it), at most `maxBodyHold` after its
 * headers. `/robots.txt` passes ungated. The
 * README (`politeInterceptor`) has the rest. Throws {@link RobotsInvalidOptionError} naming the
 * first invalid option.
 * @example
 * import { Agent, interceptors, request } from 'undici';
 * const polite = politeInterceptor({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
 * const agent = new Agent().compose(polite, interceptors.redirect({ maxRedirections: 5 }));
 * const { statusCode, headers, body } = await request('https://example.com/', { dispatcher: agent });
 * const robots = polite.policy.directives(headers);
 * const text = await body.text();
 */
export function politeInterceptor(options: PoliteInterceptorOptions): PoliteInterceptor {
  const { policy, owned } = policyFromOptions(options, 'politeInterceptor');
  const { userAgent } = policy;
  const { signer } = policy;
  const interceptor: Dispatcher.DispatcherComposeInterceptor = (next) => {
    // With a `signature`, what this interceptor sends on (robots.txt included) is signed.
    const dispatch = signer === undefined ? next : signInterceptor(signer)(next);
    return (opts, handler) => {
      if (opts.path === '/robots.txt' || opts.path.startsWith('/robots.txt?')) {
        return dispatch(opts, handler);
      }
      let url: URL;
      try {
        url = new URL(opts.path, opts.origin);
      } catch (error) {
        fail(handler, error);
        return true;
      }
      // undici.request passes its options on, signal included: a wait for the slot ends with it,
      // and so does a request its dispatcher never starts (the slot handler watches it too).
      const given = signalOf(opts);
      const watched = given === undefined ? NO_OPTIONS : { signal: given };
      policy.enter(url, watched).then(
        (slot) => send(dispatch, opts, handler, userAgent, slot, watched),
        (error: unknown) => fail(handler, error),
      );
      return true;
    };
  };
  // The dispatch returned has the signature of the one given (undici's handler API).
  return Object.assign(interceptor as unknown as <D extends AnyDispatch>(dispatch: D) => D, {
    policy,
    close: (): Promise<void> => (owned ? policy.close() : Promise.resolve()),
  });
}

/**
 * For {@link politeInterceptor} with undici's cache composed directly inside it: compose this
 * just inside the cache (`agent.compose(politeCacheGuard(), interceptors.cache(), polite)`;
 * nothing between the cache and the interceptor, whose handler notes when the cache has answered).
 * For a copy within its `stale-while-revalidate` window, undici's cache serves the stale copy and
 * then revalidates it in the background, below the polite interceptor: neither gated nor paced,
 * its answer noted nowhere. The guard does not send that request; the copy is revalidated by the
 * first request after the window, through the interceptor. Requests the interceptor sends pass as
 * they are.
 * @example
 * import { Agent, interceptors, request } from 'undici';
 * const polite = politeInterceptor({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
 * const agent = new Agent().compose(politeCacheGuard(), interceptors.cache(), polite);
 */
export function politeCacheGuard(): <D extends AnyDispatch>(dispatch: D) => D {
  return markSent() as unknown as <D extends AnyDispatch>(dispatch: D) => D;
}
