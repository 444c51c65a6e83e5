import type { Command } from 'commander';
import { generateSignatureKey } from '@polite-crawler/fetch';
import type { CliContext } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { writeJson } from '../output/write-json.js';

interface KeysOptionValues {
  readonly json?: boolean;
}

/** Where the directory is served by convention (draft-ietf-webbotauth-httpsig-protocol). */
const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';

/**
 * Registers `polite keys [--json]`: a new Ed25519 key pair for Web Bot Auth signatures, the key
 * directory (JWKS) to publish and the response headers to serve it with.
 */
export function registerKeysCommand(program: Command, context: CliContext): void {
  program
    .command('keys')
    .description(
      'generate an Ed25519 key pair for Web Bot Auth signatures, with its key directory and headers',
    )
    .option('--json', 'print one JSON document { privateKey, keyid, directory, headers }')
    .action(async (options: KeysOptionValues) => {
      const key = await generateSignatureKey();
      if (options.json === true) {
        writeJson(context.stdout, key);
      } else {
        const headerLines = Object.entries(key.headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join('\n');
        context.stdout.write(
          [
            `# Private key (keep it secret): the signature option's key`,
            JSON.stringify(key.privateKey, null, 2),
            '',
            `# Key directory: serve it at https://<your host>${DIRECTORY_PATH}`,
            `# and pass that URL as the signature option's agent`,
            JSON.stringify(key.directory, null, 2),
            '',
            '# Response headers to serve the directory with',
            headerLines,
            '',
            `# keyid (JWK thumbprint): ${key.keyid}`,
            '',
          ].join('\n'),
        );
      }
      context.exitCode = ExitCode.ok;
    });
}
