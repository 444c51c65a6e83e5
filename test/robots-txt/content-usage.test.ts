/**
 * `Content-Usage` (draft-ietf-aipref-attach-05 §3) and `Content-Signal` rules in robots.txt:
 * the draft's example, then one table per semantic point of issue 25, then lint.
 */
import { describe, expect, it } from 'vitest';
import {
  parseRobotsTxt,
  type Agent,
  type UsagePreference,
  type UsagePreferences,
} from '@polite-crawler/robots-txt';

type Prefs = readonly [train: UsagePreference, search: UsagePreference];
const U = 'unknown';
const A = 'allowed';
const D = 'disallowed';

function prefs(p: UsagePreferences): Prefs {
  return [p['train-ai'], p.search];
}

interface Case {
  readonly name: string;
  readonly file: string;
  readonly url: string;
  readonly agent?: Agent;
  readonly want: Prefs;
  /** The lines of the deciding rules. */
  readonly lines?: readonly number[];
}

function check(cases: readonly Case[]): void {
  it.each(cases)('$name', ({ file, url, agent, want, lines }) => {
    const robots = parseRobotsTxt(file);
    const a = agent ?? 'ExampleBot';
    expect(prefs(robots.contentUsage(url, a))).toEqual(want);
    if (lines !== undefined)
      expect(robots.explainContentUsage(url, a).rules.map((r) => r.line)).toEqual(lines);
  });
}

describe('attach-05 §1.2 and §3.4 examples', () => {
  it('§1.2: Allow: / and Content-Usage: train-ai=n', () => {
    const robots = parseRobotsTxt('User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\n');
    expect(prefs(robots.contentUsage('https://example.com/any', 'SomeBot'))).toEqual([D, U]);
    expect(robots.diagnostics).toEqual([]);
  });

  const FIGURE = [
    'User-Agent: *',
    'Allow: /',
    'Disallow: /never/',
    'Content-Usage: train-ai=n',
    'Content-Usage: /ai-ok/ train-ai=y',
    '',
    'User-Agent: ExampleBot',
    'Allow: /',
    'Content-Usage: train-ai=y',
    '',
  ].join('\n');

  // Table "Sample of usage preferences for different paths", for crawlers other than ExampleBot.
  it.each([
    ['/test', true, D, 4],
    ['/never/test', false, U, undefined],
    ['/ai-ok/test', true, A, 5],
  ] as const)('%s: crawl %s, train-ai %s', (path, crawl, train, line) => {
    const robots = parseRobotsTxt(FIGURE);
    const v = robots.explainContentUsage(`https://example.com${path}`, 'OtherBot');
    expect(robots.isAllowed(`https://example.com${path}`, 'OtherBot')).toBe(crawl);
    expect(v.crawlAllowed).toBe(crawl);
    expect(v.preferences['train-ai']).toBe(train);
    expect(v.preferences.search).toBe(U);
    expect(v.reason).toBe(crawl ? 'rule' : 'path-disallowed');
    expect(v.rules.map((r) => r.line)).toEqual(line === undefined ? [] : [line]);
    expect(v.selection).toBe('global');
    expect(v.groupLines).toEqual([1]);
  });

  it('ExampleBot uses the second group: all content, train-ai=y ("ai=y" in the draft is a typo)', () => {
    const robots = parseRobotsTxt(FIGURE);
    for (const path of ['/test', '/never/test', '/ai-ok/test']) {
      const v = robots.explainContentUsage(path, 'ExampleBot');
      expect(v.crawlAllowed).toBe(true);
      expect(prefs(v.preferences)).toEqual([A, U]);
      expect(v.rules).toEqual([
        {
          kind: 'content-usage',
          pattern: '',
          normalizedPattern: '',
          value: 'train-ai=y',
          line: 9,
          text: 'Content-Usage: train-ai=y',
        },
      ]);
      expect(v.preferences.sources['train-ai']).toEqual([
        { kind: 'content-usage-rule', line: 9, pattern: '', text: 'Content-Usage: train-ai=y' },
      ]);
    }
    expect(robots.diagnostics).toEqual([]);
  });
});

