// `pnpm bench`: builds the packages, then runs every test/bench/*.bench.ts in its own Node
// process (with --expose-gc for the memory figures). Each benchmark prints its table and
// writes it to test/bench/results/<name>.md. tsx is given test/bench/tsconfig.dist.json (no
// `paths`): a built package then loads its built dependencies, as it does for a user.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(new URL('../test/bench/', import.meta.url))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

// The pnpm that runs this script (`pnpm bench` sets npm_execpath to it); pnpm is not always on
// PATH (`npx -y pnpm@10 bench` puts it in npx's cache only).
const pnpm = process.env.npm_execpath;
if (pnpm !== undefined && /pnpm/.test(pnpm)) {
  execFileSync(process.execPath, [pnpm, 'run', 'build'], { cwd: root, stdio: 'inherit' });
} else {
  execFileSync('npx', ['-y', 'pnpm@10', 'run', 'build'], { cwd: root, stdio: 'inherit' });
}
for (const file of benches) {
  console.log(`\n== ${file}`);
  execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', `test/bench/${file}`], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TSX_TSCONFIG_PATH: 'test/bench/tsconfig.dist.json' },
  });
}
