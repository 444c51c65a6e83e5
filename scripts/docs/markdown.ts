// Reading the parts of a README the docs check compares with the code: sections, tables, code
// blocks and links. Plain string work on GitHub-flavoured markdown as this repository writes it.

/** The text under `heading` (a whole heading line, `## Errors`), up to the next heading of its level or above. */
export function section(markdown: string, heading: string): string | undefined {
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start === -1) return undefined;
  let fenced = false; // a `# comment` in a shell block is not a heading
  const end = lines.findIndex((line, index) => {
    if (line.startsWith('```')) fenced = !fenced;
    return index > start && !fenced && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= level;
  });
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** The cells of a table row: split on `|` that is not escaped, trimmed. */
export function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

/** The body rows (header and separator left out) of the first table in `text`. */
export function tableRows(text: string): string[][] {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  if (first === -1) return [];
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(cells(line));
  }
  return rows;
}

/** Every table in `text`, each as its body rows and the line (0-based, in `text`) of its header. */
export function tables(text: string): { rows: string[][]; line: number }[] {
  const lines = text.split('\n');
  const found: { rows: string[][]; line: number }[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!lines[index]!.startsWith('|') || !/^\|\s*-/.test(lines[index + 1] ?? '')) continue;
    const rows: string[][] = [];
    let at = index + 2;
    for (; at < lines.length && lines[at]!.startsWith('|'); at++) rows.push(cells(lines[at]!));
    found.push({ rows, line: index });
    index = at;
  }
  return found;
}

/** `` `x` `` → `x`. */
export const unquote = (cell: string): string => cell.replace(/^`|`$/g, '');

/** The names in backticks in a cell: `` `a`, `b` (`c` \| `d`) `` → a, b, c, d. */
export const codeSpans = (cell: string): string[] =>
  [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

export interface CodeBlock {
  readonly lang: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly code: string;
  /**
   * TypeScript the block needs but does not show (imports, `declare const` of the names a
   * fragment takes as given), from a `<!-- docs-check: context ... -->` comment right above it.
   */
  readonly context: string;
}

const CONTEXT_START = '<!-- docs-check: context\n';
/** The comment, when it is the last thing before the fence. */
const CONTEXT = /^<!-- docs-check: context\n([\s\S]*?)-->\s*$/;

/** Every fenced code block, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)/.exec(lines[index]!);
    if (open === null) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith('```'));
    if (end === -1) throw new Error(`line ${index + 1}: unclosed code block`);
    const before = lines.slice(0, index).join('\n');
    blocks.push({
      lang: open[1]!,
      line: index + 1,
      code: lines.slice(index + 1, end).join('\n'),
      context: CONTEXT.exec(before.slice(before.lastIndexOf(CONTEXT_START)))?.[1] ?? '',
    });
    index = end;
  }
  return blocks;
}

/** Relative link targets (`[text](target)`) with their lines, anchors and URLs left out. */
export function relativeLinks(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  markdown.split('\n').forEach((text, index) => {
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!.replace(/#.*$/, '');
      if (target === '' || /^[a-z]+:/i.test(target)) continue;
      links.push({ target, line: index + 1 });
    }
  });
  return links;
}

/** 1-based line of the first occurrence of `text`, for messages. */
export function lineOf(markdown: string, text: string): number | undefined {
  const at = markdown.indexOf(text);
  return at === -1 ? undefined : markdown.slice(0, at).split('\n').length;
}
