/**
 * The crawler best practices (draft-illyes-webbotauth-cbcp §2.2) ask a crawler's `User-Agent`
 * to carry a unique identifier and a URL that describes the crawler. A `userAgent` without an
 * `http(s)://` URL still works (robots.txt needs only the product token); the process is told
 * once, with a warning code of its own that `--disable-warning` or a `process.on('warning')`
 * handler can pick out.
 */

/**
 * The code of the warning a `userAgent` without an `http(s)://` URL raises (once per process).
 * @example
 * process.on('warning', (w) => { if ((w as { code?: string }).code === UA_NO_URL_WARNING) log(w.message); });
 */
export const UA_NO_URL_WARNING = 'POLITE_CRAWLER_UA_NO_URL';

const URL_IN_TEXT = /\bhttps?:\/\/[^\s;()]+/i;

let warned = false;

/**
 * Whether `userAgent` carries an `http(s)://` URL (the crawler's description page).
 * @example
 * hasDescriptionUrl('ExampleBot/1.0 (+https://example.com/bot)'); // true
 */
export function hasDescriptionUrl(userAgent: string): boolean {
  return URL_IN_TEXT.test(userAgent);
}

/**
 * Emits the {@link UA_NO_URL_WARNING} process warning the first time a policy is made with a
 * `userAgent` that carries no `http(s)://` URL; later ones stay quiet.
 * @example
 * warnIfUnidentifiable('ExampleBot/1.0'); // one warning per process
 */
export function warnIfUnidentifiable(userAgent: string): void {
  if (warned || hasDescriptionUrl(userAgent)) return;
  warned = true;
  process.emitWarning(
    `userAgent "${userAgent}" has no http(s):// URL: crawlers should be identifiable by a URL that describes them, e.g. "ExampleBot/1.0 (+https://example.com/bot)"`,
    { type: 'PoliteCrawlerWarning', code: UA_NO_URL_WARNING },
  );
}
