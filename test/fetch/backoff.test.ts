// The pure parts of back-off and latency spacing: the arithmetic every pacer shares, what
// counts as distress, and the options' limits.
import { describe, expect, it } from 'vitest';
import {
  DEFAULTS,
  OPTION_BOUNDS,
  createRobotsPolicy,
  isRobotsInvalidOptionError,
} from '@polite-crawler/fetch';
import {
  BACKOFF_BASE,
  RECOVERY_SUCCESSES,
  distressOf,
  isDistressStatus,
  nextBackoff,
  smoothLatency,
} from '@polite-crawler/fetch/internal';
import { NO_BACKOFF, spacingOf } from '../../packages/fetch/src/pacing/backoff.js';
import type { BackoffState } from '../../packages/fetch/src/pacing/backoff.js';
import { USER_AGENT } from './helpers/setup.js';

describe('nextBackoff', () => {
  it('the k-th distress in a row doubles the spacing, from twice max(interval, base), up to the cap', () => {
    let state: BackoffState = NO_BACKOFF;
    const spacings: number[] = [];
    for (let k = 1; k <= 8; k += 1) {
      state = nextBackoff(state, 'distress', 0, 60_000);
      expect(state.distress).toBe(k);
      spacings.push(state.spacing);
    }
    expect(BACKOFF_BASE).toBe(1_000);
    expect(spacings).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    expect(nextBackoff(NO_BACKOFF, 'distress', 5_000, 60_000).spacing).toBe(10_000);
  });

  it('each success halves it; back to the interval at the base, or after eight successes whatever the cap', () => {
    // The widest back-off allowed (a day) with a 1 s interval: 2^16 s would take 16 halvings.
    let state: BackoffState = { distress: 20, spacing: 86_400_000, successes: 0 };
    let successes = 0;
    while (state.spacing > 0) {
      state = nextBackoff(state, 'success', 1_000, 86_400_000);
      successes += 1;
      if (state.spacing > 0) expect(state.distress).toBe(0);
    }
    expect(successes).toBe(RECOVERY_SUCCESSES);
    expect(RECOVERY_SUCCESSES).toBe(8);
    // From 8 s: 4 s, 2 s, then 1 s is the base: recovered on the third success.
    let small: BackoffState = { distress: 3, spacing: 8_000, successes: 0 };
    const seen: number[] = [];
    for (let i = 0; i < 3; i += 1)
      seen.push((small = nextBackoff(small, 'success', 0, 60_000)).spacing);
    expect(seen).toEqual([4_000, 2_000, 0]);
  });

  it('a distress after partial recovery grows from where the spacing is; neutral and maxBackoff 0 change nothing', () => {
    const partial: BackoffState = { distress: 0, spacing: 16_000, successes: 2 };
    expect(nextBackoff(partial, 'distress', 0, 60_000)).toEqual({
      distress: 1,
      spacing: 32_000,
      successes: 0,
    });
    expect(nextBackoff(partial, 'neutral', 0, 60_000)).toBe(partial);
    expect(nextBackoff(NO_BACKOFF, 'distress', 0, 0)).toBe(NO_BACKOFF);
    expect(nextBackoff(NO_BACKOFF, 'success', 0, 60_000)).toBe(NO_BACKOFF);
  });
});

describe('latency smoothing and spacing', () => {
  it('an EWMA weighing the newest sample 0.3; the spacing is never below the interval', () => {
    expect(smoothLatency(undefined, 200)).toBe(200);
    expect(smoothLatency(200, 1_200)).toBe(500);
    expect(smoothLatency(500, -5)).toBe(350);
    expect(spacingOf(1_000, 0, 1, 400)).toBe(1_000);
    expect(spacingOf(1_000, 0, 1, 1_500.2)).toBe(1_501);
    expect(spacingOf(1_000, 4_000, 1, 1_500)).toBe(4_000);
    expect(spacingOf(0, 0, 0, 9_000)).toBe(0);
    expect(spacingOf(0, 0, 2, undefined)).toBe(0);
  });
});

