/** Each signal's callbacks, behind the one listener it has from {@link onAbort}. */
const fanouts = new WeakMap<AbortSignal, { callbacks: Set<() => void>; listener: () => void }>();

/**
 * Calls `callback` once when `signal` aborts; the returned function unsubscribes it. A signal
 * carries one listener however many callbacks it has: an `EventTarget` walks its listener list
 * on each add and remove, so a listener per waiter on a shared signal (ten thousand requests
 * queued for one origin) costs quadratic time. Pass a callback of your own, on a live signal.
 * @example
 * const unsubscribe = onAbort(signal, () => reject(signal.reason));
 * try { await work(); } finally { unsubscribe(); }
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let fanout = fanouts.get(signal);
  if (fanout === undefined) {
    const callbacks = new Set<() => void>();
    const listener = (): void => {
      fanouts.delete(signal);
      for (const each of callbacks) {
        try {
          each();
        } catch (error) {
          // As an EventTarget does: the others still run, the error is reported on its own.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
      callbacks.clear();
    };
    fanout = { callbacks, listener };
    fanouts.set(signal, fanout);
    signal.addEventListener('abort', listener, { once: true });
  }
  const subscribed = fanout;
  subscribed.callbacks.add(callback);
  return () => {
    const { callbacks } = subscribed;
    if (!callbacks.delete(callback) || callbacks.size > 0) return;
    // The last one left: so does the listener (a caller's long-lived signal keeps nothing).
    if (fanouts.get(signal) === subscribed) {
      fanouts.delete(signal);
      signal.removeEventListener('abort', subscribed.listener);
    }
  };
}

/**
 * `promise`, or a rejection with `signal.reason` as soon as `signal` aborts, whichever comes
 * first. The promise itself keeps running (it may be shared with other waiters).
 * @example
 * const entry = await raceSignal(sharedFetch, request.signal);
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const unsubscribe = onAbort(signal, () => reject(signal.reason as Error));
    promise.then(resolve, reject).finally(unsubscribe);
  });
}
