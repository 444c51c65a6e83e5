// Installs the system packages the test suite needs (Debian's chromium for the browser tests,
// Debian's redis-server for the fleet tests, which start their own server on a free port, and
// redis-tools' redis-cli, which joins three such servers into a Redis Cluster) when they are
// missing. Runs before the tests so that the README's one test command is
// all the set-up a fresh machine needs. Never skips: if it cannot install, it says why and
// the browser tests fail loudly.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const needed = [
  { pkg: 'chromium', file: '/usr/bin/chromium' },
  { pkg: 'redis-server', file: '/usr/bin/redis-server' },
  { pkg: 'redis-tools', file: '/usr/bin/redis-cli' },
].filter((p) => !existsSync(p.file));
if (needed.length > 0) {
  const names = needed.map((p) => p.pkg);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = isRoot ? [] : ['sudo', '-n'];
  const run = (args) => {
    const [cmd, ...rest] = [...sudo, ...args];
    execFileSync(cmd, rest, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  };
  try {
    console.log(`[setup] installing ${names.join(', ')} with apt-get`);
    run(['apt-get', 'update', '-qq']);
    run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...names]);
  } catch (error) {
    console.error(
      `[setup] could not install ${names.join(', ')} (${error.message}); the browser and fleet tests will fail. Install them with: apt-get install ${names.join(' ')}`,
    );
  }
}
