// Runs a shell command on a Node.js the packages support (22.19 or later). On an older Node —
// CI's machine ships Node 20 — it runs the command on the registry's node@24 instead (`npx -y
// node@24`, the same registry pnpm installs from; nothing else is contacted), and says so in
// one line, as ensure-system-deps.mjs does for Chromium and Redis. That Node goes first on PATH,
// so every `node` the command starts (vitest, the CLI, child processes) is that one.
//
//   node scripts/on-supported-node.mjs "pnpm run build && vitest run"
import { execFileSync, spawn } from 'node:child_process';
import { delimiter, dirname } from 'node:path';

const command = process.argv.slice(2).join(' ');
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const supported = major > 22 || (major === 22 && minor >= 19);

let env = process.env;
if (!supported) {
  const node = execFileSync('npx', ['-y', 'node@24', '-p', 'process.execPath'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  console.log(
    `[setup] Node ${process.version} is older than 22.19, which the packages need: running on the registry's node@24 (${version})`,
  );
  env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
}

const child = spawn(command, { shell: true, stdio: 'inherit', env });
child.on('exit', (code, signal) => {
  if (signal !== null) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
