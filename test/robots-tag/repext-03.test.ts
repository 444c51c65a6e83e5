/**
 * draft-illyes-repext-03 (../shared/spec/draft-illyes-repext-03.md), point by point: the
 * field is a structured List of product-token Items with rules as Parameters; the union of all
 * restrictive rules applies (a rule on `*` binds every named token, in headers and in metas); a
 * member truncated at the parse limit and everything after it in that field are ignored; and
 * the rules' validity follows the resource's HTTP freshness (`rulesFreshness`).
 */
import { describe, expect, it } from 'vitest';
import {
  ROBOTS_TAG_DEFAULTS,
  directivesFor,
  parseRobotsTagHeaders,
  rulesFreshness,
  scanRobotsMeta,
} from '@polite-crawler/robots-tag';
import type { RobotsDirectives } from '@polite-crawler/robots-tag';

const restrictions = (d: RobotsDirectives): string[] =>
  (['noindex', 'nofollow', 'nosnippet', 'noarchive'] as const).filter((name) => d[name]);

describe('the field is a List: product-token Items, rules as Parameters', () => {
  it('reads the draft’s example as it deserializes it', () => {
    const rules = parseRobotsTagHeaders('*;nosnippet, ExampleBot;noindex');
    expect(rules.rules.map((r) => [r.token, r.name, r.syntax])).toEqual([
      ['*', 'nosnippet', 'structured'],
      ['examplebot', 'noindex', 'structured'],
    ]);
    expect(rules.diagnostics).toEqual([]);
    // "*" = [nosnippet]; "ExampleBot" = [noindex, nosnippet]
    expect(restrictions(directivesFor(rules, '*'))).toEqual(['nosnippet']);
    expect(restrictions(directivesFor(rules, 'ExampleBot'))).toEqual(['noindex', 'nosnippet']);
  });

  it('parameters with values, and several rules on one item', () => {
    const rules = parseRobotsTagHeaders('ExampleBot;noindex;max-snippet=20, *;noarchive');
    const d = directivesFor(rules, 'examplebot');
    expect([d.noindex, d.noarchive, d.maxSnippet]).toEqual([true, true, 20]);
  });
});

describe('the union of all restrictive rules', () => {
  it('a product token repeated in the field, and across field lines', () => {
    const d = directivesFor(
      parseRobotsTagHeaders(['ExampleBot;noindex, ExampleBot;nofollow', 'examplebot;noarchive']),
      'ExampleBot',
    );
    expect(restrictions(d)).toEqual(['noindex', 'nofollow', 'noarchive']);
  });

  it('a rule on `*` binds a token that is named, even with no rules or other rules', () => {
    const rules = parseRobotsTagHeaders('*;noindex, ExampleBot;nosnippet, OtherBot');
    expect(restrictions(directivesFor(rules, 'ExampleBot'))).toEqual(['noindex', 'nosnippet']);
    expect(restrictions(directivesFor(rules, 'OtherBot'))).toEqual(['noindex']);
  });

  it('metas: robots and the crawler’s own meta add up; no meta opts out', () => {
    const html =
      '<head><meta name="robots" content="noindex"><meta name="examplebot" content="nosnippet, index"></head>';
    const d = directivesFor(scanRobotsMeta(html), 'ExampleBot');
    expect(restrictions(d)).toEqual(['noindex', 'nosnippet']);
  });
});

describe('the parse limit: a truncated member and everything after it are ignored', () => {
  const limit = ROBOTS_TAG_DEFAULTS.minFieldBytes;
  const options = { maxFieldBytes: limit };
  /** A field whose first member fills the limit up to `head` characters before it. */
  const filler = (length: number): string => `*;noarchive;x="${'a'.repeat(length - 16)}"`;

  it('complete members within the limit are honored, the one the limit cuts is not', () => {
    const head = filler(limit - 15);
    const field = `${head}, ExampleBot;noindex, ExampleBot;nofollow`;
    // The limit falls inside `ExampleBot;noindex`.
    expect(field.indexOf('ExampleBot;noindex')).toBeLessThan(limit);
    expect(field.indexOf('ExampleBot;noindex') + 'ExampleBot;noindex'.length).toBeGreaterThan(
      limit,
    );
    const rules = parseRobotsTagHeaders(field, options);
    expect(restrictions(directivesFor(rules, 'ExampleBot'))).toEqual(['noarchive']);
    expect(rules.diagnostics.map((d) => d.code)).toEqual(['field-truncated']);
  });

  it('a member that ends exactly at the limit is complete (a comma follows it)', () => {
    const member = 'ExampleBot;noindex';
    const head = filler(limit - member.length - 2);
    const field = `${head}, ${member}, ExampleBot;nofollow`;
    expect(field.indexOf(member) + member.length).toBe(limit);
    const d = directivesFor(parseRobotsTagHeaders(field, options), 'ExampleBot');
    expect(restrictions(d)).toEqual(['noindex', 'noarchive']);
  });

  it('a parameter the limit cuts takes its whole member with it', () => {
    const head = filler(limit - 30);
    const field = `${head}, ExampleBot;noindex;max-snippet=12345678901234567890`;
    expect(field.length).toBeGreaterThan(limit);
    const d = directivesFor(parseRobotsTagHeaders(field, options), 'ExampleBot');
    expect([d.noindex, d.maxSnippet]).toEqual([false, undefined]);
  });

  it('the limit is per field line: the next line is read from its start', () => {
    const long = `${filler(limit - 15)}, ExampleBot;noindex`;
    const d = directivesFor(parseRobotsTagHeaders([long, 'examplebot;nofollow'], options), 'x');
    expect(d.nofollow).toBe(false);
    const e = directivesFor(
      parseRobotsTagHeaders([long, 'examplebot;nofollow'], options),
      'ExampleBot',
    );
    expect(restrictions(e)).toEqual(['nofollow', 'noarchive']);
  });
});

