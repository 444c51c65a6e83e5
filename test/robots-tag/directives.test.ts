import { describe, expect, it } from 'vitest';
import {
  directivesFor,
  isRobotsTagUsageError,
  isUnavailable,
  parseRobotsMetaContent,
  parseRobotsTagHeaders,
  scanRobotsMeta,
} from '@polite-crawler/robots-tag';
import type { RobotsDirectives } from '@polite-crawler/robots-tag';

/** The error `fn` throws, or `undefined`. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

const FLAGS = [
  'noindex',
  'nofollow',
  'nosnippet',
  'noarchive',
  'noimageindex',
  'notranslate',
  'indexIfEmbedded',
] as const;

/** The flags that are set, plus the value fields that are present. */
function brief(d: RobotsDirectives): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const flag of FLAGS) if (d[flag]) out[flag] = true;
  if (d.maxSnippet !== undefined) out['maxSnippet'] = d.maxSnippet;
  if (d.maxImagePreview !== undefined) out['maxImagePreview'] = d.maxImagePreview;
  if (d.maxVideoPreview !== undefined) out['maxVideoPreview'] = d.maxVideoPreview;
  if (d.unavailableAfter !== undefined) out['unavailableAfter'] = d.unavailableAfter.toISOString();
  return out;
}

const forHeader = (value: string | string[], token = 'ExampleBot') =>
  brief(directivesFor(parseRobotsTagHeaders(value), token));

describe('per-token resolution', () => {
  const cases: Array<[string | string[], string, Record<string, unknown>]> = [
    ['noindex', 'ExampleBot', { noindex: true }],
    ['googlebot: noindex', 'ExampleBot', {}],
    ['googlebot: noindex', 'Googlebot', { noindex: true }],
    ['googlebot: noindex', 'GOOGLEBOT', { noindex: true }],
    ['googlebot: noindex', 'googlebot-news', {}],
    [
      '*;noindex, examplebot;nosnippet',
      'ExampleBot',
      { noindex: true, nosnippet: true, maxSnippet: 0 },
    ],
    ['*;noindex, examplebot;nosnippet', 'OtherBot', { noindex: true }],
    // The draft's example: ExampleBot listed with no rules still obeys the rules for everyone.
    [
      '*;noindex;nosnippet, ExampleBot;',
      'ExampleBot',
      { noindex: true, nosnippet: true, maxSnippet: 0 },
    ],
    [['googlebot: nofollow', 'otherbot: noindex'], 'OtherBot', { noindex: true }],
    ['examplebot;noindex, examplebot;noarchive', 'examplebot', { noindex: true, noarchive: true }],
    ['none', 'ExampleBot', { noindex: true, nofollow: true }],
    ['all', 'ExampleBot', {}],
    ['index, follow', 'ExampleBot', {}],
    ['nocache', 'ExampleBot', { noarchive: true }],
    [
      'noimageindex, notranslate, indexifembedded',
      'ExampleBot',
      { noimageindex: true, notranslate: true, indexIfEmbedded: true },
    ],
    ['noai, noindex', 'ExampleBot', { noindex: true }],
    ['*;noindex', '*', { noindex: true }],
    ['examplebot: noindex', '*', {}],
  ];
  it.each(cases)('%j for %s', (value, token, expected) => {
    expect(forHeader(value, token)).toEqual(expected);
  });

  it('unites headers and metas, and lists the rules that applied', () => {
    const header = parseRobotsTagHeaders(['googlebot: noindex', 'otherbot: nofollow']);
    const meta = scanRobotsMeta(
      '<meta name="robots" content="noarchive"><meta name="googlebot" content="nosnippet">',
      {
        productTokens: ['googlebot'],
      },
    );
    const d = directivesFor([header, meta], 'Googlebot');
    expect(brief(d)).toEqual({ noindex: true, noarchive: true, nosnippet: true, maxSnippet: 0 });
    expect(d.rules.map((r) => `${r.source}:${r.token}:${r.name}`)).toEqual([
      'header:googlebot:noindex',
      'meta:*:noarchive',
      'meta:googlebot:nosnippet',
    ]);
  });

  it('lists unknown rules among those that applied, without effect', () => {
    const d = directivesFor(parseRobotsTagHeaders('noai'), 'ExampleBot');
    expect(brief(d)).toEqual({});
    expect(d.rules.map((r) => [r.name, r.known])).toEqual([['noai', false]]);
  });

  it('returns all-permissive directives for no rules', () => {
    const d = directivesFor({ rules: [], diagnostics: [] }, 'ExampleBot');
    expect(d).toEqual({
      noindex: false,
      nofollow: false,
      nosnippet: false,
      noarchive: false,
      noimageindex: false,
      notranslate: false,
      indexIfEmbedded: false,
      rules: [],
    });
    expect(Object.isFrozen(d)).toBe(true);
  });
});

