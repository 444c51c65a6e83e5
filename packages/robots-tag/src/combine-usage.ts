import type {
  UsageCategory,
  UsagePreference,
  UsagePreferences,
  UsageSource,
} from './content-usage-types.js';

const NONE: readonly never[] = Object.freeze([]);

/** Every category `unknown`, no sources, no labels: no statement at all. */
export const UNKNOWN_USAGE: UsagePreferences = Object.freeze({
  'train-ai': 'unknown',
  search: 'unknown',
  sources: Object.freeze({ 'train-ai': NONE, search: NONE }),
  extensions: NONE,
});

function combineCategory(
  statements: readonly UsagePreferences[],
  category: UsageCategory,
): [UsagePreference, readonly UsageSource[]] {
  for (const result of ['disallowed', 'allowed'] as const) {
    const sources: UsageSource[] = [];
    let any = false;
    for (const s of statements) {
      if (s[category] !== result) continue;
      any = true;
      sources.push(...s.sources[category]);
    }
    if (any) return [result, Object.freeze(sources)];
  }
  return ['unknown', NONE];
}

/**
 * Combines statements of preference as vocab §5.1 says, for each category: if any says
 * `disallowed`, `disallowed`; else if any says `allowed`, `allowed`; else `unknown`. The
 * most restrictive wins, whatever the order. `sources` of the result are those of the
 * statements that gave it; extension labels are concatenated in argument order. No argument:
 * everything `unknown`.
 *
 * This is how a robots.txt rule and a response's `Content-Usage` field are combined. It is
 * not how the field's own lines are combined: those are joined into one Dictionary first
 * (RFC 9651 §4.2), where a later duplicate key wins (see {@link parseContentUsage}).
 *
 * @example
 * ```ts
 * const usage = combineUsage(robots.contentUsage(url, 'ExampleBot'), parseContentUsage(response.headers));
 * if (usage['train-ai'] === 'disallowed') skipTraining(url);
 * ```
 */
export function combineUsage(...statements: UsagePreferences[]): UsagePreferences {
  if (statements.length === 0) return UNKNOWN_USAGE;
  if (statements.length === 1) return statements[0]!;
  const [train, trainSources] = combineCategory(statements, 'train-ai');
  const [search, searchSources] = combineCategory(statements, 'search');
  const extensions = statements.flatMap((s) => s.extensions);
  return Object.freeze({
    'train-ai': train,
    search,
    sources: Object.freeze({ 'train-ai': trainSources, search: searchSources }),
    extensions: extensions.length === 0 ? NONE : Object.freeze(extensions),
  });
}
