import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openBackend } from '../../src/backend.ts';
import { secretSha256 } from '../../src/auth/secrets.ts';
import { temporaryDataDir } from '../helpers/server.ts';
import { searchEnvironment } from '../helpers/server-process.ts';

const run = promisify(execFile);

describe('npm run tokens', function () {
  this.timeout(30_000);

  it('creates a token whose secret is printed alone on the last line, stored only as its SHA-256, then lists and revokes it', async () => {
    const dataDir = temporaryDataDir();
    const env = { ...process.env, ARCHIVE_DATA_DIR: dataDir, ...searchEnvironment(dataDir, {}) };
    const tokens = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'scripts/tokens.ts', ...args], { env });
    try {
      // A folder without an archive (a mistyped ARCHIVE_DATA_DIR) is refused: a token made there would be one the server never sees.
      const refused = await tokens('create', '--name', 'lin-bot', '--scope', 'ingest').catch((error: { stderr: string; code: number }) => error);
      expect(refused).to.include({ code: 1 });
      expect((refused as { stderr: string }).stderr).to.match(/^no archive database at .*archive\.sqlite; check ARCHIVE_DATA_DIR/);
      await (await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true })).close();
      const created = await tokens('create', '--name', 'lin-bot', '--scope', 'ingest,export');
      const secret = created.stdout.trim().split('\n').at(-1) ?? '';
      expect(secret).to.match(/^mwa_[A-Za-z0-9_-]{43}$/);
      const backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: false });
      expect((await backend.tokens.findActiveToken(secretSha256(secret)))?.scopes).to.deep.equal(['ingest', 'export']);
      await backend.close();
      const { execSync } = await import('node:child_process');
      expect(execSync(`grep -c '${secret}' ${join(dataDir, 'archive.sqlite')} || true`).toString().trim()).to.equal('0');
      expect((await tokens('list')).stdout).to.match(/lin-bot\tingest,export\tcreated .*\tactive/);
      let failure: { stderr?: string } = {};
      await tokens('create', '--name', 'lin-bot', '--scope', 'ingest').catch((error: { stderr?: string }) => (failure = error));
      expect(failure.stderr).to.match(/exists/);
      await tokens('create', '--name', 'x', '--scope', 'admin').catch((error: { stderr?: string }) => (failure = error));
      expect(failure.stderr).to.match(/--scope/);
      expect((await tokens('revoke', 'lin-bot')).stdout).to.match(/revoked/);
      expect((await tokens('list')).stdout).to.match(/lin-bot.*revoked/);
      await tokens('create', '--name', 'lin-bot', '--scope', 'ingest').catch((error: { stderr?: string }) => (failure = error));
      expect(failure.stderr).to.match(/^a token named "lin-bot" existed and was revoked on .*choose another name/);
      const again = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: false });
      expect(await again.tokens.findActiveToken(secretSha256(secret))).to.equal(undefined);
      await again.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
