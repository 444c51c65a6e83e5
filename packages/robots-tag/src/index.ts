export { ROBOTS_TAG_DEFAULTS } from './defaults.js';
export { ROBOTS_TAG_DIAGNOSTIC_CODES } from './diagnostic-codes.js';
export { directivesFor, isUnavailable } from './directives.js';
export { ROBOTS_TAG_ERROR_CODES, RobotsTagUsageError, isRobotsTagUsageError } from './errors.js';
export type { RobotsTagErrorCode } from './errors.js';
export { rawHeaderPairs } from './header-input.js';
export { KNOWN_ROBOTS_RULES } from './known-rules.js';
export {
  createMetaScanner,
  createMetaScannerFactory,
  parseRobotsMetaContent,
  scanRobotsMeta,
} from './meta-scanner.js';
export { parseRobotsTagHeaders } from './parse-headers.js';
export { ROBOTS_DATE_ZONES, parseRobotsDate } from './robots-date.js';
export { rulesFreshness } from './rules-freshness.js';
export type {
  DirectivesOptions,
  HeaderEntry,
  HeaderParseOptions,
  HeadersLike,
  HeadersRecord,
  ImagePreviewSize,
  MetaScanner,
  MetaScanOptions,
  MetaScanStopReason,
  NoindexReason,
  RobotsDirectives,
  RobotsTagDiagnostic,
  RobotsTagDiagnosticCode,
  RobotsTagFreshness,
  RobotsTagHeaderInput,
  RobotsTagRule,
  RobotsTagRules,
  RuleSource,
  RuleSyntax,
} from './types.js';
