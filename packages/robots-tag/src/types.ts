/**
 * Public types of @polite-crawler/robots-tag. This file is the contract the other packages
 * build on: add fields freely, never remove or rename one.
 */

/** Where a rule was found. */
export type RuleSource = 'header' | 'meta';
/** Which grammar read it: the draft's structured-field form, or the legacy comma/colon form. */
export type RuleSyntax = 'structured' | 'legacy';

export interface RobotsTagRule {
  /** Lower-cased product token the rule is for; `'*'` for everyone (also `robots` metas). */
  readonly token: string;
  /** Lower-cased rule name, e.g. `noindex`, `max-snippet`, `unavailable_after`. */
  readonly name: string;
  /** The rule's value, when it has one (`max-snippet: 20` → `'20'`). */
  readonly value?: string;
  readonly source: RuleSource;
  readonly syntax: RuleSyntax;
  /** Whether the rule name is one this package knows; unknown rules carry no meaning. */
  readonly known: boolean;
}

export interface RobotsTagDiagnostic {
  readonly code: 'field-truncated' | 'scan-byte-cap' | 'invalid-value' | 'unparseable-member';
  readonly message: string;
}

/** All rules read from headers or metas, for every token. */
export interface RobotsTagRules {
  readonly rules: readonly RobotsTagRule[];
  readonly diagnostics: readonly RobotsTagDiagnostic[];
}

export type ImagePreviewSize = 'none' | 'standard' | 'large';

/** What one crawler may do with a page: rules for its token and for everyone, united. */
export interface RobotsDirectives {
  readonly noindex: boolean;
  readonly nofollow: boolean;
  readonly nosnippet: boolean;
  readonly noarchive: boolean;
  readonly noimageindex: boolean;
  readonly notranslate: boolean;
  readonly indexIfEmbedded: boolean;
  /** Characters; 0 = no snippet, -1 = no limit. Undefined when not set. */
  readonly maxSnippet?: number;
  readonly maxImagePreview?: ImagePreviewSize;
  /** Seconds; 0 = static image only, -1 = no limit. */
  readonly maxVideoPreview?: number;
  readonly unavailableAfter?: Date;
  /** The rules that applied to this crawler, with where each came from. */
  readonly rules: readonly RobotsTagRule[];
}
