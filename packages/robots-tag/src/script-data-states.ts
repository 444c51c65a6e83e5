import { BANG, DASH, GT, LT, SLASH, isAsciiAlpha, isSpace } from './html-chars.js';

/**
 * Where the text of a `<script>` element ends, as the HTML tokenizer decides it (WHATWG HTML
 * §13.2.5.4–§13.2.5.26, the script data states). A `<!--` in a script starts an "escaped" part,
 * and a `<script>` inside that starts a "double escaped" part in which `</script>` does not end
 * the element:
 *
 *     <script><!-- document.write('<script src=x></script>') //--></script>
 *
 * ends at its last `</script>`, not at the one inside the string. htmlparser2 ends it at the
 * first, and the rest (`') //-->`) becomes text that ends the head, hiding the metas after it.
 */

// The states, named after the standard's (`Escaped` = "script data escaped", …).
const DATA = 0;
const LESS_THAN = 1;
const ESCAPE_START = 2;
const ESCAPE_START_DASH = 3;
const END_TAG_NAME = 4;
const ESCAPED = 5;
const ESCAPED_DASH = 6;
const ESCAPED_DASH_DASH = 7;
const ESCAPED_LESS_THAN = 8;
const ESCAPED_END_TAG_NAME = 9;
const DOUBLE_ESCAPE_START = 10;
const DOUBLE_ESCAPED = 11;
const DOUBLE_ESCAPED_DASH = 12;
const DOUBLE_ESCAPED_DASH_DASH = 13;
const DOUBLE_ESCAPED_LESS_THAN = 14;
const DOUBLE_ESCAPE_END = 15;

const SCRIPT = 'script';
/** `</script`: what precedes the character that ends the element. */
export const SCRIPT_END_TAG_LENGTH = 2 + SCRIPT.length;

/**
 * Follows a script's text one character at a time. Tag names are only compared with `script`:
 * `matched` counts the letters of it read so far, or is -1 once a letter differs.
 * @example
 * const tracker = new ScriptDataTracker();
 * [...'<!--<script></script>--></script>'].findIndex((c) => tracker.step(c.charCodeAt(0))); // 32
 */
export class ScriptDataTracker {
  #state = DATA;
  #matched = 0;

  /**
   * Reads `c`; `true` when it is the space, `/` or `>` after a `</script` that ends the element
   * (the tracker is then ready for the next script).
   */
  step(c: number): boolean {
    for (;;) {
      switch (this.#state) {
        case DATA:
          if (c === LT) this.#state = LESS_THAN;
          return false;
        case LESS_THAN:
          if (c === SLASH) return this.#startName(END_TAG_NAME);
          if (c === BANG) {
            this.#state = ESCAPE_START;
            return false;
          }
          this.#state = DATA;
          continue;
        case ESCAPE_START:
        case ESCAPE_START_DASH:
          if (c !== DASH) {
            this.#state = DATA;
            continue;
          }
          this.#state = this.#state === ESCAPE_START ? ESCAPE_START_DASH : ESCAPED_DASH_DASH;
          return false;
        case END_TAG_NAME:
        case ESCAPED_END_TAG_NAME:
          if (isAsciiAlpha(c)) return this.#nameLetter(c);
          if (this.#matched === SCRIPT.length && (c === GT || c === SLASH || isSpace(c))) {
            this.#state = DATA;
            this.#matched = 0;
            return true;
          }
          this.#state = this.#state === END_TAG_NAME ? DATA : ESCAPED;
          continue;
        case ESCAPED:
        case ESCAPED_DASH:
        case ESCAPED_DASH_DASH:
          if (c === LT) this.#state = ESCAPED_LESS_THAN;
          else if (c === DASH)
            this.#state = this.#state === ESCAPED ? ESCAPED_DASH : ESCAPED_DASH_DASH;
          else if (c === GT && this.#state === ESCAPED_DASH_DASH) this.#state = DATA;
          else this.#state = ESCAPED;
          return false;
        case ESCAPED_LESS_THAN:
          if (c === SLASH) return this.#startName(ESCAPED_END_TAG_NAME);
          this.#state = ESCAPED;
          if (isAsciiAlpha(c)) this.#startName(DOUBLE_ESCAPE_START);
          continue;
        case DOUBLE_ESCAPE_START:
        case DOUBLE_ESCAPE_END: {
          if (isAsciiAlpha(c)) return this.#nameLetter(c);
          const starting = this.#state === DOUBLE_ESCAPE_START;
          if (c === GT || c === SLASH || isSpace(c)) {
            // `<script` opens a double escaped part, `</script` closes it.
            const named = this.#matched === SCRIPT.length;
            this.#state = named === starting ? DOUBLE_ESCAPED : ESCAPED;
            return false;
          }
          this.#state = starting ? ESCAPED : DOUBLE_ESCAPED;
          continue;
        }
        case DOUBLE_ESCAPED:
        case DOUBLE_ESCAPED_DASH:
        case DOUBLE_ESCAPED_DASH_DASH:
          if (c === LT) this.#state = DOUBLE_ESCAPED_LESS_THAN;
          else if (c === DASH) {
            this.#state =
              this.#state === DOUBLE_ESCAPED ? DOUBLE_ESCAPED_DASH : DOUBLE_ESCAPED_DASH_DASH;
          } else if (c === GT && this.#state === DOUBLE_ESCAPED_DASH_DASH) this.#state = DATA;
          else this.#state = DOUBLE_ESCAPED;
          return false;
        default:
          // DOUBLE_ESCAPED_LESS_THAN
          if (c === SLASH) return this.#startName(DOUBLE_ESCAPE_END);
          this.#state = DOUBLE_ESCAPED;
          continue;
      }
    }
  }

  /**
   * How many characters of a `</script` that could end the element come last in what was
   * read (0 to {@link SCRIPT_END_TAG_LENGTH}).
   */
  get endTagProgress(): number {
    const state = this.#state;
    if (state === LESS_THAN || state === ESCAPED_LESS_THAN) return 1;
    if ((state === END_TAG_NAME || state === ESCAPED_END_TAG_NAME) && this.#matched >= 0) {
      return 2 + this.#matched;
    }
    return 0;
  }

  #startName(state: number): false {
    this.#state = state;
    this.#matched = 0;
    return false;
  }

  #nameLetter(c: number): false {
    const matched = this.#matched;
    this.#matched =
      matched >= 0 && matched < SCRIPT.length && (c | 0x20) === SCRIPT.charCodeAt(matched)
        ? matched + 1
        : -1;
    return false;
  }
}

/**
 * Where the `</script` that ends a script's text starts, reading `text` from `from` (the first
 * character after `<script …>`); -1 when the text ends first.
 * @example
 * findScriptEnd('<script><!--<script></script>--></script>', 8); // 32
 */
export function findScriptEnd(text: string, from: number): number {
  const tracker = new ScriptDataTracker();
  for (let i = from; i < text.length; i++) {
    if (tracker.step(text.charCodeAt(i))) return i - SCRIPT_END_TAG_LENGTH;
  }
  return -1;
}
