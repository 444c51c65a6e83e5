import type { HeaderInput } from '../policy/robots-policy.js';

type Value = string | readonly string[] | undefined;
type Pairs = Iterable<readonly [string, Value]>;

/**
 * Every field line named `name` (case-insensitive) from any header shape the API accepts:
 * fetch `Headers` (where repeated lines arrive joined by `, `), a `get()`-able object, a plain
 * record of strings or string arrays (undici's raw-header form keeps lines apart), or an
 * iterable of `[name, value]` pairs.
 * @example
 * headerLines({ 'x-robots-tag': ['noindex', 'nofollow'] }, 'x-robots-tag'); // ['noindex', 'nofollow']
 */
export function headerLines(headers: HeaderInput, name: string): string[] {
  const wanted = name.toLowerCase();
  // fetch Headers are iterable too: iterating yields the same joined value as `get()`.
  const iterable = typeof (headers as Partial<Pairs>)[Symbol.iterator] === 'function';
  if (!iterable && typeof (headers as { get?: unknown }).get === 'function') {
    const value = (headers as { get(name: string): string | null }).get(wanted);
    return value === null ? [] : [value];
  }
  const lines: string[] = [];
  const pairs = iterable ? (headers as Pairs) : Object.entries(headers as Record<string, Value>);
  for (const [key, value] of pairs) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    if (typeof value === 'string') lines.push(value);
    else lines.push(...value);
  }
  return lines;
}