describe('group selection: as for Allow/Disallow (product > purpose > *)', () => {
  const file = [
    'User-agent: *',
    'Content-Usage: train-ai=n',
    'User-agent-purpose: search',
    'Content-Usage: search=y',
    'User-agent: ExampleBot',
    'Content-Usage: train-ai=y',
    'User-agent: examplebot',
    'Content-Usage: search=n',
  ].join('\n');
  check([
    { name: 'product token groups, merged', file, url: '/a', want: [A, D], lines: [6, 8] },
    {
      name: 'product token wins over purpose',
      file,
      url: '/a',
      agent: { productToken: 'ExampleBot', purpose: 'search' },
      want: [A, D],
    },
    {
      name: 'purpose when no product group',
      file,
      url: '/a',
      agent: { productToken: 'Other', purpose: 'search' },
      want: [U, A],
      lines: [4],
    },
    { name: '* otherwise', file, url: '/a', agent: 'Other', want: [D, U], lines: [2] },
    {
      name: 'no group at all: unknown',
      file: 'User-agent: SomeBot\nContent-Usage: train-ai=n\n',
      url: '/a',
      want: [U, U],
    },
    {
      name: 'a rule before any group is ignored',
      file: 'Content-Usage: train-ai=n\nUser-agent: *\nAllow: /\n',
      url: '/a',
      want: [U, U],
    },
    {
      name: 'a Content-Usage line is a rule: a user-agent after it starts a new group',
      file: 'User-agent: ExampleBot\nContent-Usage: train-ai=n\nUser-agent: Other\nContent-Usage: search=n\n',
      url: '/a',
      want: [D, U],
    },
    {
      name: '… and the next group is not ExampleBot’s',
      file: 'User-agent: ExampleBot\nContent-Usage: train-ai=n\nUser-agent: Other\nContent-Usage: search=n\n',
      url: '/a',
      agent: 'Other',
      want: [U, D],
    },
    {
      name: 'user-agent lines before it share the group',
      file: 'User-agent: Other\nUser-agent: ExampleBot\nContent-Usage: train-ai=n\n',
      url: '/a',
      want: [D, U],
    },
    {
      name: 'the label is case-insensitive, whitespace around it and the colon ignored',
      file: 'User-agent: *\n \tCONTENT-usage \t:\t train-ai=n\n',
      url: '/a',
      want: [D, U],
    },
  ]);
});

describe('the chosen groups, as on the crawl verdict', () => {
  const file = [
    'User-agent: A',
    'User-agent: B',
    'Content-Usage: train-ai=n',
    '',
    'User-agent: C',
    'Disallow: /x',
    '',
    'User-agent: a',
    'Content-Usage: /p search=n',
  ].join('\n');

  it('groups: one entry per merged group, the same as explain() and forAgent()', () => {
    const robots = parseRobotsTxt(file);
    const v = robots.explainContentUsage('/p', 'A');
    expect(v.groups).toEqual([[1, 2], [8]]);
    expect(v.groups).toEqual(robots.explain('/p', 'A').groups);
    expect(v.groupLines).toEqual([1, 2, 8]);
    expect(prefs(v.preferences)).toEqual([U, D]);
    expect(prefs(robots.contentUsage('/q', 'A'))).toEqual([D, U]);
    const rules = robots.forAgent('A');
    expect(rules.explainContentUsage('/q').groups).toEqual(rules.groups);
  });

  it('only the rules of the chosen groups apply, even when asked by another agent first', () => {
    const robots = parseRobotsTxt(file);
    const c = robots.explainContentUsage('/p', 'C');
    expect(c.groups).toEqual([[5]]);
    expect(c.reason).toBe('no-matching-rule');
    expect(robots.explainContentUsage('/x', 'C').reason).toBe('path-disallowed');
    expect(prefs(robots.contentUsage('/p', 'B'))).toEqual([D, U]);
    expect(robots.explainContentUsage('/p', 'B').groups).toEqual([[1, 2]]);
  });
});

