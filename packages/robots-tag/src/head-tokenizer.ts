import { Tokenizer, TokenizerMode } from 'parse5';
import type { Token, TokenHandler } from 'parse5';

type TagToken = Token.TagToken;
type CharacterToken = Token.CharacterToken;
import type { TextContent } from './head-state.js';

/** A start tag's attribute, as the tokenizer reports it (name lower-cased, value decoded). */
export interface HeadAttribute {
  readonly name: string;
  readonly value: string;
}

/** What a {@link HeadTokenizer} reports. Comments and doctypes never matter to a head scan. */
export interface HeadTokenListener {
  /** Returns how the tokenizer reads the element's content, as the tree builder would say. */
  startTag(name: string, attrs: readonly HeadAttribute[]): TextContent | undefined;
  endTag(name: string): void;
  /** A run of character tokens; `blank` when they are all HTML whitespace. */
  characters(blank: boolean): void;
}

/**
 * Text is given to parse5 at once until this many characters have been; after that, in pieces
 * of at least {@link GATHER_RATIO}⁻¹ of what it has had (see {@link HeadTokenizer}).
 */
export const EAGER_CHARS = 512;
/** A write to parse5 is at least 1/GATHER_RATIO of the characters it has had before. */
export const GATHER_RATIO = 8;

const MODES: Readonly<Record<TextContent, Tokenizer['state']>> = {
  rcdata: TokenizerMode.RCDATA,
  rawtext: TokenizerMode.RAWTEXT,
  'script-data': TokenizerMode.SCRIPT_DATA,
  plaintext: TokenizerMode.PLAINTEXT,
};

/**
 * The tokenizing step of a meta scan: parse5's public streaming `Tokenizer` (the HTML
 * standard's tokenizer, so token boundaries are the browsers'), with the listener playing the
 * tree builder's one part in tokenizing: switching the tokenizer's `state` to the text mode of
 * `<script>`, `<style>`, `<title>`… right after their start tag, as parse5's own parser does.
 *
 * Linear for any chunking: parse5 appends each write to the text it holds (up to a token past
 * its own 64 KiB mark) and reads it back whole, so a write costs about what it holds. Text is
 * therefore given to it in pieces of at least an eighth of what it has had (the first
 * {@link EAGER_CHARS} at once): a long token written one byte at a time costs O(its length),
 * not O(length²). Small writes are held until then; {@link flush} hands them on.
 * @example
 * const tokenizer = new HeadTokenizer({ startTag: () => undefined, endTag() {}, characters() {} });
 * tokenizer.write('<head><meta name=robots content=noindex>');
 * tokenizer.end();
 */
export class HeadTokenizer implements TokenHandler {
  readonly #tokenizer: Tokenizer;
  readonly #listener: HeadTokenListener;
  /** Text not yet given to parse5. */
  #held: string[] = [];
  #heldChars = 0;
  /** Characters given to parse5 so far. */
  #given = 0;
  /** Writes to parse5, and the characters it held when they came: the work done (for tests). */
  #writes = 0;
  #work = 0;
  #stopped = false;
  /** While {@link endCut} runs: a run of text not yet passed on (it may be cut). */
  #cutting = false;
  #heldRun: string | undefined;
  /** The text so far ends in what may be a character reference going on (`&`, `&am`, `&#3`). */
  #referenceOpen = false;
  /** Its last two characters (for a `<` or `</` at its end). */
  #lastTwo = '';

  constructor(listener: HeadTokenListener) {
    this.#listener = listener;
    this.#tokenizer = new Tokenizer({ sourceCodeLocationInfo: false }, this);
  }

  // parse5's TokenHandler: the tokenizer calls these (methods, so no closures per scan).

  /** @internal */
  onStartTag(token: TagToken): void {
    this.#releaseRun();
    const content = this.#listener.startTag(token.tagName, token.attrs);
    if (content !== undefined) this.#tokenizer.state = MODES[content];
  }

  /** @internal */
  onEndTag(token: TagToken): void {
    this.#releaseRun();
    this.#listener.endTag(token.tagName);
  }