describe('conflicts: the most restrictive wins', () => {
  const cases: Array<[string[], Record<string, unknown>]> = [
    [['max-snippet: 50', 'max-snippet: 20'], { maxSnippet: 20 }],
    [['max-snippet: -1', 'max-snippet: 20'], { maxSnippet: 20 }],
    [['max-snippet: 20', 'max-snippet: -1'], { maxSnippet: 20 }],
    [['max-snippet: -1'], { maxSnippet: -1 }],
    [['max-snippet: 0'], { maxSnippet: 0, nosnippet: true }],
    [['nosnippet', 'max-snippet: 50'], { maxSnippet: 0, nosnippet: true }],
    [['max-snippet: oops', 'max-snippet: 30'], { maxSnippet: 30 }],
    [['max-image-preview: large', 'max-image-preview: standard'], { maxImagePreview: 'standard' }],
    [['max-image-preview: none', 'max-image-preview: large'], { maxImagePreview: 'none' }],
    [['max-image-preview: LARGE'], { maxImagePreview: 'large' }],
    [['max-video-preview: -1', 'max-video-preview: 10'], { maxVideoPreview: 10 }],
    [['max-video-preview: 0', 'max-video-preview: 10'], { maxVideoPreview: 0 }],
    [
      ['unavailable_after: 2030-01-01', 'unavailable_after: 25 Jun 2010 15:00:00 PST'],
      { unavailableAfter: '2010-06-25T23:00:00.000Z' },
    ],
    [['*;max-snippet=100', 'examplebot: max-snippet: 10'], { maxSnippet: 10 }],
    [['otherbot: max-snippet: 1', 'max-snippet: 10'], { maxSnippet: 10 }],
    [['none', 'all'], { noindex: true, nofollow: true }],
    [['index', 'noindex'], { noindex: true }],
  ];
  it.each(cases)('%j', (lines, expected) => {
    expect(forHeader(lines)).toEqual(expected);
  });

  it('uses metas the same way', () => {
    const rules = parseRobotsMetaContent(
      'robots',
      'max-snippet:20, max-snippet:5, max-image-preview:standard',
    );
    expect(brief(directivesFor(rules, 'ExampleBot'))).toEqual({
      maxSnippet: 5,
      maxImagePreview: 'standard',
    });
  });
});

describe('isUnavailable', () => {
  const d = directivesFor(
    parseRobotsTagHeaders('unavailable_after: 2010-06-25T15:00:00Z'),
    'ExampleBot',
  );
  const instant = Date.UTC(2010, 5, 25, 15);

  it('is false up to the date and true strictly after it', () => {
    expect(isUnavailable(d, instant - 1)).toBe(false);
    expect(isUnavailable(d, instant)).toBe(false);
    expect(isUnavailable(d, instant + 1)).toBe(true);
    expect(isUnavailable(d, new Date(instant + 1000))).toBe(true);
  });

  it('is false when no date applies', () => {
    expect(
      isUnavailable(directivesFor(parseRobotsTagHeaders('noindex'), 'x'), Date.UTC(2100, 0)),
    ).toBe(false);
  });

  it('rejects an invalid instant', () => {
    expect(thrown(() => isUnavailable(d, Number.NaN))).toMatchObject({
      code: 'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
      argument: 'at',
    });
    expect(thrown(() => isUnavailable(d, new Date('nope')))).toMatchObject({ argument: 'at' });
  });
});

