import { Tokenizer } from 'htmlparser2';
import { BANG, DASH, GT, SLASH, SPACE, isSpace } from './html-chars.js';
import { SCRIPT_END_TAG_LENGTH, ScriptDataTracker } from './script-data-states.js';

/**
 * The parts of htmlparser2's tokenizer (10.1) this file relies on: the state handlers it
 * replaces or calls, the end sequence it looks for in text and comments, how much of it has
 * matched, and where the current token starts. They are private in its types, so they are
 * named here.
 */
interface TokenizerInternals {
  currentSequence: Uint8Array;
  sequenceIndex: number;
  sectionStart: number;
  index: number;
  isSpecial: boolean;
  stateInSpecialTag(c: number): void;
  stateInCommentLike(c: number): void;
  stateBeforeDeclaration(c: number): void;
  stateBeforeComment(c: number): void;
  stateInDeclaration(c: number): void;
  stateBeforeClosingTagName(c: number): void;
  stateInClosingTagName(c: number): void;
  stateInSelfClosingTag(c: number): void;
  stateBeforeAttributeName(c: number): void;
}

type StateName = {
  [K in keyof TokenizerInternals]: TokenizerInternals[K] extends (c: number) => void ? K : never;
}[keyof TokenizerInternals];

const STATES: readonly StateName[] = [
  'stateInSpecialTag',
  'stateInCommentLike',
  'stateBeforeDeclaration',
  'stateBeforeComment',
  'stateInDeclaration',
  'stateBeforeClosingTagName',
  'stateInClosingTagName',
  'stateInSelfClosingTag',
  'stateBeforeAttributeName',
];
const htmlparser2 = Tokenizer.prototype as unknown as Partial<TokenizerInternals>;
for (const name of STATES) {
  if (typeof htmlparser2[name] !== 'function') {
    // Never a silently different verdict: a changed htmlparser2 fails here, loudly.
    throw new Error(
      `@polite-crawler/robots-tag: this htmlparser2 has no Tokenizer.${name} (10.1 is supported)`,
    );
  }
}
/** htmlparser2's own state handlers. */
const own = htmlparser2 as TokenizerInternals;

/** Whether the end sequence sought is `</script` (the only special end tag of its length). */
function seeksScriptEnd(sequence: Uint8Array): boolean {
  return sequence.length === SCRIPT_END_TAG_LENGTH && sequence[2] === 0x73 && sequence[3] === 0x63;
}

/** Whether the end sequence sought is a comment's `-->` (not CDATA's `]]>`). */
function seeksCommentEnd(sequence: Uint8Array): boolean {
  return sequence.length === 3 && sequence[0] === DASH;
}

/**
 * htmlparser2's tokenizer, with the token boundaries of the HTML standard (as browsers find
 * them) where htmlparser2's differ in ways that move a robots meta into or out of the head:
 * - a script's text ends by the script data states: `</script>` inside `<!-- … <script> … -->`
 *   does not end it (see `script-data-states.ts`);
 * - `</script/>`, `</style/>`, `</title/>` end their element, and `</head/>` is the end tag of
 *   `head` (a `/` after an end tag's name is read as a space, then everything to the `>` is
 *   skipped, as browsers do);
 * - `<script/>`, `<style/>`, `<title/>` open their element as `<script>` does (browsers ignore
 *   the `/` of a non-void element; htmlparser2 would read what follows as markup);
 * - `--!>` ends a comment;
 * - `<!>` and `<!->` are empty bogus comments (htmlparser2 would read on to the next `>`);
 * - `</>` is dropped, and `</ x>` is a bogus comment (htmlparser2 would report `</>` as text and
 *   read `</ x>` as the end tag of `x`).
 *
 * Everything else is htmlparser2's own.
 * @example
 * new Parser(handler, { Tokenizer: BrowserTokenizer });
 */
export class BrowserTokenizer extends Tokenizer {
  readonly #script = new ScriptDataTracker();
  /** A comment's `--!` was just read. */
  #commentBang = false;

