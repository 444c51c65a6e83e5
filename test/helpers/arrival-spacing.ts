/**
 * How far apart a server saw paced requests arrive, and the allowances for a loaded machine: the
 * site owner's view of pacing, shared by the CLI crawl tests and the fleet tests. Arrival times
 * are ms on any one clock.
 */
import { expect } from 'vitest';

/** An arrival, as a recording server stamps it. */
export interface Arrival {
  readonly at: number;
}

/** Gaps between consecutive arrivals (ms). */
export function gaps(requests: readonly Arrival[]): number[] {
  const times = requests.map((r) => r.at).sort((a, b) => a - b);
  return times.slice(1).map((t, i) => t - times[i]!);
}

/** How much later than booked a request may reach the server, for the span of a crawl, ms. */
export const ARRIVAL_SLACK = 120;
/** The same for one gap: CI saw a single request ~130 ms late on a loaded two-core machine. */
export const GAP_SLACK = 200;

/**
 * Asserts that the server saw `requests` start `interval` apart. A request that reaches the
 * server late shortens only its own gap (and lengthens the next one), so each gap must be at
 * least `interval - GAP_SLACK`, and the span from the first arrival to the last, which one late
 * request cannot shorten by more than the first one's delay, at least
 * `(n - 1) × interval - ARRIVAL_SLACK`: a fleet that did not pace, or paced at a shorter
 * interval, fails one or the other.
 */
export function expectSpaced(requests: readonly Arrival[], interval: number): void {
  const between = gaps(requests);
  for (const gap of between) expect(gap).toBeGreaterThanOrEqual(interval - GAP_SLACK);
  const span = between.reduce((sum, gap) => sum + gap, 0);
  expect(span).toBeGreaterThanOrEqual(between.length * interval - ARRIVAL_SLACK);
}
