import { describe, expect, it } from 'vitest';
import {
  directivesFor,
  parseRobotsDate,
  parseRobotsTagHeaders,
  ROBOTS_DATE_ZONES,
} from '@polite-crawler/robots-tag';

describe('parseRobotsDate: accepted forms', () => {
  const cases: Array<[string, string]> = [
    // RFC 1123 / RFC 822
    ['Fri, 25 Jun 2010 15:00:00 GMT', '2010-06-25T15:00:00.000Z'],
    ['Fri, 25 Jun 2010 15:00:00 +0200', '2010-06-25T13:00:00.000Z'],
    ['25 Jun 2010 15:00:00 PST', '2010-06-25T23:00:00.000Z'],
    ['25 Jun 2010 15:00 EDT', '2010-06-25T19:00:00.000Z'],
    ['25 June 2010', '2010-06-25T00:00:00.000Z'],
    // RFC 850, commas inside
    ['Friday, 25-Jun-10 15:00:00 PST', '2010-06-25T23:00:00.000Z'],
    ['Thursday, 01-Jan-70 00:00:00 GMT', '1970-01-01T00:00:00.000Z'],
    ['Saturday, 01-Jan-69 00:00:00 GMT', '2069-01-01T00:00:00.000Z'],
    // asctime
    ['Fri Jun 25 15:00:00 2010', '2010-06-25T15:00:00.000Z'],
    // the Unix date command: asctime with a zone before the year
    ['Fri Jun 25 15:00:00 PST 2010', '2010-06-25T23:00:00.000Z'],
    ['Fri Jun 25 15:00:00 UTC 2010', '2010-06-25T15:00:00.000Z'],
    ['Fri Jun 25 3:00 pm EST 2010', '2010-06-25T20:00:00.000Z'],
    ['Fri Jun 25 15:00:00 +0200 2010', '2010-06-25T13:00:00.000Z'],
    // month first, hand-written
    ['June 25, 2010', '2010-06-25T00:00:00.000Z'],
    ['Jun 25th 2010 3:00 pm EST', '2010-06-25T20:00:00.000Z'],
    ['June 25, 2010 12:30 a.m. UTC', '2010-06-25T00:30:00.000Z'],
    // ISO 8601
    ['2010-06-25', '2010-06-25T00:00:00.000Z'],
    ['2010-06-25T15:00:00Z', '2010-06-25T15:00:00.000Z'],
    ['2010-06-25T15:00:00.250Z', '2010-06-25T15:00:00.250Z'],
    ['2010-06-25T15:00:00-08:00', '2010-06-25T23:00:00.000Z'],
    ['2010-06-25 15:00', '2010-06-25T15:00:00.000Z'],
    ['2010-06-25T15:00:00 PDT', '2010-06-25T22:00:00.000Z'],
    ['2010-06-25T24:00:00Z', '2010-06-26T00:00:00.000Z'],
    // ISO 8601 basic format
    ['20100625', '2010-06-25T00:00:00.000Z'],
    ['20100625T150000Z', '2010-06-25T15:00:00.000Z'],
    ['20100625T1500Z', '2010-06-25T15:00:00.000Z'],
    ['20100625T150000.5-0800', '2010-06-25T23:00:00.500Z'],
    ['20100625T150000', '2010-06-25T15:00:00.000Z'],
    // zones
    ['25 Jun 2010 15:00:00 CST', '2010-06-25T21:00:00.000Z'],
    ['25 Jun 2010 15:00:00 MDT', '2010-06-25T21:00:00.000Z'],
    ['25 Jun 2010 15:00:00 akst', '2010-06-26T00:00:00.000Z'],
    ['25 Jun 2010 15:00:00 HST', '2010-06-26T01:00:00.000Z'],
    ['25 Jun 2010 15:00:00 CEST', '2010-06-25T13:00:00.000Z'],
    ['25 Jun 2010 15:00:00 GMT+01:00', '2010-06-25T14:00:00.000Z'],
    ['25 Jun 2010 15:00:00 (UTC)', '2010-06-25T15:00:00.000Z'],
    ['"25 Jun 2010 15:00:00 UT"', '2010-06-25T15:00:00.000Z'],
    ['29 Feb 2000', '2000-02-29T00:00:00.000Z'],
    ['31 Dec 2010 23:59:60 GMT', '2010-12-31T23:59:59.000Z'],
    // expanded years, as toISOString writes them: the ends of JavaScript's range
    ['+275760-09-13T00:00:00.000Z', '+275760-09-13T00:00:00.000Z'],
    ['-271821-04-20T00:00:00.000Z', '-271821-04-20T00:00:00.000Z'],
    ['+010000-01-01', '+010000-01-01T00:00:00.000Z'],
  ];
  it.each(cases)('%j', (text, iso) => {
    expect(parseRobotsDate(text)?.toISOString()).toBe(iso);
  });

  it('knows the US zones and a few more', () => {
    expect(ROBOTS_DATE_ZONES).toEqual(
      expect.arrayContaining([
        'pst',
        'pdt',
        'est',
        'edt',
        'cst',
        'cdt',
        'mst',
        'mdt',
        'gmt',
        'utc',
      ]),
    );
  });
});