describe('longest path wins, in octets of the encoded pattern', () => {
  check([
    {
      name: 'an absent path is empty: / is longer',
      file: 'User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: / train-ai=y\n',
      url: '/a',
      want: [A, U],
      lines: [3],
    },
    {
      name: 'order carries no meaning',
      file: 'User-agent: *\nContent-Usage: / train-ai=y\nContent-Usage: train-ai=n\n',
      url: '/a',
      want: [A, U],
    },
    {
      name: 'longer prefix wins',
      file: 'User-agent: *\nContent-Usage: /a train-ai=n\nContent-Usage: /a/b train-ai=y\n',
      url: '/a/b/c',
      want: [A, U],
    },
    {
      name: 'a non-matching longer path does not count',
      file: 'User-agent: *\nContent-Usage: /a train-ai=n\nContent-Usage: /a/b train-ai=y\n',
      url: '/a/c',
      want: [D, U],
    },
    {
      name: 'a shorter rule does not fill in what the longest leaves unknown',
      file: 'User-agent: *\nContent-Usage: search=n, train-ai=n\nContent-Usage: /a train-ai=y\n',
      url: '/a',
      want: [A, U],
    },
    {
      name: 'length counts percent-escapes in octets: /%C3%A9 (7) beats /abcdef (7)? tie → combined',
      file: 'User-agent: *\nContent-Usage: /é train-ai=y\nContent-Usage: /é* search=n\n',
      url: '/%C3%A9x',
      want: [U, D],
      lines: [3],
    },
    {
      name: 'a UTF-8 path is matched as its percent-encoding',
      file: 'User-agent: *\nContent-Usage: /café train-ai=n\n',
      url: 'https://example.com/caf%C3%A9/x',
      want: [D, U],
    },
    {
      name: '%61 in a pattern is read as a (unreserved decoded)',
      file: 'User-agent: *\nContent-Usage: /%61 train-ai=n\n',
      url: '/a',
      want: [D, U],
    },
    {
      name: 'wildcard: * matches any run',
      file: 'User-agent: *\nContent-Usage: /*.pdf train-ai=n\n',
      url: '/docs/x.pdf',
      want: [D, U],
    },
    {
      name: '$ anchors the end',
      file: 'User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n',
      url: '/docs/x.pdf?download',
      want: [U, U],
    },
    {
      name: '$ anchors: exact path matches',
      file: 'User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n',
      url: '/x.pdf',
      want: [D, U],
    },
    {
      name: '* and $ count in the length: /a*$ (4) beats /ab (3)',
      file: 'User-agent: *\nContent-Usage: /a*$ train-ai=n\nContent-Usage: /ab train-ai=y\n',
      url: '/ab',
      want: [D, U],
      lines: [2],
    },
    {
      name: 'matched URL bytes do not count, only the pattern: /a* (3) loses to /abc (4)',
      file: 'User-agent: *\nContent-Usage: /a* train-ai=n\nContent-Usage: /abc train-ai=y\n',
      url: '/abcdefgh',
      want: [A, U],
    },
    {
      name: '%2A in a pattern is a literal *',
      file: 'User-agent: *\nContent-Usage: /a%2Ab train-ai=n\n',
      url: '/a*b',
      want: [D, U],
    },
    {
      name: '%2A does not match other characters',
      file: 'User-agent: *\nContent-Usage: /a%2Ab train-ai=n\n',
      url: '/axb',
      want: [U, U],
    },
    {
      name: 'matching includes the query',
      file: 'User-agent: *\nContent-Usage: /s?q= train-ai=n\n',
      url: '/s?q=1',
      want: [D, U],
    },
  ]);
});

describe('identical paths combine most-restrictively, in any order', () => {
  check([
    {
      name: 'n then y → disallowed',
      file: 'User-agent: *\nContent-Usage: /a train-ai=n\nContent-Usage: /a train-ai=y\n',
      url: '/a',
      want: [D, U],
      lines: [2, 3],
    },
    {
      name: 'y then n → disallowed (unlike Allow/Disallow ties)',
      file: 'User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a train-ai=n\n',
      url: '/a',
      want: [D, U],
    },
    {
      name: 'y and unknown → allowed',
      file: 'User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a search=y\n',
      url: '/a',
      want: [A, A],
    },
    {
      name: 'across merged groups too',
      file: 'User-agent: ExampleBot\nContent-Usage: train-ai=y\n\nUser-agent: ExampleBot\nContent-Usage: train-ai=n\n',
      url: '/a',
      want: [D, U],
    },
    {
      name: 'equally long different paths that both match are combined too',
      file: 'User-agent: *\nContent-Usage: /a* train-ai=n\nContent-Usage: /ab train-ai=y\n',
      url: '/ab',
      want: [D, U],
      lines: [2, 3],
    },
    {
      name: 'a failed statement is a statement: it adds nothing',
      file: 'User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a Train-AI=n\n',
      url: '/a',
      want: [A, U],
    },
  ]);
});

