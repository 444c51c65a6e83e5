import { ROBOTS_TAG_DEFAULTS } from './defaults.js';
import { checkOptionsObject, positiveIntegerOption } from './errors.js';
import { collectFieldLines } from './header-input.js';
import { parseFieldValue } from './parse-field.js';
import type { FieldSink } from './parse-field.js';
import type { HeaderParseOptions, RobotsTagHeaderInput, RobotsTagRules } from './types.js';

/**
 * Reads `robots-tag` / `x-robots-tag` field lines into rules, each line on its own: the
 * draft's structured form (`*;noindex;nosnippet, ExampleBot;`, `;noindex`, the List form
 * `*;nosnippet, ExampleBot;noindex`) and the legacy forms servers send (`noindex, nofollow`,
 * `googlebot: noindex`, `max-snippet: 20`, `unavailable_after: <date with commas>`). Never
 * throws on header content; problems become diagnostics. Throws {@link RobotsTagUsageError}
 * only for an input or option of the wrong type.
 *
 * Input: field values (`string` / `string[]`), a fetch `Headers` (both names are read; note
 * that `Headers` joins repeated lines with `, `, so a raw list of lines is more exact),
 * `[name, value]` / `{ name, value }` entries (undici raw headers via {@link rawHeaderPairs},
 * Playwright's `headersArray()`), or a Node-style header record.
 *
 * @example
 * ```ts
 * const rules = parseRobotsTagHeaders(['googlebot: noindex, nofollow', '*;nosnippet']);
 * directivesFor(rules, 'Googlebot').noindex; // true
 * parseRobotsTagHeaders(response.headers); // a fetch Response
 * parseRobotsTagHeaders(await playwrightResponse.headersArray());
 * ```
 */
export function parseRobotsTagHeaders(
  fieldLines: RobotsTagHeaderInput,
  options?: HeaderParseOptions,
): RobotsTagRules {
  const maxChars = resolveMaxFieldBytes(options);
  const lines = collectFieldLines(fieldLines);
  const sink: FieldSink = { rules: [], diagnostics: [] };
  lines.forEach((line, index) => {
    parseFieldValue(
      line.value,
      {
        source: 'header',
        field: line.field,
        line: index + 1,
        token: '*',
        maxChars,
        knownOnly: false,
      },
      sink,
    );
  });
  return Object.freeze({
    rules: Object.freeze(sink.rules),
    diagnostics: Object.freeze(sink.diagnostics),
  });
}

function resolveMaxFieldBytes(options: HeaderParseOptions | undefined): number {
  checkOptionsObject(options);
  const value = options?.maxFieldBytes;
  if (value === undefined) return ROBOTS_TAG_DEFAULTS.maxFieldBytes;
  return Math.max(positiveIntegerOption('maxFieldBytes', value), ROBOTS_TAG_DEFAULTS.minFieldBytes);
}