describe('an expired unavailable_after is a noindex, at the `now` the caller gives', () => {
  const rules = parseRobotsTagHeaders('unavailable_after: 2010-06-25T15:00:00Z');
  const instant = Date.UTC(2010, 5, 25, 15);

  it('noindex with reason unavailable_after strictly after the date, not before or at it', () => {
    for (const now of [instant + 1, new Date(instant + 1000)]) {
      const d = directivesFor(rules, 'ExampleBot', { now });
      expect([d.noindex, d.noindexReason]).toEqual([true, 'unavailable_after']);
      expect(isUnavailable(d, now)).toBe(true);
    }
    for (const now of [instant - 1, instant]) {
      const d = directivesFor(rules, 'ExampleBot', { now });
      expect([d.noindex, d.noindexReason]).toEqual([false, undefined]);
      expect(d).not.toHaveProperty('noindexReason');
    }
  });

  it('without `now`, dates are not compared (no clock is read)', () => {
    const d = directivesFor(rules, 'ExampleBot');
    expect([d.noindex, d.noindexReason]).toEqual([false, undefined]);
    expect(d.unavailableAfter?.toISOString()).toBe('2010-06-25T15:00:00.000Z');
  });

  it('a noindex rule is the reason when both hold; the earliest date of several counts', () => {
    const both = directivesFor([rules, parseRobotsTagHeaders('noindex')], 'ExampleBot', {
      now: instant + 1,
    });
    expect([both.noindex, both.noindexReason]).toEqual([true, 'rule']);
    const none = directivesFor(parseRobotsTagHeaders('none'), 'ExampleBot', { now: 0 });
    expect(none.noindexReason).toBe('rule');
    const two = parseRobotsTagHeaders([
      'unavailable_after: 2030-01-01',
      'examplebot: unavailable_after: 2010-06-25T15:00:00Z',
    ]);
    expect(directivesFor(two, 'ExampleBot', { now: instant + 1 }).noindexReason).toBe(
      'unavailable_after',
    );
    expect(directivesFor(two, 'OtherBot', { now: instant + 1 }).noindex).toBe(false);
  });

  it('rejects an invalid `now` and options that are not an object', () => {
    expect(thrown(() => directivesFor(rules, 'x', { now: Number.NaN }))).toMatchObject({
      code: 'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
      argument: 'now',
    });
    expect(thrown(() => directivesFor(rules, 'x', { now: new Date('nope') }))).toMatchObject({
      argument: 'now',
    });
    expect(thrown(() => directivesFor(rules, 'x', 5 as never))).toMatchObject({
      code: 'ERR_ROBOTS_TAG_INVALID_OPTION',
      argument: 'options',
    });
  });
});

describe('directivesFor arguments', () => {
  it.each([[''], ['Example Bot'], ['ExampleBot/1.0'], [42]])(
    'rejects product token %j',
    (token) => {
      const caught = thrown(() => directivesFor(parseRobotsTagHeaders('noindex'), token as string));
      expect(isRobotsTagUsageError(caught)).toBe(true);
      expect(caught).toMatchObject({
        code: 'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
        argument: 'productToken',
      });
    },
  );

  it('rejects something that is not a rules object', () => {
    expect(thrown(() => directivesFor({} as never, 'x'))).toMatchObject({ argument: 'rules' });
    expect(thrown(() => directivesFor([null] as never, 'x'))).toMatchObject({ argument: 'rules' });
  });
});