describe('a disallowed path has no preferences', () => {
  check([
    {
      name: 'disallowed → unknown',
      file: 'User-agent: *\nDisallow: /p\nContent-Usage: train-ai=n\n',
      url: '/p/x',
      want: [U, U],
    },
    {
      name: 'a longer Content-Usage path under a disallowed prefix still gives nothing',
      file: 'User-agent: *\nDisallow: /p\nContent-Usage: /p/longer/path train-ai=n\n',
      url: '/p/longer/path',
      want: [U, U],
    },
    {
      name: 'a longer Allow re-allows, and the preference applies',
      file: 'User-agent: *\nDisallow: /p\nAllow: /p/ok\nContent-Usage: /p train-ai=n\n',
      url: '/p/ok/x',
      want: [D, U],
    },
    {
      name: '/robots.txt is always crawlable, so preferences apply to it',
      file: 'User-agent: *\nDisallow: /\nContent-Usage: train-ai=n\n',
      url: '/robots.txt',
      want: [D, U],
    },
  ]);
  it('reason path-disallowed, crawlAllowed false', () => {
    const v = parseRobotsTxt(
      'User-agent: *\nDisallow: /\nContent-Usage: train-ai=n\n',
    ).explainContentUsage('/x', 'Bot');
    expect(v.reason).toBe('path-disallowed');
    expect(v.crawlAllowed).toBe(false);
    expect(v.rules).toEqual([]);
  });
});

describe('the rule value: path, whitespace, # and empty statements', () => {
  check([
    {
      name: 'the value ends at the first #',
      file: 'User-agent: *\nContent-Usage: train-ai=n # search=n\n',
      url: '/a',
      want: [D, U],
    },
    {
      name: 'a # inside a quoted string still ends it (the string then fails to parse)',
      file: 'User-agent: *\nContent-Usage: x="a#b", train-ai=n\n',
      url: '/a',
      want: [U, U],
    },
    {
      name: 'the whole SP/HTAB run after the path is removed',
      file: 'User-agent: *\nContent-Usage: /a \t \ttrain-ai=n\n',
      url: '/a',
      want: [D, U],
    },
    {
      name: 'the path ends at the first SP/HTAB',
      file: 'User-agent: *\nContent-Usage: /a\ttrain-ai=n\n',
      url: '/a',
      want: [D, U],
    },
    {
      name: 'a path and nothing after it: an empty statement for that path',
      file: 'User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a\n',
      url: '/a/b',
      want: [U, U],
      lines: [3],
    },
    {
      name: '… which leaves other paths to the shorter rule',
      file: 'User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a\n',
      url: '/b',
      want: [D, U],
    },
    {
      name: 'a value not starting with / is all statement (here one that fails)',
      file: 'User-agent: *\nContent-Usage: *.pdf train-ai=n\n',
      url: '/x.pdf',
      want: [U, U],
    },
    {
      name: 'a path with SP written %20',
      file: 'User-agent: *\nContent-Usage: /a%20b train-ai=n\n',
      url: '/a%20b',
      want: [D, U],
    },
    {
      name: 'a missing colon is read as for every key',
      file: 'User-agent: *\nContent-Usage train-ai=n\n',
      url: '/a',
      want: [D, U],
    },
    {
      name: 'CRLF line ends',
      file: 'User-agent: *\r\nContent-Usage: train-ai=n\r\n',
      url: '/a',
      want: [D, U],
    },
  ]);
  it('the statement as written is reported', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\nContent-Usage: /a  \t train-ai=n, search=y   # c\n',
    );
    expect(robots.explainContentUsage('/a', 'Bot').rules[0]).toEqual({
      kind: 'content-usage',
      pattern: '/a',
      normalizedPattern: '/a',
      value: 'train-ai=n, search=y',
      line: 2,
      text: 'Content-Usage: /a  \t train-ai=n, search=y',
    });
  });
  it.each([
    // The key in its standard spelling, the value as written (the whitespace between path
    // and statement included), spacing around the key and the comment dropped.
    ['content-usage:train-ai=n', '/', 'Content-Usage: train-ai=n'],
    ['  CONTENT-USAGE :  /a/ train-ai=n # why', '/a/x', 'Content-Usage: /a/ train-ai=n'],
    ['content-signal: ai-train=no, search=yes', '/', 'Content-Signal: ai-train=no, search=yes'],
    ['Content-Usage: /caf%c3%a9 train-ai=n', '/caf%C3%A9', 'Content-Usage: /caf%c3%a9 train-ai=n'],
    ['Content-Usage: /b/', '/b/', 'Content-Usage: /b/'],
    ['Content-Usage: /ツ train-ai=n', '/ツ', 'Content-Usage: /ツ train-ai=n'],
  ])('the deciding line is quoted as read: %j', (line, url, text) => {
    const robots = parseRobotsTxt(`User-agent: *\n${line}\n`);
    expect(robots.explainContentUsage(url, 'Bot').rules.map((r) => r.text)).toEqual([text]);
    const bytes = new TextEncoder().encode(`User-agent: *\n${line}\n`);
    const fromBytes = parseRobotsTxt(bytes).explainContentUsage(url, 'Bot');
    expect(fromBytes.rules.map((r) => r.text)).toEqual([text]);
  });
});

