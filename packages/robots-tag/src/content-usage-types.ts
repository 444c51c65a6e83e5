/**
 * Public types of AI usage preferences (draft-ietf-aipref-vocab-07, -attach-05, and
 * Cloudflare's `Content-Signal`). Structurally identical to the types of the same names in
 * @polite-crawler/robots-txt (a type test checks both directions): the two pure packages do
 * not depend on each other, and a value of one is a value of the other. Change both or
 * neither.
 */

/**
 * The outcome for one category of use (vocab §3): a statement allowed it, disallowed it, or
 * said nothing usable about it.
 * @example 'disallowed'
 */
export type UsagePreference = 'allowed' | 'disallowed' | 'unknown';

/**
 * The categories of the vocabulary (vocab §4, labels §6.1).
 * @example 'train-ai'
 */
export type UsageCategory = 'train-ai' | 'search';

/**
 * Where a preference (or a raw label) came from: a robots.txt rule (its line and its path
 * pattern as written, `''` when the rule has none), or the `Content-Usage` response field.
 * @example { kind: 'content-usage-rule', line: 4, pattern: '/ai-ok/' }
 * @example { kind: 'content-usage-field' }
 */
export type UsageSource =
  | {
      readonly kind: 'content-usage-rule' | 'content-signal-rule';
      readonly line: number;
      readonly pattern: string;
    }
  | { readonly kind: 'content-usage-field' };

/**
 * A label the vocabulary does not define (an extension label of a `Content-Usage` value, or a
 * `Content-Signal` key other than `ai-train` / `search`, such as `ai-input`), kept raw: no
 * meaning is given to it (vocab §6.4 says unknown labels MUST be ignored when obtaining
 * preferences; they are exposed here, not applied).
 * @example { label: 'ai-input', value: 'yes', source: { kind: 'content-signal-rule', line: 2, pattern: '' } }
 */
export interface UsageLabel {
  /** The dictionary key (always lower case: upper case fails the parse). */
  readonly label: string;
  /**
   * The member's value, parameters dropped: a Token's text (`y`, `yes`), `?1` for a key
   * without a value. See the README for other types.
   */
  readonly value: string;
  readonly source: UsageSource;
}

/**
 * The usage preferences that apply to one asset: one {@link UsagePreference} per category,
 * the statements that decided each, and the labels outside the vocabulary.
 * @example
 * parseContentUsage('train-ai=n')['train-ai']; // 'disallowed'
 */
export interface UsagePreferences {
  readonly 'train-ai': UsagePreference;
  readonly search: UsagePreference;
  /**
   * For each category, the statements whose preference is the result (every statement that
   * said `disallowed` when the result is `disallowed`, and so on); empty when `unknown`.
   */
  readonly sources: {
    readonly 'train-ai': readonly UsageSource[];
    readonly search: readonly UsageSource[];
  };
  /** Labels outside the vocabulary, in statement order, raw. */
  readonly extensions: readonly UsageLabel[];
}