describe('what is distress', () => {
  it('statuses', () => {
    for (const status of [408, 429, 500, 502, 503, 504])
      expect(isDistressStatus(status)).toBe(true);
    expect(isDistressStatus(429, true)).toBe(false);
    expect(isDistressStatus(503, true)).toBe(false);
    // Retry-After is not read on these: distress either way.
    expect(isDistressStatus(500, true)).toBe(true);
    expect(isDistressStatus(408, true)).toBe(true);
    for (const status of [200, 301, 304, 400, 403, 404, 410, 501, 505]) {
      expect(isDistressStatus(status)).toBe(false);
    }
  });

  it('failures: connection errors and timeouts through the cause chain; aborts, DNS and anything else are not', () => {
    const coded = (code: string, name = 'Error') =>
      Object.assign(new Error(`${code} happened`), { code, name });
    expect(distressOf(new TypeError('fetch failed', { cause: coded('UND_ERR_SOCKET') }))).toBe(
      'connection',
    );
    expect(distressOf(coded('ECONNREFUSED'))).toBe('connection');
    expect(distressOf(coded('UND_ERR_HEADERS_TIMEOUT'))).toBe('timeout');
    expect(distressOf(new DOMException('late', 'TimeoutError'))).toBe('timeout');
    // Playwright's request API: messages only.
    expect(distressOf(new Error('apiRequestContext.fetch: connect ECONNREFUSED 127.0.0.1:1'))).toBe(
      'connection',
    );
    expect(distressOf(new Error('apiRequestContext.fetch: Timeout 30000ms exceeded.'))).toBe(
      'timeout',
    );
    expect(distressOf(new DOMException('stop', 'AbortError'))).toBeUndefined();
    expect(distressOf(coded('ENOTFOUND'))).toBeUndefined();
    expect(distressOf(new Error('something else'))).toBeUndefined();
    expect(distressOf('ECONNRESET')).toBeUndefined();
    expect(distressOf(undefined)).toBeUndefined();
    // A cause chain deeper than five links is not followed (a cycle ends too).
    const cycle: { cause?: unknown } = new Error('outer');
    cycle.cause = cycle;
    expect(distressOf(cycle)).toBeUndefined();
  });
});

describe('the options', () => {
  it('maxBackoff: an integer from 0 (off) to a day, 60 s by default', async () => {
    expect(DEFAULTS.maxBackoff).toBe(60_000);
    expect(OPTION_BOUNDS.maxBackoff).toEqual([0, 86_400_000]);
    for (const ok of [0, 86_400_000]) {
      await createRobotsPolicy({ userAgent: USER_AGENT, maxBackoff: ok }).close();
    }
    for (const bad of [-1, 86_400_001, 1.5]) {
      let thrown: unknown;
      try {
        createRobotsPolicy({ userAgent: USER_AGENT, maxBackoff: bad });
      } catch (error) {
        thrown = error;
      }
      expect(isRobotsInvalidOptionError(thrown) && thrown.option).toBe('maxBackoff');
    }
  });

  it('latencyFactor: a number from 0 (off) to 100, 1 by default', async () => {
    expect(DEFAULTS.latencyFactor).toBe(1);
    for (const ok of [0, 0.25, 100]) {
      await createRobotsPolicy({ userAgent: USER_AGENT, latencyFactor: ok }).close();
    }
    for (const bad of [-0.1, 100.5, Number.NaN, Number.POSITIVE_INFINITY, '1']) {
      let thrown: unknown;
      try {
        createRobotsPolicy({ userAgent: USER_AGENT, latencyFactor: bad as number });
      } catch (error) {
        thrown = error;
      }
      expect(isRobotsInvalidOptionError(thrown) && thrown.option).toBe('latencyFactor');
    }
  });
});
