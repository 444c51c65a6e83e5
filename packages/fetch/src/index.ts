export type {
  AssertOptions,
  CacheState,
  CheckOptions,
  Clock,
  Decision,
  DecisionReason,
  DeniedReason,
  Explanation,
  HeaderInput,
  MatchedRule,
  OriginPausedEvent,
  PaceRules,
  Pacer,
  PacerSlot,
  PageOptions,
  PoliteEvent,
  PoliteFetch,
  PoliteFetchOptions,
  PoliteRequestInit,
  PoliteRequestInput,
  PoliteResponse,
  PrefetchOptions,
  RequestDeniedEvent,
  RobotsCacheEvent,
  RobotsDirectives,
  RobotsFailureKind,
  RobotsFetchClaim,
  RobotsFetchedEvent,
  SharedPolicyOptions,
  RobotsFetchFailure,
  RobotsFetchRecord,
  RobotsGoodCopy,
  RobotsPolicy,
  RobotsPolicyOptions,
  RobotsStatus,
  RobotsStore,
  RobotsTagRules,
  RobotsTxtReport,
  StoredRobots,
  Verdict,
} from './types.js';
export type { PoliteErrorCode, RedirectFailureReason, RobotsDeniedErrorInit } from './errors.js';
export {
  ERROR_CODES,
  RobotsClosedError,
  RobotsDeniedError,
  RobotsInvalidOptionError,
  RobotsInvalidUrlError,
  RobotsNoIndexError,
  RobotsRedirectError,
  RobotsTooManyRedirectsError,
  isRobotsClosedError,
  isRobotsDeniedError,
  isRobotsInvalidOptionError,
  isRobotsInvalidUrlError,
  isRobotsNoIndexError,
  isRobotsRedirectError,
  isRobotsTooManyRedirectsError,
} from './errors.js';
export { createPoliteFetch } from './polite-fetch.js';
export { REDIRECT_STATUSES, nextRedirectHop } from './redirect-rule.js';
export type { RedirectHop, RedirectingRequest } from './redirect-rule.js';
export { createRobotsPolicy } from './policy.js';
export { createMemoryRobotsStore } from './memory-store.js';
export type { MemoryRobotsStoreOptions } from './memory-store.js';
export { DEFAULTS, OPTION_BOUNDS, deriveProductToken } from './options.js';
export {
  functionOption,
  integerOption,
  oneOfOption,
  robotsPolicyOption,
} from './validate-option.js';
export { CHANNELS } from './events.js';
export { systemClock } from './clock.js';
export { readCapped } from './body-reader.js';
export type { CappedBody } from './body-reader.js';