describe('parseRobotsDate: rejected forms', () => {
  it.each([
    [''],
    ['someday'],
    ['25 Foo 2010'],
    ['31 Feb 2010'],
    ['29 Feb 1900'],
    ['2010-13-01'],
    ['2010-06-25T25:00:00Z'],
    ['2010-06-25T24:00:01Z'],
    ['25 Jun 2010 15:61:00 GMT'],
    ['25 Jun 2010 15:00:00 XYZ'],
    ['25 Jun 2010 15:00:00 +2500'],
    ['June 25, 2010 13:00 pm'],
    ['1277478000'],
    ['2010062'],
    ['20101325'],
    ['20100631'],
    ['20100625T2500Z'],
    ['20100625T15Z'],
    ['20100625T150000 XYZ'],
    ['Fri Jun 25 15:00:00 XYZ 2010'],
    ['Fri Jun 25 15:00:00 PST PST 2010'],
    ['x'.repeat(129)],
    ['25 Jun 2010 15:00:00 PST trailing'],
    ['+275760-09-13T00:00:00.001Z'],
    ['-271821-04-19T23:59:59.999Z'],
    ['-000000-01-01'],
    ['+10000-01-01'],
  ])('%j', (text) => {
    expect(parseRobotsDate(text)).toBeUndefined();
  });

  it('does not consult Date.parse (which accepts things we reject)', () => {
    expect(Number.isNaN(Date.parse('2010/06/25'))).toBe(false);
    expect(parseRobotsDate('2010/06/25')).toBeUndefined();
  });
});

describe('unavailable_after in headers', () => {
  it('gives an unparseable date a diagnostic and no unavailableAfter', () => {
    const rules = parseRobotsTagHeaders('noindex, unavailable_after: the end of days');
    expect(rules.diagnostics.map((d) => d.code)).toEqual(['invalid-value']);
    const directives = directivesFor(rules, 'ExampleBot');
    expect(directives.unavailableAfter).toBeUndefined();
    expect(directives.noindex).toBe(true);
  });

  it('reads the Unix date form and the ISO basic form in a field line', () => {
    const unix = directivesFor(
      parseRobotsTagHeaders('noarchive, unavailable_after: Fri Jun 25 15:00:00 PST 2010'),
      'x',
    );
    expect(unix.unavailableAfter?.toISOString()).toBe('2010-06-25T23:00:00.000Z');
    expect(unix.noarchive).toBe(true);
    const basic = directivesFor(
      parseRobotsTagHeaders('unavailable_after: 20100625T150000Z, nosnippet'),
      'x',
    );
    expect(basic.unavailableAfter?.toISOString()).toBe('2010-06-25T15:00:00.000Z');
    expect(basic.nosnippet).toBe(true);
  });

  it('reads a date whose commas were split across members', () => {
    const d = directivesFor(
      parseRobotsTagHeaders('unavailable_after: Friday, 25-Jun-10 15:00:00 PST, noarchive'),
      'x',
    );
    expect(d.unavailableAfter?.toISOString()).toBe('2010-06-25T23:00:00.000Z');
    expect(d.noarchive).toBe(true);
  });

  it.each([
    ['unavailable_after: 2030-01-01, 360Spider: noindex', '360spider'],
    ['unavailable_after: 25 Jun 2030 15:00:00 PST, 360Spider: noindex', '360spider'],
    ['unavailable_after: Friday, 25-Jun-30 15:00:00 PST, 360Spider: noindex', '360spider'],
    ['unavailable_after: 2030-01-01, mar-bot: noindex', 'mar-bot'],
    ['unavailable_after: 2030-01-01, Friday-Bot:noindex', 'friday-bot'],
    ['unavailable_after: 2030-01-01, 360Spider:, noindex', '360spider'],
    ['unavailable_after: 2030-01-01, 360spider;noindex', '360spider'],
    ['unavailable_after: 2030-01-01, mar-bot=(noindex)', 'mar-bot'],
  ])('does not take the token-prefixed rule in %j for part of the date', (line, token) => {
    const rules = parseRobotsTagHeaders(line);
    expect(rules.diagnostics).toEqual([]);
    expect(rules.rules.map((r) => [r.token, r.name])).toEqual([
      ['*', 'unavailable_after'],
      [token, 'noindex'],
    ]);
    const d = directivesFor(rules, token);
    expect(d.noindex).toBe(true);
    expect(d.unavailableAfter?.getUTCFullYear()).toBe(2030);
    expect(directivesFor(rules, 'ExampleBot').noindex).toBe(false);
  });

  it.each([
    ['unavailable_after: Mon, 01 Jan 2024 00:00:00 GMT, noarchive', '2024-01-01T00:00:00.000Z'],
    ['unavailable_after: Friday, 25-Jun-10 15:00:00 PST', '2010-06-25T23:00:00.000Z'],
    ['unavailable_after: June 25, 2010, 3:00 pm EST', '2010-06-25T20:00:00.000Z'],
    ['unavailable_after: 25 Jun 2010, 15:00:00 GMT', '2010-06-25T15:00:00.000Z'],
    ['unavailable_after: Fri, June 25, 2010, 15:00', '2010-06-25T15:00:00.000Z'],
  ])('still joins the pieces of %j', (line, iso) => {
    const rules = parseRobotsTagHeaders(line);
    expect(rules.diagnostics).toEqual([]);
    expect(directivesFor(rules, 'x').unavailableAfter?.toISOString()).toBe(iso);
  });

  it.each([
    ['unavailable_after = Fri, 25 Jun 2010 15:00:00 GMT', '2010-06-25T15:00:00.000Z'],
    ['noarchive, unavailable_after=Friday, 25-Jun-10 15:00:00 PST', '2010-06-25T23:00:00.000Z'],
    ['unavailable_after=June 25, 2010, 3:00 pm EST, nosnippet', '2010-06-25T20:00:00.000Z'],
  ])('joins the pieces of a date written after `=`: %j', (line, iso) => {
    const rules = parseRobotsTagHeaders(line);
    expect(rules.diagnostics).toEqual([]);
    expect(directivesFor(rules, 'x').unavailableAfter?.toISOString()).toBe(iso);
  });

  it.each([
    ['*;unavailable_after="Fri, 25 Jun 2010 15:00:00 GMT", examplebot;noindex'],
    ['unavailable_after=@1277478000, examplebot;noindex'],
  ])('leaves a structured date to the structured reader: %j', (line) => {
    const rules = parseRobotsTagHeaders(line);
    expect(rules.diagnostics).toEqual([]);
    expect(directivesFor(rules, 'ExampleBot').unavailableAfter?.toISOString()).toBe(
      '2010-06-25T15:00:00.000Z',
    );
    expect(directivesFor(rules, 'ExampleBot').noindex).toBe(true);
  });

  it('does not take a following rule named like a month for part of the date', () => {
    const rules = parseRobotsTagHeaders('unavailable_after: 25 Jun 2010, may: noindex');
    expect(rules.rules.map((r) => [r.token, r.name])).toEqual([
      ['*', 'unavailable_after'],
      ['may', 'noindex'],
    ]);
  });
});

