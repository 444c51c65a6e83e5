/**
 * robots-txt's own RFC 9651 Dictionary parser, on the corners of the RFC's parsing
 * algorithms (§4.2, §4.2.2–§4.2.10). The property test in test/robots-tag/usage-properties
 * compares it with structured-headers on generated values; these cases pin the RFC text.
 */
import { describe, expect, it } from 'vitest';
import { parseStructuredDictionary } from '../../packages/robots-txt/src/structured-dictionary.js';

const members = (s: string): [string, string | undefined, string][] | undefined => {
  const parsed = parseStructuredDictionary(s);
  return parsed === undefined ? undefined : [...parsed].map(([k, m]) => [k, m.token, m.raw]);
};

describe('parses', () => {
  it.each([
    ['', []],
    ['   ', []],
    ['a=y', [['a', 'y', 'y']]],
    ['a', [['a', undefined, '?1']]],
    ['a;p=1', [['a', undefined, '?1']]],
    ['a=y;p=1;q', [['a', 'y', 'y']]],
    ['a=y;  p=1', [['a', 'y', 'y']]],
    ['  a=y  ', [['a', 'y', 'y']]],
    ['a=y\t', [['a', 'y', 'y']]],
    [
      'a=y,b=n',
      [
        ['a', 'y', 'y'],
        ['b', 'n', 'n'],
      ],
    ],
    [
      'a=y \t,\t b=n',
      [
        ['a', 'y', 'y'],
        ['b', 'n', 'n'],
      ],
    ],
    [
      'a=y, b=n, a=n',
      [
        ['a', 'n', 'n'],
        ['b', 'n', 'n'],
      ],
    ],
    ['*a=y', [['*a', 'y', 'y']]],
    ['a.b_c-d*1=y', [['a.b_c-d*1', 'y', 'y']]],
    ['a=*tok', [['a', '*tok', '*tok']]],
    ["a=t!#$%&'*+-.^_`|~:/9", [['a', "t!#$%&'*+-.^_`|~:/9", "t!#$%&'*+-.^_`|~:/9"]]],
    ['a=Y', [['a', 'Y', 'Y']]],
    ['a="x\\"y\\\\"', [['a', undefined, '"x\\"y\\\\"']]],
    ['a=?0', [['a', undefined, '?0']]],
    ['a=-12', [['a', undefined, '-12']]],
    ['a=123456789012345', [['a', undefined, '123456789012345']]],
    ['a=123456789012.123', [['a', undefined, '123456789012.123']]],
    ['a=1.5', [['a', undefined, '1.5']]],
    ['a=:aGVsbG8=:', [['a', undefined, ':aGVsbG8=:']]],
    ['a=:aGVsbG8:', [['a', undefined, ':aGVsbG8:']]],
    ['a=::', [['a', undefined, '::']]],
    ['a=@-1659578233', [['a', undefined, '@-1659578233']]],
    [
      'a=@1, b=y',
      [
        ['a', undefined, '@1'],
        ['b', 'y', 'y'],
      ],
    ],
    ['a=%"f%c3%bc%c3%bc"', [['a', undefined, '%"f%c3%bc%c3%bc"']]],
    ['a=(y n);p', [['a', undefined, '(y n)']]],
    ['a=(  y;q  n  )', [['a', undefined, '(  y;q  n  )']]],
    ['a=()', [['a', undefined, '()']]],
  ] as const)('%j', (input, want) => {
    expect(members(input)).toEqual(want);
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
    expect(parseStructuredDictionary(input)).toBeUndefined();
  });
});