  /** In the text of a special element (replaces htmlparser2's `stateInSpecialTag`). */
  inSpecialTag(c: number): void {
    const internals = this as unknown as TokenizerInternals;
    const sequence = internals.currentSequence;
    if (!seeksScriptEnd(sequence)) {
      const afterName = internals.sequenceIndex === sequence.length;
      own.stateInSpecialTag.call(this, afterName && c === SLASH ? SPACE : c);
      return;
    }
    if (this.#script.step(c)) {
      // `c` ends a `</script` that ends the element: htmlparser2 emits the text and the end tag.
      internals.sequenceIndex = SCRIPT_END_TAG_LENGTH;
      own.stateInSpecialTag.call(this, c === SLASH ? SPACE : c);
      return;
    }
    // Kept as htmlparser2 keeps it, so that it holds back a partial end tag at the end of a
    // write instead of reporting it as text.
    internals.sequenceIndex = this.#script.endTagProgress;
  }

  /** In a comment or CDATA (replaces `stateInCommentLike`). */
  inCommentLike(c: number): void {
    const internals = this as unknown as TokenizerInternals;
    if (!seeksCommentEnd(internals.currentSequence)) {
      own.stateInCommentLike.call(this, c);
      return;
    }
    if (this.#commentBang) {
      this.#commentBang = false;
      // `--!>` ends the comment; after `--!` anything else is comment text again.
      internals.sequenceIndex = c === GT ? 2 : 0;
    } else if (
      c === BANG &&
      internals.sequenceIndex === 2 &&
      // Two characters read since `<!--` (the 2 htmlparser2 starts with lets `<!-->` end it).
      internals.index - internals.sectionStart >= 2
    ) {
      this.#commentBang = true;
      return;
    }
    own.stateInCommentLike.call(this, c);
  }

  /** After `<!` (replaces `stateBeforeDeclaration`). */
  beforeDeclaration(c: number): void {
    own.stateBeforeDeclaration.call(this, c);
    // `<!>`: htmlparser2 has just entered the declaration without reading the `>`.
    if (c === GT) own.stateInDeclaration.call(this, c);
  }

  /** After `<!-` (replaces `stateBeforeComment`). */
  beforeComment(c: number): void {
    own.stateBeforeComment.call(this, c);
    // `<!->`: as `<!>`.
    if (c === GT) own.stateInDeclaration.call(this, c);
  }

  /** After `</` (replaces `stateBeforeClosingTagName`). */
  beforeClosingTagName(c: number): void {
    if (c === GT) {
      // `</>`: nothing, not even text.
      own.stateBeforeClosingTagName.call(this, c);
      (this as unknown as TokenizerInternals).sectionStart =
        (this as unknown as TokenizerInternals).index + 1;
    } else if (isSpace(c)) {
      // `</ x>`: a bogus comment, as for any other character that cannot start a tag name.
      own.stateBeforeClosingTagName.call(this, BANG);
    } else {
      own.stateBeforeClosingTagName.call(this, c);
    }
  }

  /** In an end tag's name (replaces `stateInClosingTagName`). */
  inClosingTagName(c: number): void {
    own.stateInClosingTagName.call(this, c === SLASH ? SPACE : c);
  }

  /** After a `/` in a start tag (replaces `stateInSelfClosingTag`). */
  inSelfClosingTag(c: number): void {
    if (c === GT && (this as unknown as TokenizerInternals).isSpecial) {
      // `<script/>`: the tag ends as if there were no `/`, and the element's text follows.
      own.stateBeforeAttributeName.call(this, c);
      return;
    }
    own.stateInSelfClosingTag.call(this, c);
  }
}

// htmlparser2's parse loop calls each state's handler as a method: these replace them.
const replaced = BrowserTokenizer.prototype as unknown as TokenizerInternals;
/* eslint-disable @typescript-eslint/unbound-method */
replaced.stateInSpecialTag = BrowserTokenizer.prototype.inSpecialTag;
replaced.stateInCommentLike = BrowserTokenizer.prototype.inCommentLike;
replaced.stateBeforeDeclaration = BrowserTokenizer.prototype.beforeDeclaration;
replaced.stateBeforeComment = BrowserTokenizer.prototype.beforeComment;
replaced.stateBeforeClosingTagName = BrowserTokenizer.prototype.beforeClosingTagName;
replaced.stateInClosingTagName = BrowserTokenizer.prototype.inClosingTagName;
replaced.stateInSelfClosingTag = BrowserTokenizer.prototype.inSelfClosingTag;
/* eslint-enable @typescript-eslint/unbound-method */
