import { USAGE_CATEGORIES, type UsageCategory } from '@polite-crawler/robots-txt';
import type { Style } from './style.js';

/** A preference as the CLI prints it. */
type Preference = 'allowed' | 'disallowed' | 'unknown';

/**
 * The `Usage` block's lines for the vocabulary's categories, shared by `explain` and
 * `fetch`: each preference painted, with the first statement that set it in brackets and any
 * others on lines of their own. `labelWidth` is the command's label column.
 * @example
 * categoryLines({ 'train-ai': 'disallowed', 'ai-use': 'unknown', search: 'unknown' }, (c) => (c === 'train-ai' ? ['line 3'] : []), style, 12);
 * // ['Usage       train-ai: disallowed (line 3)', '            ai-use: unknown', '            search: unknown']
 */
export function categoryLines(
  preferences: Readonly<Record<UsageCategory, Preference>>,
  setBy: (category: UsageCategory) => readonly string[],
  style: Style,
  labelWidth: number,
): string[] {
  const cont = ' '.repeat(labelWidth);
  const lines: string[] = [];
  for (const category of USAGE_CATEGORIES) {
    const preference = preferences[category];
    const paint =
      preference === 'allowed' ? style.green : preference === 'disallowed' ? style.red : style.dim;
    const from = setBy(category);
    const head = `${lines.length === 0 ? 'Usage'.padEnd(labelWidth) : cont}${category}: ${paint(preference)}`;
    lines.push(from.length === 0 ? head : `${head} (${from[0]})`);
    for (const more of from.slice(1)) lines.push(`${cont}  ${style.dim(`and ${more}`)}`);
  }
  return lines;
}
