// Compiles TypeScript taken from the READMEs (their code blocks, and statements the docs check
// writes from README tables) against the packages' public types, as a user's project would:
// each snippet is a module of its own, `@polite-crawler/<name>` is the package's public index
// (its sources, so no build is needed) and every other import resolves from the repository's
// node_modules. Only the snippets' own diagnostics are reported; the sources are the root
// typecheck's job.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, so that imports of registry packages resolve as in a project that
// installed them; under node_modules, so that nothing here is committed or linted.
const WORK = `${ROOT}node_modules/.cache/docs-check/`;

export interface Snippet {
  /** The README it comes from, relative to the repository: `packages/fetch/README.md`. */
  readonly file: string;
  /** The README line the snippet's text starts on (for a statement written from a table: its row). */
  readonly line: number;
  /**
   * Lines of `code` before its README text (a block's hidden context); `undefined` for a
   * statement written from a table, whose every error is reported at `line`.
   */
  readonly offset?: number;
  readonly code: string;
}

// The READMEs import `crawlee`, the package a user installs; this repository develops against
// its parts (@crawlee/core, /cheerio, /playwright), whose exports `crawlee` re-exports.
const CRAWLEE = `export * from '@crawlee/cheerio';
export { PlaywrightCrawler } from '@crawlee/playwright';
export type { PlaywrightCrawlingContext } from '@crawlee/playwright';
`;

/**
 * Parsed files outside the snippets' folder (the packages' sources, node_modules' declarations,
 * TypeScript's lib files), by path, kept with the text they were parsed from: the docs test
 * compiles the READMEs twice in one process (as they are, and with drifts put in), and parsing
 * these ~1,000 files is most of a compile's time. A file whose text changed is parsed again.
 */
const parsed = new Map<string, { readonly text: string; readonly file: ts.SourceFile }>();
/** The last program, handed to the next as `oldProgram` (module resolutions are reused). */
let previous: ts.Program | undefined;

function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (fileName.startsWith(WORK))
      return getSourceFile(fileName, languageVersion, onError, shouldCreate);
    const text = host.readFile(fileName);
    const cached = parsed.get(fileName);
    if (text !== undefined && cached?.text === text) return cached.file;
    const file = getSourceFile(fileName, languageVersion, onError, shouldCreate);
    if (file !== undefined && text !== undefined) parsed.set(fileName, { text, file });
    return file;
  };
  return host;
}

/** Type errors of each snippet, as `origin line: message`; an empty list when all compile. */
export function typecheck(snippets: readonly Snippet[]): string[] {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  writeFileSync(`${WORK}package.json`, '{ "type": "module" }\n');
  writeFileSync(`${WORK}crawlee.ts`, CRAWLEE);
  const files = snippets.map((snippet, index) => {
    const file = `${WORK}snippet-${index}.ts`;
    // `export {}` makes a fragment without imports a module too (top-level await, own scope).
    writeFileSync(file, `${snippet.code}\nexport {};\n`);
    return file;
  });
  const base = ts.readConfigFile(`${ROOT}tsconfig.base.json`, (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(
    {
      ...base.config,
      compilerOptions: {
        ...base.config.compilerOptions,
        noEmit: true,
        declaration: false,
        declarationMap: false,
        sourceMap: false,
        // A README example may leave a value unused (`const html = await response.text()`).
        noUnusedLocals: false,
        paths: {
          '@polite-crawler/*': [`${ROOT}packages/*/src/index.ts`],
          crawlee: [`${WORK}crawlee.ts`],
        },
      },
    },
    ts.sys,
    WORK,
  );
  const program = ts.createProgram({
    rootNames: files,
    options,
    host: cachingHost(options),
    ...(previous === undefined ? {} : { oldProgram: previous }),
  });
  previous = program;
  const problems: string[] = [];
  files.forEach((file, index) => {
    const source = program.getSourceFile(file)!;
    const snippet = snippets[index]!;
    for (const diagnostic of [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ]) {
      const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      const shown = snippet.code.split('\n')[line]?.trim() ?? '';
      const at =
        snippet.offset === undefined
          ? snippet.line
          : snippet.line + Math.max(0, line - snippet.offset);
      problems.push(`${snippet.file}:${at}: TS${diagnostic.code} ${text}\n    ${shown}`);
    }
  });
  return problems;
}
