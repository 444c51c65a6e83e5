import type { RequestInit } from 'undici';

/**
 * The members of a Request that a polite fetch hands to undici's fetch as they are, beside those
 * it sets per hop (`method`, `headers`, `body`, `redirect`, `signal`, `dispatcher`). A Request
 * from another copy of undici (the global `Request` is Node's own) is not one undici's fetch
 * accepts as its input, so each member is read and given again: the same request, member for
 * member.
 */
const MEMBERS = [
  'referrer',
  'referrerPolicy',
  'mode',
  'credentials',
  'cache',
  'integrity',
  'keepalive',
] as const;

/** A Request, undici's or the global one (these members are the same). */
type RequestMembers = { readonly [Name in (typeof MEMBERS)[number]]?: unknown };

/**
 * `request`'s members as a RequestInit, to lay `init` over (fetch's own rule: `init` wins). With
 * an init that is not empty, fetch's Request constructor resets the referrer to the client's and
 * the referrer policy to the default, and makes `mode: 'navigate'` `'same-origin'`: so here too.
 * @example
 * const hopInit = { ...requestMembers(request, init), ...init };
 */
export function requestMembers(request: object, init: object): RequestInit {
  const out: Record<string, unknown> = {};
  const reset = Object.keys(init).length > 0;
  for (const name of MEMBERS) {
    if (reset && (name === 'referrer' || name === 'referrerPolicy')) continue;
    const value = (request as RequestMembers)[name];
    if (value !== undefined) out[name] = value;
  }
  if (out.mode === 'navigate') out.mode = 'same-origin';
  return out;
}
