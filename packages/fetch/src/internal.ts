// `@polite-crawler/fetch/internal`: what the adapters (Crawlee, Playwright) and the CLI share
// with this package beyond its public surface. Same version only: no semver promise is made
// for anything here, and users should not import it.
// First: refuses an unsupported Node.js before undici is loaded (see the module).
import './runtime/node-version.js';
export {
  booleanOption,
  functionOption,
  integerOption,
  oneOfOption,
  robotsPolicyOption,
} from './options/validate-option.js';
export { usageOption } from './options/usage-option.js';
export { readOption } from './options/option-spec.js';
export { PAGE_OPTIONS } from './options/option-table.js';
export { systemClock } from './time/clock.js';
export { readCapped } from './transport/body-reader.js';
export { isHtml } from './transport/html-content-type.js';
export type { CappedBody } from './transport/body-reader.js';
export { walkRedirects } from './redirects/redirect-walker.js';
export { distressOf, isDistressStatus } from './pacing/distress.js';
export {
  BACKOFF_BASE,
  LATENCY_WEIGHT,
  RECOVERY_SUCCESSES,
  nextBackoff,
  smoothLatency,
} from './pacing/backoff.js';
export type { RedirectWalk, WalkHop, WalkResult } from './redirects/redirect-walker.js';
export { refuseUnknownOptions } from './options/known-options.js';
export { fetchRobotsTxt } from './robots/robots-fetcher.js';
export type { RobotsFetchOutcome, RobotsFetchSettings } from './robots/robots-fetcher.js';
export { defaultDispatcher } from './transport/default-dispatcher.js';
export { adapterDispatcher } from './transport/compose-transport.js';
export { cacheOption, cacheSetting } from './transport/http-cache.js';
export type { CacheSetting } from './transport/http-cache.js';
export { requestThrough } from './transport/transport-request.js';
export type { TransportHop } from './transport/transport-request.js';
export type { NetworkMark } from './transport/network-mark.js';
