export type { CliAgent, AgentFlags } from './agent.js';
export { resolveAgent } from './agent.js';
export type { CliErrorCode } from './cli-error.js';
export { CLI_ERROR_CODES, CliError, isCliError } from './cli-error.js';
export type { CliContext, CliIo } from './context.js';
export { createContext } from './context.js';
export type {
  CrawledOrigin,
  CrawledPage,
  CrawlProgress,
  CrawlReport,
  PageOutcome,
  SkippedLink,
  SkipReason,
} from './crawl/crawl-report.js';
export type { CrawlSiteOptions } from './crawl/crawler.js';
export { crawlSite } from './crawl/crawler.js';
export type { ExtractedLink, ExtractLinksOptions } from './crawl/extract-links.js';
export { extractLinks } from './crawl/extract-links.js';
export { CLI_DEFAULTS } from './defaults.js';
export type { DemoRequest, DemoSite } from './demo/demo-site.js';
export { startDemoSite } from './demo/demo-site.js';
export type { ExitCodeValue } from './exit-codes.js';
export { ExitCode } from './exit-codes.js';
export type { CheckJson } from './output/format-check.js';
export type { CrawlJson } from './output/format-crawl.js';
export type { ExplainJson } from './output/format-explain.js';
export type {
  DirectivesJson,
  FetchedJson,
  FetchJson,
  UsageJson,
  UsageSourceJson,
} from './output/format-fetch.js';
export type { LintDiagnosticJson, LintJson } from './output/format-lint.js';
export type { AgentJson } from './output/agent-json.js';
export type { OutputStream, Style } from './output/style.js';
export { createStyle, wantsColor } from './output/style.js';
export { createProgram } from './program.js';
export type { RobotsTxtInfo } from './robots-source.js';
export { run } from './run.js';
export type {
  DeniedInfo,
  RuleInfo,
  SourceLine,
  UrlVerdict,
  UrlVerdictReason,
} from './output/verdict-json.js';
