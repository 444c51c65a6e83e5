/**
 * What a user installs, checked from the sources without packing (scripts/consumer-test.mjs
 * packs and installs for real, in CI): each package's manifest and LICENSE. The READMEs'
 * install sections are held to these manifests by the docs check (scripts/check-docs.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

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
const rootManifest = JSON.parse(read('package.json')) as Manifest;

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
