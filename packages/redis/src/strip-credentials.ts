import type { StoredRobots } from '@polite-crawler/fetch';

/** `url` without its `user:password@` (unchanged when it has none or is not a URL). */
export function urlWithoutCredentials(url: string): string {
  if (!url.includes('@')) return url;
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url.replace(/\/\/[^/@\s]*@/, '//');
  }
}

/**
 * The entry as it may be shared through Redis: the robots.txt redirects it followed without
 * their credentials (a `user:pass@` in a Location header is a secret of that origin's owner,
 * not something to copy into a store every process of the fleet reads).
 */
export function entryWithoutCredentials(entry: StoredRobots): StoredRobots {
  const clean = (redirects: readonly string[]): string[] => redirects.map(urlWithoutCredentials);
  return {
    ...entry,
    latest: { ...entry.latest, redirects: clean(entry.latest.redirects) },
    ...(entry.good === undefined
      ? {}
      : { good: { ...entry.good, redirects: clean(entry.good.redirects) } }),
  };
}
