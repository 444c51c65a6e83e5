/**
 * Public types of @polite-crawler/robots-txt. This file is the contract the other packages
 * build on: add fields freely, never remove or rename one.
 */

/**
 * Who is asking. A bare string is the crawler's product token (`ExampleBot`); the object
 * form adds the crawler's purpose token for the `user-agent-purpose` extension.
 * @example 'ExampleBot'
 * @example { productToken: 'ExampleBot', purpose: 'search' }
 */
export type Agent = string | { readonly productToken: string; readonly purpose?: string };

/** Options of {@link parseRobotsTxt}. */
export interface ParseOptions {
  /**
   * Bytes of the body that are parsed; the rest is ignored and reported as a diagnostic.
   * Values below 500 KiB are raised to 500 KiB (RFC 9309 §2.5 asks for at least that).
   * @default 512000
   */
  readonly maxBytes?: number;
  /**
   * Diagnostics kept; past it one `too-many-diagnostics` diagnostic ends the list.
   * @default 1000
   */
  readonly maxDiagnostics?: number;
  /**
   * Agents whose compiled rules are cached inside the parsed object (oldest dropped first).
   * Values below 1 are raised to 1.
   * @default 16
   */
  readonly maxCachedAgents?: number;
}

export type DiagnosticSeverity = 'error' | 'warning' | 'info';

/** Every diagnostic code the parser can emit; each is documented in the package README. */
export type DiagnosticCode =
  | 'unknown-key'
  | 'rule-outside-group'
  | 'accepted-typo'
  | 'missing-colon'
  | 'invalid-product-token'
  | 'invalid-purpose-token'
  | 'empty-value'
  | 'invalid-crawl-delay'
  | 'invalid-sitemap-url'
  | 'pattern-not-starting-with-slash'
  | 'line-too-long'
  | 'input-truncated'
  | 'invalid-utf8'
  | 'byte-order-mark'
  | 'unparseable-line'
  | 'too-many-diagnostics';

export interface Diagnostic {
  /** 1-based line number in the source. */
  readonly line: number;
  readonly code: DiagnosticCode;
  readonly severity: DiagnosticSeverity;
  readonly message: string;
}

/** How the group(s) applying to an agent were chosen (product > purpose > `*` > none). */
export type GroupSelection = 'product' | 'purpose' | 'global' | 'none';

export interface MatchedRule {
  readonly kind: 'allow' | 'disallow';
  /** The pattern as written in the file (after trimming). */
  readonly pattern: string;
  /** The normalised pattern that was matched (percent-encoding normalised). */
  readonly normalizedPattern: string;
  /** 1-based line number of the rule. */
  readonly line: number;
}

/** Why a verdict is what it is. */
export type VerdictReason =
  | 'rule' // a rule matched and decided
  | 'no-matching-rule' // groups applied but no rule matched: allowed
  | 'no-applicable-group' // no group for this agent, nor a `*` group: allowed
  | 'robots-txt-path'; // `/robots.txt` itself is always allowed

export interface Verdict {
  readonly allowed: boolean;
  readonly reason: VerdictReason;
  readonly selection: GroupSelection;
  /** The line numbers of the `user-agent` / `user-agent-purpose` lines of the chosen groups. */
  readonly groupLines: readonly number[];
  /** The deciding rule, when `reason` is `'rule'`. */
  readonly rule?: MatchedRule;
  /** The normalised path + params + query that was matched. */
  readonly path: string;
}

/** The rules for one agent, selected and compiled once: the fast path for repeated checks. */
export interface AgentRules {
  readonly selection: GroupSelection;
  readonly groupLines: readonly number[];
  /** Crawl-delay in seconds for this agent's groups, if any group set a valid one. */
  readonly crawlDelay: number | undefined;
  /** `url`: an absolute URL or a path starting with `/`. */
  isAllowed(url: string | URL): boolean;
  explain(url: string | URL): Verdict;
}

export interface RobotsTxt {
  /** `url`: an absolute URL or a path starting with `/`. Throws {@link RobotsTxtUsageError} on a bad agent or URL. */
  isAllowed(url: string | URL, agent: Agent): boolean;
  explain(url: string | URL, agent: Agent): Verdict;
  forAgent(agent: Agent): AgentRules;
  crawlDelay(agent: Agent): number | undefined;
  readonly sitemaps: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  /** Bytes parsed (after the limit) and whether the input was cut at the limit. */
  readonly parsedBytes: number;
  readonly truncated: boolean;
}