describe('vocab §6.5 processing of a rule value', () => {
  const one = (value: string): Prefs =>
    prefs(parseRobotsTxt(`User-agent: *\nContent-Usage: ${value}\n`).contentUsage('/', 'Bot'));
  it.each([
    ['train-ai=y, search=n', [A, D]],
    ['train-ai=y, train-ai, search=n, search="n"', [U, U]],
    ['train-ai;allow=n, train-ai=y', [A, U]],
    ['train-ai;has;parameters="?";', [U, U]],
    ['train-ai;has;parameters="?"', [U, U]],
    ['train-ai=n;why="x"', [D, U]],
    ['Train-AI=n', [U, U]],
    ['train-ai=n, search=y,', [U, U]],
    ['train-ai=N', [U, U]],
    ['train-ai=no', [U, U]],
    ['train-ai=?0', [U, U]],
    ['train-ai="n"', [U, U]],
    ['train-ai=(n)', [U, U]],
    ['train-ai=n, train-ai=y', [A, U]],
    ['train-ai=y, train-ai=n', [D, U]],
    ['genai=n, train-ai=y', [A, U]],
    ['', [U, U]],
    ['train-ai=n,search=y', [D, A]],
    ['train-ai=n ,search=y', [D, A]],
    ['d=@1, train-ai=n', [D, U]],
  ] as const)('%j → %j', (value, want) => {
    expect(one(value)).toEqual(want);
  });

  it('extension labels are kept raw, with their source', () => {
    const p = parseRobotsTxt(
      'User-agent: *\nContent-Usage: /x genai=n;p=1, train-ai=n, z\n',
    ).contentUsage('/x', 'Bot');
    expect(p.extensions).toEqual([
      {
        label: 'genai',
        value: 'n',
        source: {
          kind: 'content-usage-rule',
          line: 2,
          pattern: '/x',
          text: 'Content-Usage: /x genai=n;p=1, train-ai=n, z',
        },
      },
      {
        label: 'z',
        value: '?1',
        source: {
          kind: 'content-usage-rule',
          line: 2,
          pattern: '/x',
          text: 'Content-Usage: /x genai=n;p=1, train-ai=n, z',
        },
      },
    ]);
  });
});

describe('vocab-08: ai-use in a Content-Usage rule', () => {
  const all = (p: UsagePreferences): UsagePreference[] => [p['train-ai'], p['ai-use'], p.search];
  it.each([
    ['Content-Usage: ai-use=n', [U, D, U]],
    ['Content-Usage: train-ai=y, ai-use=n, search=y', [A, D, A]],
    ['Content-Usage: ai-use=no', [U, U, U]],
    ['Content-Usage: Ai-Use=n', [U, U, U]],
    // search does not override the values of the other categories
    ['Content-Usage: search=y, ai-use=n, train-ai=n', [D, D, A]],
  ] as const)('%j → %j', (line, want) => {
    expect(all(parseRobotsTxt(`User-agent: *\n${line}\n`).contentUsage('/a', 'Bot'))).toEqual(want);
  });

  it('the longest path decides ai-use too; equal paths combine most-restrictively', () => {
    const robots = parseRobotsTxt(
      [
        'User-agent: *',
        'Content-Usage: ai-use=n',
        'Content-Usage: /rag/ ai-use=y',
        'Content-Usage: /mixed/ ai-use=y',
        'Content-Signal: /mixed/ ai-input=no',
      ].join('\n'),
    );
    expect(robots.contentUsage('/x', 'Bot')['ai-use']).toBe(D);
    expect(robots.contentUsage('/rag/x', 'Bot')['ai-use']).toBe(A);
    const mixed = robots.contentUsage('/mixed/x', 'Bot');
    expect(mixed['ai-use']).toBe(D);
    expect(mixed.sources['ai-use']).toEqual([
      {
        kind: 'content-signal-rule',
        line: 5,
        pattern: '/mixed/',
        text: 'Content-Signal: /mixed/ ai-input=no',
      },
    ]);
  });
});

