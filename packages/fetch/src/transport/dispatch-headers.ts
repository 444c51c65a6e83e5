import type { Dispatcher } from 'undici';

/** Request headers as one object, the shape an interceptor hands on to undici. */
export type HeaderRecord = Record<string, string | string[]>;

/**
 * `headers`, in any shape undici's dispatch takes (an object, a flat `[name, value, …]` list or
 * an iterable of pairs), as one object, leaving out the fields `drop` names (lower-case names).
 * Used by the interceptors that replace a field: the polite one (`user-agent`) and the signer
 * (the signature fields).
 * @example
 * headerRecord(['Accept', 'text/html', 'User-Agent', 'x'], new Set(['user-agent'])); // { Accept: 'text/html' }
 */
export function headerRecord(
  headers: Dispatcher.DispatchOptions['headers'],
  drop: ReadonlySet<string>,
): HeaderRecord {
  const out: HeaderRecord = {};
  if (headers === undefined || headers === null) return out;
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null || drop.has(name.toLowerCase())) return;
    // Header values are strings (or lists of them) by undici's types; numbers are allowed too.
    const text = Array.isArray(value)
      ? value.map((item) => `${item as string}`)
      : `${value as string}`;
    const seen = out[name];
    out[name] = seen === undefined ? text : [seen, text].flat();
  };
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), headers[i + 1]);
  } else {
    const entries = Symbol.iterator in headers ? headers : Object.entries(headers);
    for (const [name, value] of entries as Iterable<[string, unknown]>) add(name, value);
  }
  return out;
}
