/** Which Content-Type values the head scan treats as HTML. */
import { describe, expect, it } from 'vitest';
import { isHtml } from '../../packages/fetch/src/transport/html-content-type.js';

describe('isHtml', () => {
  it.each([
    ['text/html', true],
    ['TEXT/HTML', true],
    [' text/html ; charset=utf-8', true],
    ['\u00a0APPLICATION/XHTML+XML\t', true],
    ['text/html x', false],
    ['text/htmlx', false],
    ['text/htm', false],
    ['application/xhtml', false],
    ['text/plain', false],
    ['', false],
  ])('%j → %s', (value, html) => {
    expect(isHtml(value)).toBe(html);
  });

  it('is false without a Content-Type', () => {
    expect(isHtml(undefined)).toBe(false);
    expect(isHtml(null)).toBe(false);
  });
});