describe('Content-Signal', () => {
  const cloudflare = [
    'User-Agent: *',
    'Content-Signal: search=yes, ai-train=no, ai-input=yes',
    'Allow: /',
  ].join('\n');
  it('Cloudflare’s line: ai-train → train-ai, ai-input → ai-use, search → search', () => {
    const robots = parseRobotsTxt(cloudflare);
    const p = robots.contentUsage('/page', 'Bot');
    expect(prefs(p)).toEqual([D, A]);
    expect(p['ai-use']).toBe(A);
    const source = {
      kind: 'content-signal-rule',
      line: 2,
      pattern: '',
      text: 'Content-Signal: search=yes, ai-train=no, ai-input=yes',
    };
    expect(p.sources).toEqual({ 'train-ai': [source], 'ai-use': [source], search: [source] });
    expect(p.extensions).toEqual([]);
    expect(robots.diagnostics).toEqual([]);
  });

  it('ai-input=no disallows ai-use; other keys stay raw; ai-use is not a Content-Signal key', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\nContent-Signal: ai-input=no, ai-use=yes, ai-search=yes\n',
    );
    const p = robots.contentUsage('/page', 'Bot');
    expect([p['train-ai'], p['ai-use'], p.search]).toEqual([U, D, U]);
    expect(p.extensions.map((e) => [e.label, e.value])).toEqual([
      ['ai-use', 'yes'],
      ['ai-search', 'yes'],
    ]);
  });

  it('ai-input with a value other than yes/no is unknown and linted', () => {
    const robots = parseRobotsTxt('User-agent: *\nContent-Signal: ai-input=y\n');
    expect(robots.contentUsage('/page', 'Bot')['ai-use']).toBe(U);
    expect(robots.diagnostics.map((d) => [d.line, d.code])).toEqual([[2, 'unknown-usage-value']]);
  });
  it('is read, not an ignored key: no ignored-key diagnostic, unlike a Noindex next to it', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\nContent-Signal: ai-train=no\nNoindex: /x\ncontent-signal: search=no\n',
    );
    expect(robots.diagnostics.map((d) => [d.line, d.code])).toEqual([[3, 'ignored-key']]);
    expect(prefs(robots.contentUsage('/a', 'Bot'))).toEqual([D, D]);
  });
  check([
    {
      name: 'combined with Content-Usage for the same path, most-restrictively',
      file: 'User-agent: *\nContent-Signal: ai-train=yes, search=no\nContent-Usage: train-ai=n, search=y\n',
      url: '/a',
      want: [D, D],
      lines: [2, 3],
    },
    {
      name: 'a longer Content-Usage path wins over a path-less Content-Signal',
      file: 'User-agent: *\nContent-Signal: ai-train=no\nContent-Usage: /a train-ai=y\n',
      url: '/a',
      want: [A, U],
    },
    {
      name: 'y / n are not yes / no',
      file: 'User-agent: *\nContent-Signal: ai-train=n, search=y\n',
      url: '/a',
      want: [U, U],
    },
    {
      name: 'train-ai is not a Content-Signal key',
      file: 'User-agent: *\nContent-Signal: train-ai=no\n',
      url: '/a',
      want: [U, U],
    },
    {
      name: 'a path, as for Content-Usage',
      file: 'User-agent: *\nContent-Signal: /p ai-train=no\n',
      url: '/p/q',
      want: [D, U],
    },
    {
      name: 'a Content-Signal line ends the agent lines of its group',
      file: 'User-agent: A\nContent-Signal: ai-train=no\nUser-agent: ExampleBot\nAllow: /\n',
      url: '/p',
      want: [U, U],
    },
  ]);
});

