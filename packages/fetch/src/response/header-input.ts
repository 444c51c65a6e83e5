import type { HeaderInput } from '../policy/robots-policy.js';

type Value = string | readonly string[] | undefined;
type Pairs = Iterable<readonly [string, Value]>;

/**
 * The field lines of each of `names` (lower-case) in one walk of `headers`, a name without lines
 * left out. Any header shape the API accepts: fetch `Headers` (where repeated lines arrive joined
 * by `, `), a `get()`-able object, a plain record of strings or string arrays (undici's raw-header
 * form keeps lines apart), or an iterable of `[name, value]` pairs. Names compare
 * case-insensitively.
 * @example
 * headerFields({ 'X-Robots-Tag': ['noindex', 'nofollow'] }, ['x-robots-tag', 'robots-tag']);
 * // { 'x-robots-tag': ['noindex', 'nofollow'] }
 */
export function headerFields<Name extends string>(
  headers: HeaderInput,
  names: readonly Name[],
): Partial<Record<Name, string[]>> {
  const fields: Partial<Record<Name, string[]>> = {};
  // fetch Headers are iterable too: iterating yields the same joined value as `get()`.
  const iterable = typeof (headers as Partial<Pairs>)[Symbol.iterator] === 'function';
  if (!iterable && typeof (headers as { get?: unknown }).get === 'function') {
    for (const name of names) {
      const value = (headers as { get(name: string): string | null }).get(name);
      if (value !== null) fields[name] = [value];
    }
    return fields;
  }
  const add = (key: string, value: Value): void => {
    if (value === undefined) return;
    const name = key.toLowerCase() as Name;
    if (!names.includes(name)) return;
    const lines = (fields[name] ??= []);
    if (typeof value === 'string') lines.push(value);
    else lines.push(...value);
  };
  if (iterable) for (const [key, value] of headers as Pairs) add(key, value);
  // A record is walked by key (no entries array built: the response path reads one per page).
  else
    for (const key in headers)
      if (Object.hasOwn(headers, key)) add(key, (headers as Record<string, Value>)[key]);
  return fields;
}

/**
 * Every field line named `name` (case-insensitive) from any header shape the API accepts
 * ({@link headerFields}).
 * @example
 * headerLines({ 'x-robots-tag': ['noindex', 'nofollow'] }, 'x-robots-tag'); // ['noindex', 'nofollow']
 */
export function headerLines(headers: HeaderInput, name: string): string[] {
  const wanted = name.toLowerCase();
  return headerFields(headers, [wanted])[wanted] ?? [];
}
