import { Tokenizer } from 'htmlparser2';

/*
 * htmlparser2 reports text at the end of each write, except the text since its last report when
 * a character reference may still be going on (`&am` could become `&amp;`): that text is held
 * until the reference ends. The scan stops at the first non-blank text of the head, so where
 * the input stops inside a reference — at `maxHeadBytes` — what htmlparser2 has reported decides
 * between `head-end` and `byte-cap`, and that must not depend on how the input was split.
 *
 * Only a run of references at the very end of the text can hold text: `&` and the characters
 * a reference consumes (`[#0-9A-Za-z]`), up to the end. Inside the run, each reference is ended
 * by the next `&` at the latest. So the scanner:
 * - writes the text before the run on its own, which reports it;
 * - ends a write before the last `&` of the run whose reference before it ended early (`&qq`
 *   is no reference, and htmlparser2 is back in text before the next `&`): that reports all
 *   text up to there, as much as any split of the same input could;
 * - holds back the last reference of the run while it may still go on (writing it would report
 *   nothing) and hands it over with the next text. When the cap stops the scan there, it writes
 *   `<` in its place instead: that ends the reference before it exactly as the held `&` would
 *   have, and reports all the text before the held one (`x&`, `&&`, `&am&`: the text is `x&`,
 *   `&`, `&am`), without guessing what the held reference would have become.
 */

/** Held back at most this long (a reference of more can only be numeric: it is written). */
const MAX_HELD_BODY = 32;

/** A character a character reference can consume after its `&`: `#`, digits, letters. */
function isReferenceCharacter(code: number): boolean {
  return (
    code === 0x23 ||
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a)
  );
}

/** A numeric reference that can still go on: `#`, `#12`, `#x`, `#x1F`. */
const NUMERIC_SO_FAR = /^#(?:\d*|[xX][\dA-Fa-f]*)$/;

/** Set by the probe tokenizer's callbacks when it reports anything. */
let probeReported = false;
const report = (): void => {
  probeReported = true;
};
const ignore = (): void => {};

/** A tokenizer on its own, to learn whether a reference ends before its text does. */
let probe: Tokenizer | undefined;
let lastBody = '';
let lastAnswer = false;

/**
 * Whether the reference `&` + `body`, in text, ends within `body`: htmlparser2 is then back in
 * text and reports it at the end of a write; otherwise the reference may still go on.
 */
function endsWithin(body: string): boolean {
  // `&` followed by `&`: nothing is known until the next character.
  if (body === '') return false;
  // Numeric: it goes on while digits of its base follow.
  if (body.charCodeAt(0) === 0x23) return !NUMERIC_SO_FAR.test(body);
  // No entity name is this long (the longest has 31 characters).
  if (body.length > MAX_HELD_BODY) return true;
  // A run of references often repeats one (`&nbsp&nbsp…`): remember the last answer.
  if (body === lastBody) return lastAnswer;
  probe ??= new Tokenizer(
    { decodeEntities: true },
    {
      onattribdata: ignore,
      onattribentity: ignore,
      onattribend: ignore,
      onattribname: ignore,
      oncdata: ignore,
      onclosetag: ignore,
      oncomment: ignore,
      ondeclaration: ignore,
      onend: ignore,
      onopentagend: ignore,
      onopentagname: ignore,
      onprocessinginstruction: ignore,
      onselfclosingtag: ignore,
      ontext: report,
      ontextentity: report,
    },
  );
  probeReported = false;
  probe.reset();
  probe.write('&' + body);
  lastBody = body;
  lastAnswer = probeReported;
  return probeReported;
}

/** How to hand one text to htmlparser2 (see above). */
export interface ReferenceWrites {
  /** Offsets where a write ends and the next begins: ascending, above 0, at most `hold`. */
  readonly cuts: readonly number[];
  /** Offset of a last reference held back (`text.length` when none). */
  readonly hold: number;
}

const NO_CUTS: readonly number[] = Object.freeze([]);

/**
 * How to write `text` to htmlparser2 so that, whatever the split of the input, it has reported
 * all the text it can by the end, and a last reference that may still go on is held back.
 *
 * @example
 * referenceWrites('<head>x&&'); // { cuts: [7], hold: 8 }: "x" reported, the last "&" held
 * referenceWrites('<head>&qq&'); // { cuts: [6, 9], hold: 9 }: "&qq" is no reference
 */
export function referenceWrites(text: string): ReferenceWrites {
  if (text.lastIndexOf('&') < 0) return { cuts: NO_CUTS, hold: text.length };
  // Back from the end over the run of `&` and reference characters: `start` its first `&`,
  // `final` its last, `last` the last `&` whose reference before it ended early.
  let start = -1;
  let final = -1;
  let last = -1;
  for (let i = text.length - 1; i >= 0; i--) {
    const code = text.charCodeAt(i);
    if (code === 0x26) {
      if (final < 0) final = i;
      else if (last < 0 && endsWithin(text.slice(i + 1, start))) last = start;
      start = i;
    } else if (!isReferenceCharacter(code)) break;
  }
  if (start < 0) return { cuts: NO_CUTS, hold: text.length };
  const body = text.slice(final + 1);
  const hold = body.length <= MAX_HELD_BODY && !endsWithin(body) ? final : text.length;
  const cuts: number[] = [];
  if (start > 0) cuts.push(start);
  if (last > start) cuts.push(last);
  return { cuts, hold };
}
