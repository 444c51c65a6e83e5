/**
 * Which elements keep a document in its head, as the HTML parser decides it (shared by the
 * htmlparser2-driven scanner and the fast path, so both end the head in the same place).
 */

/** Elements the HTML parser keeps in the head ("in head" insertion mode). */
export const IN_HEAD: ReadonlySet<string> = new Set([
  'html',
  'head',
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'title',
  'style',
  'script',
  'noscript',
  'noframes',
  'template',
]);

/**
 * Elements that, between `</head>` and the body, still go into the head ("after head" mode):
 * the same, except `<noscript>`.
 */
export const AFTER_HEAD: ReadonlySet<string> = new Set(
  [...IN_HEAD].filter((name) => name !== 'noscript'),
);

/** Elements whose content is text to htmlparser2 (so no tag inside them is seen). */
export const TEXT_CONTENT: ReadonlySet<string> = new Set(['title', 'style', 'script']);

/** End tags that end the head wherever they appear. */
export const ENDS_HEAD: ReadonlySet<string> = new Set(['body', 'html', 'br']);

/** The head elements htmlparser2 treats as void (never on its stack of open elements). */
export const VOID_IN_HEAD: ReadonlySet<string> = new Set(['base', 'basefont', 'link', 'meta']);
