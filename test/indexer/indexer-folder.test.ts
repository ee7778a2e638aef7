import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { temporaryDataDir } from '../helpers/server.ts';
import { searchEnvironment } from '../helpers/server-process.ts';

const run = promisify(execFile);

describe('npm run indexer on a folder without an archive', function () {
  this.timeout(30_000);

  it('refuses, naming ARCHIVE_DATA_DIR, and makes no archive there', async () => {
    const dataDir = temporaryDataDir();
    const env = { ...process.env, ARCHIVE_DATA_DIR: dataDir, ...searchEnvironment(dataDir, {}) };
    try {
      const refused = await run(process.execPath, ['--import', 'tsx', 'indexer/main.ts'], { env, timeout: 20_000 }).catch((error: { stderr: string; code: number }) => error);
      expect(refused).to.include({ code: 1 });
      expect((refused as { stderr: string }).stderr).to.match(/^no archive database at .*archive\.sqlite; check ARCHIVE_DATA_DIR/);
      expect(existsSync(join(dataDir, 'archive.sqlite'))).to.equal(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
