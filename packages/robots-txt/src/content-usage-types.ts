/**
 * Public types of AI usage preferences (draft-ietf-aipref-vocab-08, -attach-05, and
 * Cloudflare's `Content-Signal`), for robots.txt rules and the `Content-Usage` field alike.
 * This package is their only owner. Add fields freely, never remove or rename one.
 */
import type { MatchedRule, Verdict } from './types.js';

/**
 * The outcome for one category of use (vocab §3): a statement allowed it, disallowed it, or
 * said nothing usable about it.
 * @example 'disallowed'
 */
export type UsagePreference = 'allowed' | 'disallowed' | 'unknown';

/**
 * The categories of the vocabulary (vocab-08 §4, labels §6.1), in the draft's order:
 * AI Training, AI Use (new in -08: input to a generative model, not provided by the user,
 * e.g. retrieval-augmented generation) and Search. Each gets its own value; that Search
 * "overrides" the others (vocab-08 §4) decides which category governs a use, and changes no
 * value.
 * @example
 * for (const category of USAGE_CATEGORIES) console.log(category, usage[category]);
 */
export const USAGE_CATEGORIES = Object.freeze(['train-ai', 'ai-use', 'search'] as const);

/**
 * One category of the vocabulary (see {@link USAGE_CATEGORIES}).
 * @example 'ai-use'
 */
export type UsageCategory = (typeof USAGE_CATEGORIES)[number];

/**
 * Where a preference (or a raw label) came from: a robots.txt rule (its line, its path pattern
 * as written, `''` when the rule has none, and the line's text as {@link UsageRule}'s `text`),
 * or the `Content-Usage` response field.
 * @example { kind: 'content-usage-rule', line: 4, pattern: '/ai-ok/', text: 'Content-Usage: /ai-ok/ train-ai=y' }
 * @example { kind: 'content-usage-field' }
 */
export type UsageSource =
  | {
      readonly kind: 'content-usage-rule' | 'content-signal-rule';
      readonly line: number;
      readonly pattern: string;
      readonly text: string;
    }
  | { readonly kind: 'content-usage-field' };

/**
 * A label the vocabulary does not define (an extension label of a `Content-Usage` value, or a
 * `Content-Signal` key other than `ai-train` / `ai-input` / `search`), kept raw: no meaning is
 * given to it (vocab §6.4 says unknown labels MUST be ignored when obtaining preferences;
 * they are exposed here, not applied).
 * @example { label: 'genai', value: 'n', source: { kind: 'content-usage-field' } }
 */
export interface UsageLabel {
  /** The dictionary key (always lower case: upper case fails the parse). */
  readonly label: string;
  /**
   * The member's value in its canonical form (RFC 9651 §4.1), its parameters dropped: a
   * Token's text (`y`, `yes`), `?1` for a key without a value, `1.5` for `1.50`, `7` for
   * `007`, `(a b)` for `(a  b)` (an Inner List keeps its items' parameters).
   */
  readonly value: string;
  readonly source: UsageSource;
}

/**
 * The usage preferences that apply to one asset: one {@link UsagePreference} per category,
 * the statements that decided each, and the labels outside the vocabulary.
 * @example
 * robots.contentUsage('https://example.com/a', 'ExampleBot')['train-ai']; // 'disallowed'
 */
export interface UsagePreferences {
  readonly 'train-ai': UsagePreference;
  readonly 'ai-use': UsagePreference;
  readonly search: UsagePreference;
  /**
   * For each category, the statements whose preference is the result (every statement that
   * said `disallowed` when the result is `disallowed`, and so on); empty when `unknown`.
   */
  readonly sources: { readonly [Category in UsageCategory]: readonly UsageSource[] };
  /** Labels outside the vocabulary, in statement order, raw. */
  readonly extensions: readonly UsageLabel[];
}

/**
 * A `Content-Usage` or `Content-Signal` rule of robots.txt, with the fields of a
 * {@link MatchedRule}: `pattern` is the rule's path as written (`''` when it has none: it then
 * matches every path), the length of `normalizedPattern` is the rule's specificity, and `text`
 * is the line as read: `Content-Usage: ` or `Content-Signal: ` and the value as written (path,
 * the whitespace after it, statement), spacing around the key and any comment dropped.
 * @example { kind: 'content-usage', pattern: '/ai-ok/', normalizedPattern: '/ai-ok/', value: 'train-ai=y', line: 5, text: 'Content-Usage: /ai-ok/ train-ai=y' }
 */
export interface UsageRule extends Omit<MatchedRule, 'kind'> {
  readonly kind: 'content-usage' | 'content-signal';
  /** The statement of preference as written (after the path and its whitespace). */
  readonly value: string;
}

/**
 * Why a {@link ContentUsageVerdict} is what it is.
 * - `rule`: the rules in `rules` decided (all with the longest matching path).
 * - `no-matching-rule`: the groups for the agent have no usage rule for this path.
 * - `path-disallowed`: the groups disallow the path; no preferences apply (attach §3.1).
 * - `no-applicable-group`: no group for the agent, nor a `*` group.
 * @example 'path-disallowed'
 */
export type ContentUsageReason =
  'rule' | 'no-matching-rule' | 'path-disallowed' | 'no-applicable-group';

/**
 * The preferences for a URL and everything needed to explain them; `selection`, `groups`,
 * `groupLines` and `path` are those of the URL's Allow/Disallow verdict (`explain()`).
 * @example
 * const v = robots.explainContentUsage('https://example.com/ai-ok/x', 'ExampleBot');
 * v.rules.map((r) => r.line); // [5]
 */
export interface ContentUsageVerdict extends Pick<
  Verdict,
  'selection' | 'groups' | 'groupLines' | 'path'
> {
  readonly preferences: UsagePreferences;
  readonly reason: ContentUsageReason;
  /** Whether the chosen groups allow crawling the path (the `explain()` verdict's `allowed`). */
  readonly crawlAllowed: boolean;
  /** The deciding rules: every matching rule with the longest path, in file order. */
  readonly rules: readonly UsageRule[];
}
