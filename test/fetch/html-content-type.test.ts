/** The byte check of Content-Type must say what the string check says, for any header value. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHtml, isHtmlBytes } from '../../packages/fetch/src/transport/html-content-type.js';

const piece = fc.constantFrom(
  'text/html',
  'TEXT/HTML',
  'Text/Html',
  'application/xhtml+xml',
  'Application/XHTML+XML',
  'text/plain',
  'text/htm',
  'text/htmlx',
  'application/xhtml',
  ' ',
  '\t',
  '\v',
  '\u00a0',
  '\u0085',
  ';',
  ' ; charset=utf-8',
  'charset=utf-8',
  '/',
  '+',
  'x',
  '@',
  '[',
  '\u00ff',
);

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('isHtmlBytes', () => {
  it('agrees with isHtml on header values read as latin1', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 5 }), (pieces) => {
        const value = pieces.join('');
        expect(isHtmlBytes(latin1(value))).toBe(isHtml(value));
      }),
      { numRuns: 5_000 },
    );
  });

  it.each([
    ['text/html', true],
    [' text/html ; charset=utf-8', true],
    ['\u00a0APPLICATION/XHTML+XML\t', true],
    ['text/html x', false],
    ['text/htmlx', false],
    ['text/plain', false],
    ['', false],
  ])('%j → %s', (value, html) => {
    expect(isHtmlBytes(latin1(value))).toBe(html);
    expect(isHtml(value)).toBe(html);
  });
});