describe('lint', () => {
  const codes = (file: string): [number, string][] =>
    parseRobotsTxt(file).diagnostics.map((d) => [d.line, d.code]);
  it.each([
    ['User-agent: *\nContent-Usage: Train-AI=n\n', [[2, 'invalid-usage-value']]],
    ['User-agent: *\nContent-Usage: train-ai=n,\n', [[2, 'invalid-usage-value']]],
    ['User-agent: *\nContent-Usage: train-ai=no, search="n"\n', [[2, 'unknown-usage-value']]],
    ['User-agent: *\nContent-Signal: ai-train=n\n', [[2, 'unknown-usage-value']]],
    ['User-agent: *\nContent-Signal: search=yes, ai-train=no, ai-input=yes\n', []],
    ['User-agent: *\nContent-Usage: genai=maybe\n', []],
    ['User-agent: *\nContent-Usage: /a\n', [[2, 'empty-usage-statement']]],
    ['User-agent: *\nContent-Usage: /a   # nothing\n', [[2, 'empty-usage-statement']]],
    ['User-agent: *\nContent-Usage:\n', [[2, 'empty-usage-statement']]],
    ['Content-Usage: train-ai=n\nUser-agent: *\n', [[1, 'rule-outside-group']]],
    [
      'User-agent: *\nDisallow: /p\nContent-Usage: /p/x train-ai=n\n',
      [[3, 'usage-path-disallowed']],
    ],
    [
      'User-agent: *\nContent-Usage: /p/x train-ai=n\nDisallow: /p\n',
      [[2, 'usage-path-disallowed']],
    ],
    ['User-agent: *\nDisallow: /\nContent-Usage: train-ai=n\n', [[3, 'usage-path-disallowed']]],
    [
      'User-agent: *\nDisallow: /p\nContent-Usage: /p/x$ train-ai=n\n',
      [[3, 'usage-path-disallowed']],
    ],
    // Not blamed: something under the path may be crawled, or it cannot tell.
    ['User-agent: *\nDisallow: /p\nAllow: /p/x/ok\nContent-Usage: /p/x train-ai=n\n', []],
    ['User-agent: *\nDisallow: /p\nAllow: /*.html\nContent-Usage: /p/x train-ai=n\n', []],
    ['User-agent: *\nDisallow: /p$\nContent-Usage: /p train-ai=n\n', []],
    ['User-agent: *\nDisallow: /p\nContent-Usage: /p* train-ai=n\n', []],
    ['User-agent: *\nDisallow: /q\nContent-Usage: /p train-ai=n\n', []],
    // Another group's Disallow is not this group's.
    ['User-agent: A\nDisallow: /p\nUser-agent: B\nContent-Usage: /p train-ai=n\n', []],
    // An Allow as long as the Disallow wins the tie.
    ['User-agent: *\nDisallow: /p\nAllow: /p\nContent-Usage: /p/x train-ai=n\n', []],
  ] as const)('%j', (file, want) => {
    expect(codes(file)).toEqual(want);
  });

  it('each diagnostic has a severity and a message naming the problem', () => {
    const d = parseRobotsTxt('User-agent: *\nDisallow: /p\nContent-Usage: /p/x train-ai=n\n')
      .diagnostics[0]!;
    expect(d.severity).toBe('error');
    expect(d.message).toContain('/p/x');
    expect(d.message).toContain('line 2');
  });

  it('a long pattern is shortened in the message, the blocking line kept', () => {
    const long = '/p/' + 'x'.repeat(100);
    const d = parseRobotsTxt(`User-agent: *\nDisallow: /p\nContent-Usage: ${long} train-ai=n\n`)
      .diagnostics[0]!;
    expect(d.code).toBe('usage-path-disallowed');
    expect(d.message).toContain('(line 2)');
    expect(d.message).toContain('/p/xxx');
  });

  it('usage diagnostics count against maxDiagnostics', () => {
    const file = 'User-agent: *\n' + 'Content-Usage: X=n\n'.repeat(5);
    const at = parseRobotsTxt(file, { maxDiagnostics: 5 }).diagnostics;
    expect(at.map((d) => d.code)).toEqual(Array<string>(5).fill('invalid-usage-value'));
    const past = parseRobotsTxt(file, { maxDiagnostics: 4 }).diagnostics;
    expect(past.map((d) => d.code)).toEqual([
      ...Array<string>(4).fill('invalid-usage-value'),
      'too-many-diagnostics',
    ]);
    const withScan = parseRobotsTxt('foo: bar\n' + file, { maxDiagnostics: 1 }).diagnostics;
    expect(withScan.map((d) => d.code)).toEqual(['unknown-key', 'too-many-diagnostics']);
    // An ignored-key info diagnostic of the scan takes its place in the same budget.
    const withIgnored = parseRobotsTxt('Noindex: /x\n' + file, { maxDiagnostics: 3 }).diagnostics;
    expect(withIgnored.map((d) => [d.line, d.code])).toEqual([
      [1, 'ignored-key'],
      [3, 'invalid-usage-value'],
      [4, 'invalid-usage-value'],
      [5, 'too-many-diagnostics'],
    ]);
    expect(withIgnored[3]!.message).toContain('More than 3 diagnostics');
  });
});

