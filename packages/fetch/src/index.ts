// The public surface of @polite-crawler/fetch. What the adapters and the CLI share beyond it is
// in ./internal.ts (`@polite-crawler/fetch/internal`), which makes no stability promise.
// First: refuses an unsupported Node.js before undici is loaded (see the module).
import './runtime/node-version.js';
export type { MatchedRule, Verdict } from '@polite-crawler/robots-txt';
export type {
  NoindexReason,
  RobotsDirectives,
  RobotsTagFreshness,
  RobotsTagRules,
} from '@polite-crawler/robots-tag';
// The types of `response.usage` and the `usage` option, owned by robots-txt (re-exported so a
// fetch user needs one import).
export type {
  ContentUsageVerdict,
  UsageCategory,
  UsageLabel,
  UsagePreference,
  UsagePreferences,
  UsageRule,
  UsageSource,
} from '@polite-crawler/robots-txt';
// The date helpers behind `unavailable_after` and the rules' freshness, for crawlers that store
// directives and decide later (`isUnavailable(directives, laterInstant)`).
export { isUnavailable, parseRobotsDate, rulesFreshness } from '@polite-crawler/robots-tag';
export type { Clock } from './time/clock.js';
export type {
  RobotsFailureKind,
  RobotsFetchClaim,
  RobotsFetchFailure,
  RobotsFetchRecord,
  RobotsGoodCopy,
  RobotsStatus,
  RobotsStore,
  StoredRobots,
} from './robots/robots-store.js';
export type {
  CacheState,
  Decision,
  DecisionReason,
  DeniedReason,
  Explanation,
  RobotsTxtReport,
} from './policy/decision.js';
export type {
  OriginBackoffEvent,
  OriginPausedEvent,
  OriginRecoveredEvent,
  PoliteEvent,
  RequestDeniedEvent,
  RobotsCacheEvent,
  RobotsFetchedEvent,
} from './policy/events.js';
export type {
  PageOptions,
  PoliteFetchOptions,
  RobotsPolicyOptions,
  SharedPolicyOptions,
  UsageActions,
} from './options/option-types.js';
export type {
  AssertOptions,
  CheckOptions,
  DirectivesAt,
  EnterOptions,
  HeaderInput,
  HopSlot,
  PrefetchOptions,
  RobotsPolicy,
} from './policy/robots-policy.js';
export type {
  PoliteFetch,
  PoliteRequestInit,
  PoliteRequestInput,
  PoliteResponse,
} from './fetch/polite-fetch-types.js';
export type {
  PoliteErrorCode,
  RedirectFailureReason,
  RobotsDeniedErrorInit,
} from './errors/errors.js';
export {
  ERROR_CODES,
  RobotsClosedError,
  RobotsDeniedError,
  RobotsInvalidOptionError,
  RobotsInvalidUrlError,
  RobotsNoIndexError,
  RobotsRedirectError,
  RobotsUsageError,
  RobotsTooManyRedirectsError,
  RobotsUnsupportedNodeError,
  isRobotsClosedError,
  isRobotsDeniedError,
  isRobotsInvalidOptionError,
  isRobotsInvalidUrlError,
  isRobotsNoIndexError,
  isRobotsRedirectError,
  isRobotsTooManyRedirectsError,
  isRobotsUsageError,
  isRobotsUnsupportedNodeError,
} from './errors/errors.js';
export { PoliteError } from './errors/polite-error.js';
export { createPoliteFetch } from './fetch/polite-fetch.js';
export { REDIRECT_STATUSES, nextRedirectHop } from './redirects/redirect-rule.js';
export type { RedirectHop, RedirectingRequest } from './redirects/redirect-rule.js';
export { createRobotsPolicy } from './policy/policy.js';
export { pageRobots } from './response/page-robots.js';
export type { PageInput, RobotsOfPage } from './response/page-robots.js';
export { createMemoryRobotsStore } from './robots/memory-store.js';
export type { MemoryRobotsStoreOptions } from './robots/memory-store.js';
export { DEFAULTS, OPTION_BOUNDS } from './options/option-table.js';
export { deriveProductToken } from './options/identity.js';
export { UA_NO_URL_WARNING } from './options/user-agent-url.js';
export { CHANNELS } from './policy/events.js';
export type { PaceChange, PaceOutcome, PaceRules, Pacer, PacerSlot } from './pacing/pacer.js';
export type { DistressFailure } from './pacing/distress.js';
export { politeCacheGuard, politeInterceptor } from './interceptor/polite-interceptor.js';
export type {
  AnyDispatch,
  PoliteInterceptor,
  PoliteInterceptorOptions,
} from './interceptor/polite-interceptor.js';
export { generateSignatureKey } from './signature/key-directory.js';
export type { SignatureKey } from './signature/key-directory.js';
export { SIGNATURE_LIFETIME } from './signature/request-signer.js';
export type { RequestSigner, SignatureOptions } from './signature/request-signer.js';
export { MEMORY_CACHE_LIMITS } from './transport/http-cache.js';
export type { HttpCacheStore } from './transport/http-cache.js';