describe('RFC 9651 Dates at and past the limit of JavaScript dates', () => {
  // JavaScript dates reach ±8.64e15 ms, i.e. ±8,640,000,000,000 s; RFC 9651 allows 15 digits.
  it.each([
    ['*;unavailable_after=@8640000000000', 8_640_000_000_000_000],
    ['*;unavailable_after=@-8640000000000', -8_640_000_000_000_000],
    ['*;unavailable_after=@0', 0],
  ])('%j is read, with no diagnostic', (line, ms) => {
    const rules = parseRobotsTagHeaders(line);
    expect(rules.diagnostics).toEqual([]);
    expect(rules.rules.map((r) => r.value)).toEqual([new Date(ms).toISOString()]);
    expect(directivesFor(rules, 'ExampleBot').unavailableAfter?.getTime()).toBe(ms);
  });

  it.each([
    '*;unavailable_after=@8640000000001',
    '*;unavailable_after=@-8640000000001',
    '*;unavailable_after=@999999999999999',
    '*;unavailable_after=@-999999999999999',
    'max-snippet=@999999999999999',
    '*;max-snippet=@999999999999999',
  ])('%j: invalid-value, no throw, the other members kept', (member) => {
    const rules = parseRobotsTagHeaders(`noarchive, ${member}, nofollow`);
    expect(rules.rules.map((r) => `${r.token}:${r.name}`)).toEqual(['*:noarchive', '*:nofollow']);
    expect(rules.diagnostics.map((d) => d.code)).toEqual(['invalid-value']);
    expect(directivesFor(rules, 'ExampleBot').unavailableAfter).toBeUndefined();
  });

  it('a product token whose value is such a date is reported, not thrown on', () => {
    const rules = parseRobotsTagHeaders('noarchive, googlebot=@999999999999999, nofollow');
    expect(rules.rules.map((r) => `${r.token}:${r.name}`)).toEqual(['*:noarchive', '*:nofollow']);
    expect(rules.diagnostics.map((d) => d.code)).toEqual(['unparseable-member']);
  });
});
