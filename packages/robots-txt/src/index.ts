export type {
  Agent,
  AgentRules,
  Diagnostic,
  DiagnosticCode,
  DiagnosticSeverity,
  GroupSelection,
  MatchedRule,
  ParseOptions,
  RobotsTxt,
  Verdict,
  VerdictReason,
} from './types.js';
export type { LineKey, LineReport, RobotsTxtLineReport } from './line-report.js';
export type { RobotsTxtUsageErrorOptions, RobotsTxtUsageReason } from './robots-txt-usage-error.js';
export { parseRobotsTxt } from './parse-robots-txt.js';
export { reportRobotsTxtLines } from './line-report.js';
export { PARSE_DEFAULTS } from './parse-defaults.js';
export { DIAGNOSTIC_SEVERITY } from './diagnostics.js';
export {
  ROBOTS_TXT_USAGE_REASONS,
  RobotsTxtUsageError,
  isRobotsTxtUsageError,
} from './robots-txt-usage-error.js';
export { isValidProductToken, isValidPurposeToken } from './product-token.js';
export { toMatchPath } from './to-match-path.js';
export { normalizePattern } from './normalize-pattern.js';
// The AIPREF vocabulary (draft-ietf-aipref-vocab-08, -attach-05, Cloudflare's Content-Signal):
// owned here for robots.txt rules and the Content-Usage response field alike.
export { USAGE_CATEGORIES } from './content-usage-types.js';
export { combineUsage } from './usage-statement.js';
export { parseContentUsage } from './content-usage-field.js';
export type {
  ContentUsageHeaderEntry,
  ContentUsageInput,
  ContentUsageOptions,
} from './content-usage-field.js';
export type {
  ContentUsageReason,
  ContentUsageVerdict,
  UsageCategory,
  UsageLabel,
  UsagePreference,
  UsagePreferences,
  UsageRule,
  UsageSource,
} from './content-usage-types.js';
