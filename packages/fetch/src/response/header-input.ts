import type { HeaderInput } from '../policy/robots-policy.js';

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
  if (typeof (headers as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function') {
    const lines: string[] = [];
    for (const [key, value] of headers as Iterable<readonly [string, string]>) {
      if (key.toLowerCase() === wanted) lines.push(value);
    }
    return lines;
  }
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const value = (headers as { get(name: string): string | null }).get(wanted);
    return value === null ? [] : [value];
  }
  const lines: string[] = [];
  for (const [key, value] of Object.entries(
    headers as Record<string, string | readonly string[] | undefined>,
  )) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    if (typeof value === 'string') lines.push(value);
    else lines.push(...value);
  }
  return lines;
}
