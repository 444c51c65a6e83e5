/**
 * What the fleet reports through `onEvent`:
 * - `fleet-unavailable`: Redis stopped answering (connection lost, refused at start, or a
 *   command got no answer in time); requests wait for it (up to `unavailableTimeout`).
 * - `fleet-available`: Redis answers (at start, or again after an outage).
 * @example
 * onEvent: (event) => { if (event.type === 'fleet-unavailable') console.warn(event.error); }
 */
export type FleetEvent =
  | { readonly type: 'fleet-available' }
  | { readonly type: 'fleet-unavailable'; readonly error: Error | undefined };

/** `connecting` until the first answer or failure. */
export type FleetState = 'connecting' | 'available' | 'unavailable';
