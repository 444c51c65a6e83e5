import type { HopSlot, RobotsPolicy } from '@polite-crawler/fetch';

/**
 * A place in one origin's pacing queue, taken through `policy.enter` (so the policy's rules and
 * its re-check after the wait decide, and a shared policy paces everything that uses it). Once
 * granted, the slot is held until {@link OriginTicket.claim} hands it to the hop that uses it,
 * or {@link OriginTicket.release} gives it back unused.
 * @example
 * const ticket = takeTicket(policy, 'https://example.com/a');
 * await ticket.ready;
 * const slot = ticket.claim(); // the first hop of the request sends in it, then releases it
 */
export interface OriginTicket {
  /** The URL the slot was asked for (and admitted by robots.txt). */
  readonly url: string;
  /** Whether the slot has been granted. */
  readonly granted: boolean;
  /** Settles once the slot is granted; rejects when `enter` does (URL refused, policy closed). */
  readonly ready: Promise<void>;
  /** Hands the granted slot over, once (the caller releases it); `undefined` if there is none. */
  claim(): HopSlot | undefined;
  /** Gives the slot back (or leaves the queue while still waiting). Idempotent. */
  release(): void;
}

/**
 * Queues for a pacing slot of `url`'s origin through `policy.enter`.
 * @example
 * const ticket = takeTicket(policy, request.url);
 * if (ticket.granted) handOut(request, ticket);
 */
export function takeTicket(policy: RobotsPolicy, url: string): OriginTicket {
  const leave = new AbortController();
  let slot: HopSlot | undefined;
  let granted = false;
  let done = false;
  const accept = (got: HopSlot): void => {
    granted = true;
    // Given back while the grant was on its way: the slot goes straight back.
    if (done) got.release();
    else slot = got;
  };
  const ready = policy.enter(url, { signal: leave.signal }).then(accept);
  // Nobody may be listening yet: a failed wait must not become an unhandled rejection.
  ready.catch(() => undefined);

  return {
    url,
    get granted() {
      return granted;
    },
    ready,
    claim() {
      if (done || slot === undefined) return undefined;
      const claimed = slot;
      slot = undefined;
      done = true;
      return claimed;
    },
    release() {
      if (done) return;
      done = true;
      if (slot !== undefined) {
        slot.release();
        slot = undefined;
      } else if (!granted) {
        leave.abort(new DOMException('the request left the queue', 'AbortError'));
      }
    },
  };
}

/**
 * The origin whose pacing queue `url` waits in; `undefined` when it is not an http(s) URL.
 * @example
 * originOf('https://example.com/a?b'); // 'https://example.com'
 */
export function originOf(url: string | URL): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
