import { RobotsRedirectError, RobotsTooManyRedirectsError } from '../errors/errors.js';
import type { EnterOptions, HeaderInput, HopSlot, RobotsPolicy } from '../policy/robots-policy.js';
import { REDIRECT_STATUSES, nextRedirectHop } from './redirect-rule.js';
import type { RedirectHop } from './redirect-rule.js';

/**
 * One hop of a walk, as the walker asks the caller to send it.
 * @example
 * send: (hop, slot) => request(hop.url, { method: hop.method, headers: hop.redirect === undefined ? headers : without(headers, hop.redirect.dropHeaders) })
 */
export interface WalkHop {
  readonly url: URL;
  readonly method: string;
  /** The redirect that led to this hop (what to drop, whether the body goes on); none for the first. */
  readonly redirect: RedirectHop | undefined;
}

/**
 * What {@link walkRedirects} needs of a caller: how to send a hop and read its response.
 * @example
 * const walk: RedirectWalk<Response> = { url, method: 'GET', replayableBody: true, maxRedirects: 20, send, statusOf: (r) => r.status, locationOf: (r) => r.headers.get('location') ?? undefined, headersOf: (r) => r.headers, discard: (r) => r.body?.cancel() };
 */
export interface RedirectWalk<R> {
  readonly url: URL;
  readonly method: string;
  /** Whether the request body (if any) can be sent again on a 307/308 hop. */
  readonly replayableBody: boolean;
  readonly maxRedirects: number;
  /** Fetch's redirect mode: `manual` returns a redirect as the final response. @default 'follow' */
  readonly redirect?: 'follow' | 'manual' | 'error';
  readonly signal?: AbortSignal | undefined;
  /** `false` admits every hop without a pacing slot. @default true */
  readonly paced?: boolean;
  /**
   * Sends one hop, holding `slot`: the caller may release it once the body has ended; the walk
   * releases it at the latest when it moves on or fails. Resolve once the response headers are
   * in (the time to them is the origin's response time); a rejection is the hop's failure (a
   * connection error or a timeout makes the origin back off).
   */
  send(hop: WalkHop, slot: HopSlot): Promise<R>;
  statusOf(response: R): number;
  /** The `Location` of a redirect response, if it has one. */
  locationOf(response: R): string | undefined;
  /** The response's header lines, for its `Retry-After`. */
  headersOf(response: R): HeaderInput;
  /**
   * Whether the response came from the HTTP cache without a request (a fresh copy, or an identical
   * GET's in flight): it is then no response of the origin's, and is not noted for back-off,
   * Retry-After or response time. @default never
   */
  fromStore?(response: R): boolean;
  /** Throws a redirect response away (its body is not read). */
  discard(response: R): unknown;
  /** The URL the next hop goes to (Crawlee's redirect handler may change it). @default next.url */
  redirectTarget?(response: R, next: RedirectHop): URL;
}

/**
 * The end of a walk.
 * @example
 * const { response, url, redirects }: WalkResult<Response> = await walkRedirects(policy, walk);
 */
export interface WalkResult<R> {
  readonly response: R;
  /** The final hop's URL. */
  readonly url: URL;
  /** Every redirect target followed, in order. */
  readonly redirects: readonly string[];
  /** The final hop's slot (released already unless the caller holds it to the body's end). */
  readonly slot: HopSlot;
}

/** The enter options of an unsignalled, paced first hop (shared). */
const NO_OPTIONS: EnterOptions = Object.freeze({});

/**
 * Walks a request and its redirects, one gated hop at a time: each hop enters the policy before
 * it is sent (a redirect target as a redirect of the first URL), its response is noted in the
 * slot, and a redirect is followed as `nextRedirectHop` says. The one walk behind the polite
 * fetch and both adapters. Throws `RobotsDeniedError`, `RobotsTooManyRedirectsError`,
 * `RobotsRedirectError`, or what `send` throws.
 * @example
 * const { response, redirects } = await walkRedirects(policy, { url, method: 'GET', replayableBody: true, maxRedirects: 20, send, statusOf, locationOf, headersOf, discard });
 */
export async function walkRedirects<R>(
  policy: RobotsPolicy,
  walk: RedirectWalk<R>,
): Promise<WalkResult<R>> {
  const { signal, maxRedirects } = walk;
  const mode = walk.redirect ?? 'follow';
  const first = walk.url;
  const redirects: string[] = [];
  let hop: WalkHop = { url: first, method: walk.method, redirect: undefined };
  let replayable = walk.replayableBody;
  // Made once per walk (the options of a redirect hop only when there is one).
  const enterOptions: EnterOptions =
    signal === undefined && walk.paced !== false
      ? NO_OPTIONS
      : {
          ...(signal === undefined ? {} : { signal }),
          ...(walk.paced === false ? { paced: false } : {}),
        };
  let redirected: EnterOptions | undefined;
  for (;;) {
    const slot = await policy.enter(
      hop.url,
      redirects.length === 0
        ? enterOptions
        : (redirected ??= { ...enterOptions, redirectedFrom: first.href }),
    );
    let response: R;
    try {
      response = await walk.send(hop, slot);
      if (walk.fromStore?.(response) !== true) {
        slot.noteResponse(walk.statusOf(response), walk.headersOf(response));
      }
    } catch (error) {
      // A connection error or a timeout makes the origin back off.
      slot.noteFailure(error);
      slot.release();
      throw error;
    }
    const status = walk.statusOf(response);
    const location =
      mode !== 'manual' && REDIRECT_STATUSES.has(status) ? walk.locationOf(response) : undefined;
    if (location === undefined) return { response, url: hop.url, redirects, slot };
    try {
      await walk.discard(response);
    } finally {
      slot.release();
    }
    if (mode === 'error') {
      throw new RobotsRedirectError({
        url: hop.url.href,
        reason: 'redirect-mode-error',
        location,
        status,
      });
    }
    if (redirects.length >= maxRedirects) {
      throw new RobotsTooManyRedirectsError({ url: first.href, redirects, maxRedirects });
    }
    const next = nextRedirectHop(
      { url: hop.url, method: hop.method, replayableBody: replayable },
      status,
      location,
    );
    const target = walk.redirectTarget?.(response, next) ?? next.url;
    redirects.push(target.href);
    replayable = replayable || !next.keepBody;
    hop = { url: target, method: next.method, redirect: next };
  }
}
