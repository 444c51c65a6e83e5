/**
 * The RFC 9651 Dictionary parser behind `parseContentUsage` and robots.txt's `Content-Usage`,
 * on the corners of the RFC's parsing algorithms (§4.2, §4.2.2–§4.2.10), seen through the
 * public API: labels outside the vocabulary come back in `extensions` with their canonical
 * value, and a value that fails makes every category unknown. The property test in
 * usage-properties.test.ts compares it with structured-headers on generated values.
 */
import { describe, expect, it } from 'vitest';
import { parseContentUsage } from '@polite-crawler/robots-txt';

/** The members of a value that uses no vocabulary label: label and canonical value. */
const members = (s: string): [string, string][] =>
  parseContentUsage(s).extensions.map((e) => [e.label, e.value]);

describe('parses', () => {
  it.each([
    ['', []],
    ['   ', []],
    ['a=y', [['a', 'y']]],
    ['a', [['a', '?1']]],
    ['a;p=1', [['a', '?1']]],
    ['a=y;p=1;q', [['a', 'y']]],
    ['a=y;  p=1', [['a', 'y']]],
    ['  a=y  ', [['a', 'y']]],
    ['a=y\t', [['a', 'y']]],
    [
      'a=y,b=n',
      [
        ['a', 'y'],
        ['b', 'n'],
      ],
    ],
    [
      'a=y \t,\t b=n',
      [
        ['a', 'y'],
        ['b', 'n'],
      ],
    ],
    [
      'a=y, b=n, a=n',
      [
        ['a', 'n'],
        ['b', 'n'],
      ],
    ],
    ['*a=y', [['*a', 'y']]],
    ['a.b_c-d*1=y', [['a.b_c-d*1', 'y']]],
    ['a=*tok', [['a', '*tok']]],
    ["a=t!#$%&'*+-.^_`|~:/9", [['a', "t!#$%&'*+-.^_`|~:/9"]]],
    ['a=Y', [['a', 'Y']]],
    ['a="x\\"y\\\\"', [['a', '"x\\"y\\\\"']]],
    ['a=?0', [['a', '?0']]],
    ['a=-12', [['a', '-12']]],
    ['a=123456789012345', [['a', '123456789012345']]],
    ['a=123456789012.123', [['a', '123456789012.123']]],
    ['a=1.5', [['a', '1.5']]],
    ['a=:aGVsbG8=:', [['a', ':aGVsbG8=:']]],
    ['a=:aGVsbG8:', [['a', ':aGVsbG8=:']]], // padding added (RFC 9651 §4.1.8)
    ['a=::', [['a', '::']]],
    ['a=@-1659578233', [['a', '@-1659578233']]],
    [
      'a=@1, b=y',
      [
        ['a', '@1'],
        ['b', 'y'],
      ],
    ],
    ['a=%"f%c3%bc%c3%bc"', [['a', '%"f%c3%bc%c3%bc"']]],
    ['a=(y n);p', [['a', '(y n)']]],
    ['a=(  y;q  n  )', [['a', '(y;q n)']]], // one SP between items (§4.1.1.1)
    ['a=()', [['a', '()']]],
  ] as const)('%j', (input, want) => {
    expect(members(input)).toEqual(want);
  });

  it('a Token is what counts for a category; other types are unknown', () => {
    expect(parseContentUsage('train-ai=n, search="n", ai-use=?0')).toMatchObject({
      'train-ai': 'disallowed',
      search: 'unknown',
      'ai-use': 'unknown',
    });
  });
});

describe('fails', () => {
  it.each([
    'A=y', // keys are lower case
    'a=y,', // trailing comma
    'a=y,,b=n',
    ',a=y',
    'a=y b=n',
    'a =y',
    '\ta=y', // only SP is discarded before the first member (OWS after a member is fine)
    '1a=y',
    '-a=y',
    'a=',
    'a=é',
    'é=y',
    'a=y, x="é"',
    'a="x', // unterminated
    'a="x\\y"', // bad escape
    'a="x\u0001"',
    'a=?2',
    'a=?',
    'a=-',
    'a=1.',
    'a=1.2345',
    'a=1234567890123456',
    'a=1234567890123.1',
    'a=12345678901.12345',
    'a=1..2',
    'a=:aGVsbG8', // unterminated
    'a=:a:', // one base64 character
    'a=:ab=c:',
    'a=:a===:',
    'a=:a-b:',
    'a=@1.5', // a Date is an Integer
    'a=@',
    'a=%"x', // unterminated
    'a=%x',
    'a=%"%C3%A9"', // hex must be lower case
    'a=%"%c3"', // not UTF-8
    'a=%"%ed%a0%80"', // a surrogate
    'a=%"\u0001"',
    'a=(y', // unterminated
    'a=(y,n)',
    'a=(y)n',
    'a;',
    'a;P=1',
    'a;p=',
    'train-ai;has;parameters="?";', // vocab §6.5.2's example
    '#',
    '/x',
  ])('%j', (input) => {
    // Nothing appended can repair these (none ends in an unfinished item that `, train-ai=n`
    // could complete), so a disallowed train-ai would mean the value parsed.
    const usage = parseContentUsage(`${input}, train-ai=n`);
    expect(usage['train-ai']).toBe('unknown');
    expect(usage.extensions).toEqual([]);
  });
});
