import { USAGE_CATEGORIES, type UsageCategory } from '@polite-crawler/robots-txt';
import { RobotsInvalidOptionError } from '../errors/errors.js';
import { oneOfOption } from './validate-option.js';

/**
 * The `usage` option: an object whose keys are vocabulary categories and whose values are
 * `'annotate'` or `'reject'`; the categories to reject. An unknown category is refused (a typo
 * would otherwise silently annotate only).
 * @example
 * usageOption({ 'train-ai': 'reject' }); // ['train-ai']
 */
export function usageOption(value: unknown): readonly UsageCategory[] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RobotsInvalidOptionError(
      'usage',
      value,
      "an object such as { 'train-ai': 'reject' }",
    );
  }
  const rejected: UsageCategory[] = [];
  for (const [key, action] of Object.entries(value)) {
    if (!(USAGE_CATEGORIES as readonly string[]).includes(key)) {
      throw new RobotsInvalidOptionError(
        'usage',
        value,
        `categories ${USAGE_CATEGORIES.map((c) => `'${c}'`).join(', ')} only (not '${key}')`,
      );
    }
    if (oneOfOption(`usage.${key}`, action, ['annotate', 'reject'], 'annotate') === 'reject') {
      rejected.push(key as UsageCategory);
    }
  }
  return Object.freeze(rejected);
}