describe('validity follows the resource’s HTTP freshness (rulesFreshness)', () => {
  const now = Date.UTC(2026, 3, 14, 12);
  const at = (seconds: number): string => new Date(now + seconds * 1000).toISOString();

  it.each<
    [string, Record<string, string | string[]>, string | undefined, string, number | undefined]
  >([
    ['max-age', { 'cache-control': 'public, max-age=3600' }, at(3600), 'max-age', 3600],
    ['quoted max-age', { 'cache-control': 'max-age="60"' }, at(60), 'max-age', 60],
    [
      'the first max-age',
      { 'cache-control': ['max-age=60', 'max-age=7200'] },
      at(60),
      'max-age',
      60,
    ],
    ['max-age less Age', { 'cache-control': 'max-age=600', age: '100' }, at(500), 'max-age', 600],
    ['an invalid max-age is stale', { 'cache-control': 'max-age=soon' }, at(0), 'max-age', 0],
    [
      'a huge max-age is 2^31 s',
      { 'cache-control': 'max-age=99999999999999' },
      at(2 ** 31),
      'max-age',
      2 ** 31,
    ],
    [
      's-maxage is for shared caches',
      { 'cache-control': 's-maxage=60' },
      undefined,
      'none',
      undefined,
    ],
    ['no-store', { 'cache-control': 'max-age=60, no-store' }, at(0), 'no-store', 0],
    ['no-cache', { 'cache-control': 'no-cache, max-age=60' }, at(0), 'no-cache', 0],
    [
      'no-cache with field names is not',
      { 'cache-control': 'no-cache="set-cookie, x", max-age=60' },
      at(60),
      'max-age',
      60,
    ],
    [
      'max-age wins over Expires',
      { 'cache-control': 'max-age=60', expires: 'Tue, 14 Apr 2026 13:00:00 GMT' },
      at(60),
      'max-age',
      60,
    ],
    [
      'Expires minus Date',
      { expires: 'Tue, 14 Apr 2026 13:00:00 GMT', date: 'Tue, 14 Apr 2026 12:00:00 GMT' },
      at(3600),
      'expires',
      3600,
    ],
    [
      'Expires, no Date: minus now',
      { expires: 'Tuesday, 14-Apr-26 12:30:00 GMT' },
      at(1800),
      'expires',
      1800,
    ],
    ['Expires: 0 is already expired', { expires: '0' }, at(0), 'expires', 0],
    ['an ISO date is no HTTP-date', { expires: '2026-04-14T13:00:00Z' }, at(0), 'expires', 0],
    [
      'a Date in the past ages the response',
      { 'cache-control': 'max-age=600', date: 'Tue, 14 Apr 2026 11:55:00 GMT' },
      at(300),
      'max-age',
      600,
    ],
    ['nothing declared', { 'content-type': 'text/html' }, undefined, 'none', undefined],
  ])('%s', (_, headers, freshUntil, source, lifetime) => {
    const f = rulesFreshness(headers, now);
    expect([f.freshUntil?.toISOString(), f.source, f.lifetimeSeconds]).toEqual([
      freshUntil,
      source,
      lifetime,
    ]);
    expect(Object.isFrozen(f)).toBe(true);
  });

  it('reads Headers objects and [name, value] pairs the same way', () => {
    const pairs: [string, string][] = [['Cache-Control', 'max-age=120']];
    expect(rulesFreshness(new Headers(pairs), now)).toEqual(rulesFreshness(pairs, new Date(now)));
  });

  it('is carried on the directives, as given', () => {
    const freshness = rulesFreshness({ 'cache-control': 'max-age=60' }, now);
    const d = directivesFor(parseRobotsTagHeaders('noindex'), 'ExampleBot', { now, freshness });
    expect(d.freshness).toBe(freshness);
    expect(directivesFor(parseRobotsTagHeaders('noindex'), 'ExampleBot')).not.toHaveProperty(
      'freshness',
    );
  });

  it('rejects what is not headers, and an invalid now', () => {
    expect(() => rulesFreshness('max-age=1' as never, now)).toThrow(/headers/);
    expect(() => rulesFreshness({}, Number.NaN)).toThrow(/now/);
  });
});
