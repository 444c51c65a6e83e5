/**
 * Every case of ../shared/conformance/google-robots-test.json where this project answers
 * differently from Google's reference library, with the reason. google.test.ts checks that
 * each entry still exists in the data and that we really give the answer written here, so
 * this list cannot go stale; every case not listed must match Google.
 *
 * Rule of thumb (DESIGN.md): RFC 9309 wins where it speaks; where it is silent, behave like
 * Google.
 */
import type { RobotsTxtUsageReason } from '@polite-crawler/robots-txt';

/** Our answer: a verdict, or a RobotsTxtUsageError with this reason. */
export type OurAnswer = { readonly allowed: boolean } | { readonly error: RobotsTxtUsageReason };

export interface Deviation {
  readonly id: string;
  readonly ours: OurAnswer;
  readonly reason: string;
}

const EMPTY_URL =
  'An empty URL is not a URL: isAllowed() rejects it with RobotsTxtUsageError (reason invalid-url) instead of reading it as "/". A programmer error gets a typed error, not a guessed verdict.';
const EMPTY_AGENT =
  'An empty crawler name is not a product token (RFC 9309 §2.2.1 requires at least one of A-Z a-z _ -): rejected with RobotsTxtUsageError (reason invalid-agent). The agent is checked before the URL.';

/** Deviations in the `cases` array. */
export const CASE_DEVIATIONS: readonly Deviation[] = [
  { id: 'GoogleOnly_SystemTest#1', ours: { error: 'invalid-url' }, reason: EMPTY_URL },
  { id: 'GoogleOnly_SystemTest#2', ours: { error: 'invalid-agent' }, reason: EMPTY_AGENT },
  { id: 'GoogleOnly_SystemTest#3', ours: { error: 'invalid-url' }, reason: EMPTY_URL },
  { id: 'GoogleOnly_SystemTest#4', ours: { error: 'invalid-agent' }, reason: EMPTY_AGENT },
  {
    id: 'GoogleOnly_AcceptUserAgentUpToFirstSpace#2',
    ours: { error: 'invalid-agent' },
    reason:
      'The crawler passes "Foo Bar" as its own name. That is not a product token (a space is not allowed), so it is rejected with RobotsTxtUsageError instead of silently matching nothing. Google compares it whole and falls back to the * group.',
  },
  {
    id: 'ID_Encoding#3',
    ours: { allowed: true },
    reason:
      'RFC 9309 §2.2.2: octets outside ASCII in the URI must be percent-encoded before comparison. The raw UTF-8 URL becomes /foo/bar/%E3%83%84 and matches "Allow: /foo/bar/ツ" (normalised the same way). Google leaves the URL as given.',
  },
  {
    id: 'ID_Encoding#5',
    ours: { allowed: true },
    reason:
      'RFC 9309 §2.2.2: the raw UTF-8 URL is percent-encoded to /foo/bar/%E3%83%84, which equals "Allow: /foo/bar/%E3%83%84". Google does not encode the URL.',
  },
  {
    id: 'ID_Encoding#6',
    ours: { allowed: true },
    reason:
      'RFC 9309 §2.2.2 (table row /foo/bar/%62%61%7A → /foo/bar/baz): escapes of unreserved characters are decoded before comparison, so "Allow: /foo/bar/%62%61%7A" matches /foo/bar/baz. Google does not decode the rule.',
  },
  {
    id: 'GoogleOnly_IndexHTMLisDirectory#1',
    ours: { allowed: false },
    reason:
      'Not adopted: Google lets "Allow: /allowed-slash/index.html" also allow "/allowed-slash/". RFC 9309 matches paths octet by octet; the rule does not match /allowed-slash/, so "Disallow: /" decides.',
  },
  {
    id: 'GoogleOnly_LineTooLong#2',
    ours: { allowed: true },
    reason:
      'We do not cut long lines (RFC 9309 sets no line limit; the 500 KiB file limit bounds them). The full rule ends in /qux and does not match this URL ending in /fux; Google cuts the line after 16,663 bytes and matches the broader, cut rule. We report the line as line-too-long instead.',
  },
  {
    id: 'GoogleOnly_LineTooLong#5',
    ours: { allowed: false },
    reason:
      'We do not cut long lines: the full "b" allow rule ends in /qux and does not match this URL ending in /fux, so "Disallow: /" decides. Google matches the cut rule. The line is reported as line-too-long.',
  },
];

/**
 * Deviations in `pathParamsQuery`. Our `toMatchPath` takes an absolute URL or a path that
 * starts with '/'; Google also reads schemeless host-first strings (`example.com/a`). We
 * reject those with RobotsTxtUsageError (reason invalid-url): a crawler holds absolute
 * URLs, and guessing where a host ends is how path confusion starts.
 */
const SCHEMELESS =
  'Schemeless input: rejected with RobotsTxtUsageError (invalid-url), Google guesses a host.';
export const PATH_DEVIATIONS: readonly Deviation[] = [
  {
    id: 'TestGetPathParamsQuery#1',
    ours: { error: 'invalid-url' },
    reason: 'Empty input is not a URL.',
  },
  ...[8, 9, 10, 11, 12, 13, 14, 16, 17, 18].map((n) => ({
    id: `TestGetPathParamsQuery#${n}`,
    ours: { error: 'invalid-url' } as const,
    reason: SCHEMELESS,
  })),
];
