export { createPlaywrightGate } from './create-playwright-gate.js';
export { DEFAULTS } from './defaults.js';
export type {
  GateDeniedEvent,
  GateEvent,
  GateFailedEvent,
  GateServedEvent,
  NavigationRobots,
  PlaywrightGate,
  PlaywrightGateOptions,
} from './types.js';
