import { channel } from 'node:diagnostics_channel';
import type { Channel } from 'node:diagnostics_channel';
import type { PoliteEvent } from './types.js';

/**
 * The `node:diagnostics_channel` names events are published on; each message is the same
 * state object `onEvent` receives.
 * @example
 * import { subscribe } from 'node:diagnostics_channel';
 * subscribe(CHANNELS.requestDenied, (event) => console.log(event));
 */
export const CHANNELS = Object.freeze({
  robotsFetched: 'polite-crawler:robots-fetched',
  robotsCache: 'polite-crawler:robots-cache',
  requestDenied: 'polite-crawler:request-denied',
  originPaused: 'polite-crawler:origin-paused',
} as const);

const byType: Record<PoliteEvent['type'], Channel> = {
  'robots-fetched': channel(CHANNELS.robotsFetched),
  'robots-cache': channel(CHANNELS.robotsCache),
  'request-denied': channel(CHANNELS.requestDenied),
  'origin-paused': channel(CHANNELS.originPaused),
};

/**
 * Publishes events to the channels and the `onEvent` hook.
 * @example
 * if (sink.wants('robots-cache')) sink.emit({ type: 'robots-cache', origin, state: 'hit' });
 */
export interface EventSink {
  /** Whether anyone listens for `type` (lets hot paths skip building the event). */
  wants(type: PoliteEvent['type']): boolean;
  emit(event: PoliteEvent): void;
}

/**
 * An {@link EventSink} over the diagnostics channels plus an optional hook. A throwing hook
 * never breaks a request.
 * @example
 * const sink = createEventSink((event) => console.log(event.type));
 */
export function createEventSink(onEvent: ((event: PoliteEvent) => void) | undefined): EventSink {
  return {
    wants: (type) => onEvent !== undefined || byType[type].hasSubscribers,
    emit(event) {
      const target = byType[event.type];
      if (target.hasSubscribers) target.publish(event);
      if (onEvent !== undefined) {
        try {
          // An async hook's rejection is swallowed too (unhandled, it would end the process).
          const returned: unknown = onEvent(event);
          if (typeof returned === 'object' && returned !== null && 'then' in returned) {
            Promise.resolve(returned).catch(() => {});
          }
        } catch {
          // A hook must not break the request it observes.
        }
      }
    },
  };
}
