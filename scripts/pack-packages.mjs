// Packs every package under packages/ into installable tarballs, the way they would be
// published: `pnpm pack` rewrites `workspace:*` to the exact version (`npm pack` would keep it,
// and npm then refuses the tarball with EUNSUPPORTEDPROTOCOL).
//
//   node scripts/pack-packages.mjs [destination]     (default: ./packed)
//
// Build first (`pnpm build`): the tarballs hold dist/ as it is. `pnpm pack:tarballs` does both.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The workspace's publishable packages: `{ name, version, folder }` for each packages/<folder>. */
export function workspacePackages() {
  const packagesDir = join(repositoryRoot, 'packages');
  return readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const manifest = JSON.parse(
        readFileSync(join(packagesDir, entry.name, 'package.json'), 'utf8'),
      );
      return { name: manifest.name, version: manifest.version, folder: entry.name };
    })
    .filter((pkg) => typeof pkg.name === 'string')
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The file name `pnpm pack` gives a package's tarball: `@scope/name` → `scope-name-1.2.3.tgz`. */
export function tarballName({ name, version }) {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

/**
 * Packs every workspace package into `destination` (emptied first) and returns each package
 * with the absolute path of its tarball.
 */
export function packPackages(destination) {
  const target = resolve(destination);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync(
    'npx',
    ['-y', 'pnpm@10', '-r', '--filter', './packages/*', 'pack', '--pack-destination', target],
    { cwd: repositoryRoot, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const packed = new Set(readdirSync(target));
  return workspacePackages().map((pkg) => {
    const file = tarballName(pkg);
    if (!packed.has(file)) throw new Error(`pnpm pack wrote no ${file} for ${pkg.name}`);
    return { ...pkg, tarball: join(target, file) };
  });
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const destination = process.argv[2] ?? join(repositoryRoot, 'packed');
  for (const { tarball } of packPackages(destination)) console.log(tarball);
}
