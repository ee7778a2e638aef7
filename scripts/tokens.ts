/**
 * Access tokens for ingest, export and review.
 *   npm run tokens -- create --name NAME --scope ingest[,export][,review]   prints the secret once, alone on the last line
 *   npm run tokens -- list
 *   npm run tokens -- revoke NAME
 * Works while the server runs, against the same ARCHIVE_DATA_DIR. Secrets are stored as SHA-256 only.
 */
import { describeStore } from '../src/backend.ts';
import type { StoreBackend } from '../src/backend.ts';
import { generateSecret, secretSha256 } from '../src/auth/secrets.ts';
import type { Config } from '../src/config.ts';
import { readSubcommand } from './arguments.ts';
import { readCommandLine, runStoreCommand, startCommandLine } from './command.ts';
import { TOKEN_SCOPES } from '../src/domain/submission.ts';
import type { TokenScope } from '../src/domain/submission.ts';

const USAGE = 'usage: npm run tokens -- create --name NAME --scope ingest[,export][,review] | list | revoke NAME';

startCommandLine(USAGE);

const { subcommand: command, operands, values } = readCommandLine((args) =>
  readSubcommand(
    {
      name: 'tokens',
      usage: USAGE,
      options: { name: { type: 'string' }, scope: { type: 'string' } },
      subcommands: { create: { options: ['name', 'scope'], operands: [0, 0] }, list: { options: [], operands: [0, 0] }, revoke: { options: [], operands: [1, 1] } },
    },
    args,
  ),
);

async function main(backend: StoreBackend, config: Config): Promise<void> {
  const [argument = ''] = operands;
  if (command === 'create') {
    const name = values.name ?? '';
    const scopes = (values.scope ?? '').split(',').map((scope) => scope.trim()).filter(Boolean);
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) throw new Error(`--name must be 1–64 letters, digits, dots, dashes or underscores\n${USAGE}`);
    const unknown = scopes.filter((scope) => !(TOKEN_SCOPES as readonly string[]).includes(scope));
    if (scopes.length === 0 || unknown.length) throw new Error(`--scope must list ${TOKEN_SCOPES.join(' and/or ')}, comma-separated\n${USAGE}`);
    const revoked = (await backend.tokens.listTokens()).find((token) => token.name === name && token.revokedAt);
    // Names are never reused: submissions and reviews name their token, and must keep naming one holder.
    if (revoked) throw new Error(`a token named "${name}" existed and was revoked on ${revoked.revokedAt}; names are not reused, so that its submissions and reviews keep naming one holder: choose another name (e.g. ${name}-2)`);
    const secret = generateSecret();
    await backend.tokens.createToken(name, [...new Set(scopes)] as TokenScope[], secretSha256(secret));
    console.log(`created token "${name}" with scope ${[...new Set(scopes)].join(',')} in ${describeStore(config)}`);
    console.log('the secret is shown once; store it now:');
    console.log(secret);
  } else if (command === 'list') {
    const tokens = await backend.tokens.listTokens();
    if (tokens.length === 0) console.log('no tokens');
    for (const token of tokens) console.log(`${token.name}\t${token.scopes.join(',')}\tcreated ${token.createdAt}\t${token.revokedAt ? `revoked ${token.revokedAt}` : 'active'}`);
  } else {
    if (!(await backend.tokens.revokeToken(argument))) throw new Error(`no active token named "${argument}"`);
    console.log(`revoked token "${argument}"`);
  }
}

runStoreCommand(main);
