import { Tokenizer } from 'htmlparser2';
import { SCRIPT_END_TAG_LENGTH, ScriptDataTracker } from './script-data-states.js';

/**
 * The parts of htmlparser2's tokenizer (10.1) this file relies on: the state handler for the
 * text of `<script>`, `<style>`, `<title>`…, the end tag it is looking for, and how much of
 * that end tag it has matched. They are private in its types, so they are named here.
 */
interface TokenizerInternals {
  stateInSpecialTag(c: number): void;
  currentSequence: Uint8Array;
  sequenceIndex: number;
}

const original = (Tokenizer.prototype as unknown as Partial<TokenizerInternals>).stateInSpecialTag;
if (typeof original !== 'function') {
  // Never a silently different verdict: a changed htmlparser2 fails here, loudly.
  throw new Error(
    '@polite-crawler/robots-tag: this htmlparser2 has no Tokenizer.stateInSpecialTag (10.1 is supported)',
  );
}

const SLASH = 0x2f;
const SPACE = 0x20;

/** Whether the end tag sought is `</script` (the only special end tag of its length). */
function seeksScriptEnd(sequence: Uint8Array): boolean {
  return sequence.length === SCRIPT_END_TAG_LENGTH && sequence[2] === 0x73 && sequence[3] === 0x63;
}

/**
 * htmlparser2's tokenizer, except that the text of `<script>`, `<style>` and `<title>` ends
 * where the HTML standard ends it:
 * - `</script>` inside a double escaped part (`<!-- … <script> … </script> … -->`) does not end
 *   a script (see `script-data-states.ts`);
 * - `</script/>`, `</style/>`, `</title/>` do end their element (htmlparser2 only takes a space
 *   or `>` after the name; it is given a space for the `/`, then skips to the `>` as browsers do).
 *
 * Everything else is htmlparser2's own.
 * @example
 * new Parser(handler, { Tokenizer: TextEndTokenizer });
 */
export class TextEndTokenizer extends Tokenizer {
  readonly #script = new ScriptDataTracker();

  /** Takes the place of htmlparser2's `stateInSpecialTag` (assigned below). */
  inSpecialTag(c: number): void {
    const internals = this as unknown as TokenizerInternals;
    const sequence = internals.currentSequence;
    if (!seeksScriptEnd(sequence)) {
      const afterName = internals.sequenceIndex === sequence.length;
      original!.call(this, afterName && c === SLASH ? SPACE : c);
      return;
    }
    if (this.#script.step(c)) {
      // `c` ends a `</script` that ends the element: htmlparser2 emits the text and the end tag.
      internals.sequenceIndex = SCRIPT_END_TAG_LENGTH;
      original!.call(this, c === SLASH ? SPACE : c);
      return;
    }
    // Kept as htmlparser2 keeps it, so that it holds back a partial end tag at the end of a
    // write instead of reporting it as text.
    internals.sequenceIndex = this.#script.endTagProgress;
  }
}

// htmlparser2's parse loop calls each state's handler as a method: this one replaces it.
(TextEndTokenizer.prototype as unknown as TokenizerInternals).stateInSpecialTag =
  // eslint-disable-next-line @typescript-eslint/unbound-method
  TextEndTokenizer.prototype.inSpecialTag;
