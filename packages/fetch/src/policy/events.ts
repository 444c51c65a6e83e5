import { channel } from 'node:diagnostics_channel';
import type { Channel } from 'node:diagnostics_channel';
import type { DistressFailure } from '../pacing/distress.js';
import type { RobotsFetchRecord } from '../robots/robots-store.js';
import type { CacheState, Decision, DeniedReason } from './decision.js';

/**
 * @example
 * onEvent: (e) => { if (e.type === 'robots-fetched') log(e.origin, e.status, e.duration); }
 */
export interface RobotsFetchedEvent extends Pick<
  RobotsFetchRecord,
  'status' | 'httpStatus' | 'redirects' | 'failure'
> {
  readonly type: 'robots-fetched';
  readonly origin: string;
  readonly robotsUrl: string;
  /** `true` when a conditional request was answered 304. */
  readonly notModified: boolean;
  readonly bytes: number;
  readonly truncated: boolean;
  /** Clock ms spent fetching. */
  readonly duration: number;
}

/**
 * @example
 * onEvent: (e) => { if (e.type === 'robots-cache') metrics.count(`robots.${e.state}`); }
 */
export interface RobotsCacheEvent {
  readonly type: 'robots-cache';
  readonly origin: string;
  readonly state: CacheState;
}

/**
 * @example
 * onEvent: (e) => { if (e.type === 'request-denied') log(e.url, e.reason, e.line); }
 */
export interface RequestDeniedEvent extends Pick<Decision, 'url' | 'origin' | 'rule' | 'line'> {
  readonly type: 'request-denied';
  readonly reason: DeniedReason;
  /** For `redirect-disallowed`: the URL the caller asked for. */
  readonly originalUrl?: string;
}

/**
 * @example
 * onEvent: (e) => { if (e.type === 'origin-paused') log(`${e.origin} paused for ${e.duration} ms`); }
 */
export interface OriginPausedEvent {
  readonly type: 'origin-paused';
  readonly origin: string;
  /** The status that asked for the pause (429, 503). */
  readonly status: number;
  /** Clock ms until which the origin is paused. */
  readonly until: number;
  /** The pause in ms, after capping at `maxRetryAfter`. */
  readonly duration: number;
  /** The raw `Retry-After` value. */
  readonly retryAfter: string;
}

/**
 * An origin backs off (again): a request's outcome was distress (README: "Back-off").
 * @example
 * onEvent: (e) => { if (e.type === 'origin-backoff') log(`${e.origin}: ${e.cause}, ${e.delay} ms apart`); }
 */
export interface OriginBackoffEvent {
  readonly type: 'origin-backoff';
  readonly origin: string;
  /** What was distress: the status (500, 502, 503, 504, 408, 429), or the kind of failure. */
  readonly cause: number | DistressFailure;
  /** Distress outcomes in a row on this origin (in a fleet: across the fleet). */
  readonly distress: number;
  /** The origin's spacing now, ms: its next start is at least this far away, and starts stay this far apart until it recovers. */
  readonly delay: number;
  /** Clock ms before which the origin's next request does not start. */
  readonly until: number;
}

/**
 * A backed-off origin is back to its own interval: successes brought its spacing down.
 * @example
 * onEvent: (e) => { if (e.type === 'origin-recovered') log(`${e.origin} recovered`); }
 */
export interface OriginRecoveredEvent {
  readonly type: 'origin-recovered';
  readonly origin: string;
}

/**
 * One state object per event; new fields may be added.
 * @example
 * createPoliteFetch({ userAgent, onEvent: (event: PoliteEvent) => console.log(event.type) });
 */
export type PoliteEvent =
  | RobotsFetchedEvent
  | RobotsCacheEvent
  | RequestDeniedEvent
  | OriginPausedEvent
  | OriginBackoffEvent
  | OriginRecoveredEvent;

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
  originBackoff: 'polite-crawler:origin-backoff',
  originRecovered: 'polite-crawler:origin-recovered',
} as const);

// Each channel is named `polite-crawler:<event type>`.
const byType = Object.fromEntries(
  Object.values(CHANNELS).map((name) => [name.slice('polite-crawler:'.length), channel(name)]),
) as Record<PoliteEvent['type'], Channel>;

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
