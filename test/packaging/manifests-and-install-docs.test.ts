/**
 * What a user installs, checked from the sources without packing (scripts/consumer-test.mjs
 * packs and installs for real, in CI): each package's manifest and LICENSE, and each README's
 * install section — the tarballs it names, the peers, the one Node statement.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { installCommands, installSection } from '../../scripts/readme-install.mjs';

const root = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  files?: string[];
  exports?: Record<string, unknown>;
  repository?: { url?: string; directory?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const folders = readdirSync(new URL('packages/', root), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const manifests = new Map(
  folders.map((folder) => [
    folder,
    JSON.parse(read(`packages/${folder}/package.json`)) as Manifest,
  ]),
);
const byName = new Map([...manifests].map(([folder, manifest]) => [manifest.name, folder]));
const rootManifest = JSON.parse(read('package.json')) as Manifest;

/** The version of `name` the repository develops against (root or package devDependency). */
function developedWith(name: string): string | undefined {
  for (const manifest of [rootManifest, ...manifests.values()]) {
    const range = manifest.devDependencies?.[name];
    if (range !== undefined) return range;
  }
  return undefined;
}

/** `^20.19.0 || ^22.12.0 || ^24.0.0` → `Node 20.19+, 22.12+ or 24`. */
function nodeStatement(engines: string): string {
  const lines = engines.split('||').map((range) => {
    const match = /^\s*\^(\d+)\.(\d+)\.0\s*$/.exec(range);
    if (match === null) throw new Error(`engines range "${range}" is not ^major.minor.0`);
    return match[2] === '0' ? match[1]! : `${match[1]}.${match[2]}+`;
  });
  return `Node ${lines.slice(0, -1).join(', ')} or ${lines.at(-1)}`;
}

/** The `@polite-crawler` packages `folder` needs installed: itself and its dependencies'. */
function closure(folder: string, seen = new Set<string>()): Set<string> {
  seen.add(folder);
  for (const dep of Object.keys(manifests.get(folder)?.dependencies ?? {})) {
    const depFolder = byName.get(dep);
    if (depFolder !== undefined && !seen.has(depFolder)) closure(depFolder, seen);
  }
  return seen;
}

describe('package manifests', () => {
  const license = read('LICENSE');

  it.each(folders)('%s: LICENSE is the repository one and is packed', (folder) => {
    expect(read(`packages/${folder}/LICENSE`)).toBe(license);
    expect(manifests.get(folder)?.files).toContain('LICENSE');
  });

  it.each(folders)('%s: engines is the root one', (folder) => {
    expect(manifests.get(folder)?.engines?.node).toBe(rootManifest.engines?.node);
  });

  it.each(folders)('%s: repository points at its folder', (folder) => {
    expect(manifests.get(folder)?.repository?.directory).toBe(`packages/${folder}`);
  });

  it.each(folders)(
    '%s: every export has types first and a default condition (require() of the ESM build)',
    (folder) => {
      const exports = manifests.get(folder)?.exports ?? {};
      expect(Object.keys(exports)).toContain('.');
      for (const [subpath, target] of Object.entries(exports)) {
        if (typeof target === 'string') {
          expect(subpath, 'only ./package.json is exported as a plain file').toBe('./package.json');
          continue;
        }
        const conditions = Object.keys(target as object);
        expect(conditions[0], `${subpath}: "types" must come first`).toBe('types');
        // require() on Node 20.19+/22.12+ matches "require", "module-sync", "node" or
        // "default"; an "import"-only map gives ERR_PACKAGE_PATH_NOT_EXPORTED.
        expect(conditions, `${subpath}: needs "default"`).toContain('default');
        expect(conditions, `${subpath}: "import" would be an ESM-only condition`).not.toContain(
          'import',
        );
      }
    },
  );
});

describe('README install sections', () => {
  const statement = nodeStatement(rootManifest.engines?.node ?? '');

  it('the root README states the Node versions of engines', () => {
    expect(read('README.md')).toContain(statement);
  });

  it.each(folders)(
    '%s: names the tarballs it needs, its peers, and the Node versions',
    (folder) => {
      const section = installSection(read(`packages/${folder}/README.md`));
      for (const needed of closure(folder)) {
        const { name, version } = manifests.get(needed)!;
        expect(section).toContain(`${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
      }
      for (const peer of Object.keys(manifests.get(folder)?.peerDependencies ?? {})) {
        expect(section).toMatch(new RegExp(`npm install [^\\n]*${peer}`));
      }
      expect(section).not.toContain('/packages/'); // a folder install links the repository's copy
      expect(section.replace(/\s+/g, ' ')).toContain(statement);
    },
  );

  it.each(folders)(
    '%s: every install line is what the consumer test installs: known tarballs, developed registry packages',
    (folder) => {
      const commands = installCommands(read(`packages/${folder}/README.md`));
      expect(commands.length).toBeGreaterThan(0);
      const tarballs = new Set(
        [...manifests.values()].map(
          ({ name, version }) => `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`,
        ),
      );
      for (const command of commands) {
        for (const tarball of command.tarballs) expect(tarballs, command.line).toContain(tarball);
        // scripts/consumer-test.mjs pins each name to the version developed against (crawlee:
        // that of @crawlee/core): a devDependency of the root or of a package.
        for (const name of command.registry) {
          const developed = name === 'crawlee' ? '@crawlee/core' : name;
          expect(developedWith(developed), `${command.line}: ${name}`).toBeDefined();
        }
      }
    },
  );

  it("the PlaywrightCrawler line names playwright: Crawlee's default launcher requires it", () => {
    const playwrightLines = installCommands(read('packages/crawlee/README.md')).filter((command) =>
      command.tarballs.some((tarball) => tarball.startsWith('polite-crawler-playwright-')),
    );
    expect(playwrightLines).toHaveLength(1);
    expect(playwrightLines[0]!.registry).toEqual(
      expect.arrayContaining(['crawlee', 'playwright', 'playwright-core']),
    );
  });

  it('the Crawlee and Playwright install lines include @polite-crawler/fetch', () => {
    for (const folder of ['crawlee', 'playwright']) {
      const lines = installSection(read(`packages/${folder}/README.md`))
        .split('\n')
        .filter((line) => line.startsWith('npm install'));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toContain('polite-crawler-fetch-');
    }
  });
});
