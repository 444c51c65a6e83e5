import type { RobotsPolicy } from '@polite-crawler/fetch';

/**
 * A place in one origin's pacing queue, taken through the policy's own `schedule` (so the
 * policy's concurrency, interval, crawl-delay and Retry-After rules decide, and a shared policy
 * paces the crawler together with everything else that uses it). Once granted, the slot is
 * held until {@link OriginTicket.run} has sent the request in it, or {@link OriginTicket.release}
 * gives it back unused.
 * @example
 * const ticket = takeTicket(policy, 'https://example.com/a');
 * await ticket.ready;
 * await ticket.run((signal) => send(signal));
 */
export interface OriginTicket {
  /** Whether the slot has been granted. */
  readonly granted: boolean;
  /** Settles once the slot is granted; rejects when the wait fails (the policy closed). */
  readonly ready: Promise<void>;
  /**
   * Runs `task` in the granted slot, then gives the slot back. `signal` (the caller's) aborts
   * the task too. Rejects if the slot was released or never granted.
   */
  run<T>(task: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Gives the slot back (or leaves the queue while still waiting). Idempotent. */
  release(): void;
}

/**
 * Queues for a pacing slot of `url`'s origin.
 * @example
 * const ticket = takeTicket(policy, request.url);
 * if (ticket.granted) handOut(request, ticket);
 */
export function takeTicket(policy: RobotsPolicy, url: string): OriginTicket {
  const leave = new AbortController();
  let granted = false;
  let released = false;
  let slotSignal: AbortSignal | undefined;
  let grant!: () => void;
  let fail!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    grant = resolve;
    fail = reject;
  });
  // Nobody may be listening yet: a failed wait must not become an unhandled rejection.
  ready.catch(() => undefined);
  let free!: () => void;
  const held = new Promise<void>((resolve) => {
    free = resolve;
  });

  policy
    .schedule(
      url,
      (signal) => {
        slotSignal = signal;
        granted = true;
        grant();
        // The policy closing ends the hold as well.
        signal.addEventListener('abort', free, { once: true });
        return held;
      },
      { signal: leave.signal },
    )
    .catch(fail);

  const release = (): void => {
    if (released) return;
    released = true;
    free();
    if (!granted) leave.abort(new DOMException('the request left the queue', 'AbortError'));
  };

  return {
    get granted() {
      return granted;
    },
    ready,
    release,
    async run(task, signal) {
      if (!granted || released || slotSignal === undefined) {
        throw new Error('politeCrawlee: a pacing slot was used after it was given back');
      }
      try {
        const combined = signal === undefined ? slotSignal : AbortSignal.any([slotSignal, signal]);
        combined.throwIfAborted();
        return await task(combined);
      } finally {
        release();
      }
    },
  };
}