  /** @internal */
  onCharacter(token: CharacterToken): void {
    this.#releaseRun();
    if (this.#cutting) this.#heldRun = token.chars;
    else this.#listener.characters(false);
  }

  /** @internal */
  onNullCharacter(): void {
    this.#characters(false);
  }

  /** @internal */
  onWhitespaceCharacter(): void {
    this.#characters(true);
  }

  /** @internal */
  onComment(): void {
    this.#releaseRun();
  }

  /** @internal */
  onDoctype(): void {
    this.#releaseRun();
  }

  /** @internal */
  onEof(): void {}

  #characters(blank: boolean): void {
    this.#releaseRun();
    this.#listener.characters(blank);
  }

  /** A run of text held by {@link endCut} that another token followed: it was not cut. */
  #releaseRun(): void {
    if (this.#heldRun === undefined) return;
    this.#heldRun = undefined;
    this.#listener.characters(false);
  }

  /** Writes to parse5 so far and the characters it held in all of them (a bound of its work). */
  get work(): { readonly writes: number; readonly chars: number } {
    return { writes: this.#writes, chars: this.#work };
  }

  /** Takes the next piece of text; parse5 may see it later (at the latest in {@link flush}). */
  write(text: string): void {
    if (this.#stopped || text === '') return;
    this.#held.push(text);
    this.#heldChars += text.length;
    this.#referenceOpen = endsInReference(text, this.#referenceOpen);
    this.#lastTwo = (this.#lastTwo + text).slice(-2);
    if (this.#given < EAGER_CHARS || this.#heldChars * GATHER_RATIO >= this.#given) this.flush();
  }

  /**
   * The caller's write of `size` input units is over: when it was large next to what parse5
   * has had (at least 1/{@link GATHER_RATIO} of it, so the bound holds), everything held is
   * handed on, and a head that ended in that write is seen before it returns.
   */
  writeDone(size: number): void {
    if (size * GATHER_RATIO >= this.#given) this.flush();
  }

  /** Gives parse5 every character held back. */
  flush(): void {
    if (this.#stopped || this.#heldChars === 0) return;
    const text = this.#held.length === 1 ? this.#held[0]! : this.#held.join('');
    this.#held = [];
    this.#heldChars = 0;
    this.#given += text.length;
    this.#writes++;
    this.#work += this.#given;
    this.#tokenizer.write(text, false);
  }

  /** The input is over: parse5 reports what it still holds. */
  end(): void {
    this.flush();
    if (!this.#stopped) this.#tokenizer.write('', true);
  }

  /**
   * The input was cut (at a byte cap): ends it there. parse5 then reports a construct the cut
   * left open (`&am`, `&#3`, `<`, `</`) as text, at the end of the last run of non-blank text:
   * when the text ends in one, whether that run is text at all is unknown, and it is not
   * reported. Every other token stands (parse5 reports a run only once the next token starts).
   */
  endCut(): void {
    this.flush();
    if (this.#stopped) return;
    this.#cutting = true;
    this.#tokenizer.write('', true);
    this.#cutting = false;
    const run = this.#heldRun;
    this.#heldRun = undefined;
    const cutOpen = this.#referenceOpen || this.#lastTwo.endsWith('<') || this.#lastTwo === '</';
    if (run !== undefined && !this.#stopped && !cutOpen) {
      this.#listener.characters(false);
    }
  }

  /** Stops tokenizing: nothing more is reported. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#held = [];
    this.#heldChars = 0;
    this.#tokenizer.pause();
  }
}

/**
 * Whether `before` + `text` ends in `&` and characters a reference name or number may hold
 * (`before`: whether what came before `text` did). O(text), whatever the split.
 */
function endsInReference(text: string, before: boolean): boolean {
  for (let at = text.length - 1; at >= 0; at--) {
    const c = text.charCodeAt(at);
    if (c === 0x26) return true; // `&`
    const alnum = (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
    if (!alnum && c !== 0x23) return false; // not a digit, letter or `#`
  }
  return before;
}
