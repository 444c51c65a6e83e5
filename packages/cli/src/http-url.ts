import { CliError } from './cli-error.js';

/**
 * Parses a command-line argument as an absolute http(s) URL, or fails with a usage error
 * (exit code 2) that names the argument.
 *
 * @example
 * ```ts
 * parseHttpUrl('http://127.0.0.1:8080/a', 'URL'); // URL { href: 'http://127.0.0.1:8080/a' }
 * ```
 */
export function parseHttpUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw CliError.usage(`invalid ${what} ${JSON.stringify(value)}`, 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw CliError.usage(
      `invalid ${what} ${JSON.stringify(value)}`,
      'only http and https URLs are supported',
    );
  }
  return url;
}

/**
 * Whether a command-line argument names a URL rather than a file.
 *
 * @example
 * ```ts
 * looksLikeUrl('https://example.com/robots.txt'); // true
 * looksLikeUrl('./robots.txt'); // false
 * ```
 */
export function looksLikeUrl(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
}
