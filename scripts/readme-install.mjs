// The install commands a package README gives its users, read from its "## Install" section:
// the one source of what a user installs. scripts/consumer-test.mjs installs exactly these (the
// registry names pinned to the versions the repository develops against), and
// the docs check (scripts/check-docs.ts) checks them against the manifests.

/**
 * The text of the README's "## Install" section, up to the next "## " heading.
 * @param {string} readme
 * @returns {string}
 */
export function installSection(readme) {
  const start = readme.indexOf('\n## Install\n');
  if (start === -1) throw new Error('no "## Install" section');
  const rest = readme.slice(start + 1);
  const next = rest.indexOf('\n## ', 1);
  return next === -1 ? rest : rest.slice(0, next);
}

/**
 * Each `npm install` line of the README's install section, split into what it installs:
 * `$P/<file>.tgz` words are tarballs (by file name), other words registry package names, as
 * written. A word of another form (a flag other than `--global`, another variable) is an error:
 * the consumer test could not install it as the README means it.
 * @param {string} readme
 * @returns {{ line: string, global: boolean, tarballs: string[], registry: string[] }[]}
 */
export function installCommands(readme) {
  return installSection(readme)
    .split('\n')
    .filter((line) => line.startsWith('npm install '))
    .map((line) => {
      const command = { line, global: false, tarballs: [], registry: [] };
      for (const word of line.slice('npm install '.length).trim().split(/\s+/)) {
        if (word === '--global') command.global = true;
        else if (/^\$P\/[\w.-]+\.tgz$/.test(word)) command.tarballs.push(word.slice('$P/'.length));
        else if (/^(@[a-z0-9-]+\/)?[a-z0-9][a-z0-9._-]*$/.test(word)) command.registry.push(word);
        else throw new Error(`"${word}" in "${line}": not a $P/<file>.tgz or a package name`);
      }
      return command;
    });
}