describe('API', () => {
  it('a file without usage rules: unknown, reason says why', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /p\n');
    expect(robots.explainContentUsage('/a', 'Bot').reason).toBe('no-matching-rule');
    expect(robots.explainContentUsage('/p', 'Bot').reason).toBe('path-disallowed');
    expect(parseRobotsTxt('').explainContentUsage('/a', 'Bot').reason).toBe('no-applicable-group');
    expect(prefs(robots.contentUsage('/a', 'Bot'))).toEqual([U, U]);
  });
  it('bad agents and URLs throw as isAllowed does', () => {
    const robots = parseRobotsTxt('User-agent: *\nContent-Usage: train-ai=n\n');
    expect(() => robots.contentUsage('/a', 'bad agent')).toThrow(/agent/);
    expect(() => robots.contentUsage('nope', 'Bot')).toThrow(/URL/);
  });
  it('results are frozen', () => {
    const v = parseRobotsTxt('User-agent: *\nContent-Usage: train-ai=n, x=1\n').explainContentUsage(
      '/',
      'Bot',
    );
    expect(Object.isFrozen(v)).toBe(true);
    expect(Object.isFrozen(v.preferences)).toBe(true);
    expect(Object.isFrozen(v.preferences.extensions)).toBe(true);
    expect(Object.isFrozen(v.rules[0])).toBe(true);
  });
  it('bytes that are not UTF-8: paths are matched as raw octets', () => {
    const body = new Uint8Array([
      ...new TextEncoder().encode('User-agent: *\nContent-Usage: /'),
      0xe9,
      ...new TextEncoder().encode(' train-ai=n\n'),
    ]);
    const robots = parseRobotsTxt(body);
    expect(robots.contentUsage('/%E9', 'Bot')['train-ai']).toBe(D);
    expect(robots.explainContentUsage('/%E9', 'Bot').rules[0]!.normalizedPattern).toBe('/%E9');
  });
  it('a non-ASCII statement fails to parse (the field is ASCII bytes)', () => {
    const robots = parseRobotsTxt('User-agent: *\nContent-Usage: train-ai=n, x="é"\n');
    expect(robots.contentUsage('/', 'Bot')['train-ai']).toBe(U);
  });
});

describe('the line report', () => {
  it('names the keys content-usage and content-signal', async () => {
    const { reportRobotsTxtLines } = await import('@polite-crawler/robots-txt');
    const report = reportRobotsTxtLines(
      'User-agent: *\nContent-Usage: /a train-ai=n\ncontent-SIGNAL: search=yes\n',
    );
    expect(report.lines.slice(0, 3).map((l) => [l.key, l.value])).toEqual([
      ['user-agent', '*'],
      ['content-usage', '/a train-ai=n'],
      ['content-signal', 'search=yes'],
    ]);
  });
});

describe('forAgent(agent).contentUsage / explainContentUsage', () => {
  it('answers as the file does for that agent', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\nDisallow: /p\nContent-Usage: train-ai=n\nUser-agent: ExampleBot\nContent-Usage: search=n\n',
    );
    const star = robots.forAgent('Other');
    const mine = robots.forAgent({ productToken: 'ExampleBot' });
    for (const url of ['/a', '/p/x', 'https://example.com/b?c']) {
      expect(star.contentUsage(url)).toEqual(robots.contentUsage(url, 'Other'));
      expect(star.explainContentUsage(url)).toEqual(robots.explainContentUsage(url, 'Other'));
      expect(mine.contentUsage(url)).toEqual(robots.contentUsage(url, 'ExampleBot'));
    }
    expect(star.explainContentUsage('/p/x').reason).toBe('path-disallowed');
    expect(prefs(mine.contentUsage('/p/x'))).toEqual([U, D]);
  });
});
