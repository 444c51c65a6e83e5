/** The text of the README's "## Install" section, up to the next "## " heading. */
export function installSection(readme: string): string;

/** One `npm install` line of a README's install section, split into what it installs. */
export interface InstallCommand {
  readonly line: string;
  readonly global: boolean;
  /** Tarball file names (`polite-crawler-fetch-0.1.0.tgz`), from the `$P/<file>` words. */
  readonly tarballs: string[];
  /** Registry package names, as written (`crawlee`, `@crawlee/core`, `playwright`). */
  readonly registry: string[];
}

/** Each `npm install` line of the README's install section. */
export function installCommands(readme: string): InstallCommand[];
