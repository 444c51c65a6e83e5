import type { ContentUsageVerdict, UsagePreferences } from './content-usage-types.js';
import type { DIAGNOSTIC_SEVERITY } from './diagnostics.js';

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

/**
 * Options of `parseRobotsTxt`.
 * @example
 * parseRobotsTxt(body, { maxBytes: 1_048_576, maxDiagnostics: 100 });
 */
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

/**
 * `error`: the line has no effect as written; `warning`: accepted but non-standard;
 * `info`: harmless.
 * @example
 * robots.diagnostics.filter((d) => d.severity === 'error');
 */
export type DiagnosticSeverity = 'error' | 'warning' | 'info';

/**
 * Every diagnostic code the parser can emit; each is documented in the package README.
 * @example
 * robots.diagnostics.some((d) => d.code === 'input-truncated');
 */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_SEVERITY;

/**
 * One problem found in the file, with its line.
 * @example
 * { line: 3, code: 'accepted-typo', severity: 'warning', message: '"disalow → disallow": a misspelling, read as intended.' }
 */
export interface Diagnostic {
  /** 1-based line number in the source. */
  readonly line: number;
  readonly code: DiagnosticCode;
  readonly severity: DiagnosticSeverity;
  readonly message: string;
}

/**
 * How the group(s) applying to an agent were chosen (product > purpose > `*` > none).
 * @example
 * robots.forAgent('ExampleBot').selection; // 'global' when only `User-agent: *` applies
 */
export type GroupSelection = 'product' | 'purpose' | 'global' | 'none';

/**
 * The rule that decided a verdict.
 * @example
 * { kind: 'disallow', pattern: '/caf%c3%a9', normalizedPattern: '/caf%C3%A9', line: 4, text: 'Disallow: /caf%c3%a9' }
 */
export interface MatchedRule {
  readonly kind: 'allow' | 'disallow';
  /** The pattern as written in the file (after trimming). */
  readonly pattern: string;
  /** The normalised pattern that was matched (percent-encoding normalised). */
  readonly normalizedPattern: string;
  /** 1-based line number of the rule. */
  readonly line: number;
  /**
   * The rule's line as the parser read it: `Allow: ` or `Disallow: ` and the pattern as written
   * (the key in its standard spelling, spacing and any comment dropped), e.g. `Disallow: /private/`.
   */
  readonly text: string;
}

/**
 * Why a verdict is what it is.
 * @example
 * robots.explain('https://example.com/robots.txt', 'ExampleBot').reason; // 'robots-txt-path'
 */
export type VerdictReason =
  | 'rule' // a rule matched and decided
  | 'match-budget' // a disallow whose match the budget left undecided counted as matching (fail closed)
  | 'no-matching-rule' // groups applied but no rule matched: allowed
  | 'no-applicable-group' // no group for this agent, nor a `*` group: allowed
  | 'robots-txt-path'; // `/robots.txt` itself is always allowed

/**
 * A decision and everything needed to explain it.
 * @example
 * const v = robots.explain('https://example.com/private/x', 'ExampleBot');
 * if (!v.allowed) console.log(`blocked by line ${v.rule?.line}: ${v.rule?.pattern}`);
 */
export interface Verdict {
  readonly allowed: boolean;
  readonly reason: VerdictReason;
  readonly selection: GroupSelection;
  /**
   * The chosen groups, in file order: per group, the line numbers of its `user-agent` /
   * `user-agent-purpose` lines. `groups.length` is the number of groups merged.
   */
  readonly groups: readonly (readonly number[])[];
  /** The line numbers of the `user-agent` / `user-agent-purpose` lines of the chosen groups. */
  readonly groupLines: readonly number[];
  /**
   * The text of each of `groupLines`, in the same order, as the parser read it: the key in its
   * standard spelling and the token as written, e.g. `User-agent: ExampleBot` for
   * `user-agent: ExampleBot/2.1`.
   */
  readonly groupLineTexts: readonly string[];
  /** The deciding rule, when `reason` is `'rule'`. */
  readonly rule?: MatchedRule;
  /** The normalised path + params + query that was matched. */
  readonly path: string;
}

/**
 * The rules for one agent, selected and compiled once: the fast path for repeated checks.
 * `selection`, `groups` and `groupLines` are those of its verdicts.
 * @example
 * const rules = robots.forAgent('ExampleBot');
 * const allowed = urls.filter((url) => rules.isAllowed(url));
 */
export interface AgentRules extends Pick<Verdict, 'selection' | 'groups' | 'groupLines'> {
  /** Crawl-delay in seconds for this agent's groups, if any group set a valid one. */
  readonly crawlDelay: number | undefined;
  /** `url`: an absolute URL or a path starting with `/`. */
  isAllowed(url: string | URL): boolean;
  explain(url: string | URL): Verdict;
  /** {@link RobotsTxt.contentUsage} for this agent. */
  contentUsage(url: string | URL): UsagePreferences;
  /** {@link RobotsTxt.explainContentUsage} for this agent. */
  explainContentUsage(url: string | URL): ContentUsageVerdict;
}

/**
 * A parsed robots.txt file; created by `parseRobotsTxt`, immutable.
 * @example
 * const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
 * robots.isAllowed('https://example.com/private/a', 'ExampleBot'); // false
 */
export interface RobotsTxt {
  /** `url`: an absolute URL or a path starting with `/`. Throws {@link RobotsTxtUsageError} on a bad agent or URL. */
  isAllowed(url: string | URL, agent: Agent): boolean;
  explain(url: string | URL, agent: Agent): Verdict;
  forAgent(agent: Agent): AgentRules;
  crawlDelay(agent: Agent): number | undefined;
  /**
   * The AI usage preferences that the file's `Content-Usage` and `Content-Signal` rules state
   * for `url`, in the groups chosen for `agent` as for Allow/Disallow (all `unknown` for a
   * path those groups disallow). Throws {@link RobotsTxtUsageError} as `isAllowed` does.
   */
  contentUsage(url: string | URL, agent: Agent): UsagePreferences;
  /** {@link contentUsage} with the deciding rules, the groups and the crawl verdict. */
  explainContentUsage(url: string | URL, agent: Agent): ContentUsageVerdict;
  readonly sitemaps: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  /** Bytes parsed (after the limit) and whether the input was cut at the limit. */
  readonly parsedBytes: number;
  readonly truncated: boolean;
}
