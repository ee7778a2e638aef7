import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { temporaryDataDir } from '../helpers/server.ts';

function runReindex(env: Record<string, string>): { status: number | null; stderr: string } {
  const dataDir = temporaryDataDir();
  try {
    const { ARCHIVE_STORE: _store, ARCHIVE_SEARCH: _search, MEILI_URL: _url, ...rest } = process.env;
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/reindex.ts'], { env: { ...rest, ARCHIVE_DATA_DIR: dataDir, ...env }, encoding: 'utf8', timeout: 30_000 });
    return { status: result.status, stderr: result.stderr };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('npm run reindex', () => {
  it('refuses on the embedded deployment, saying why, with status 2', () => {
    const { status, stderr } = runReindex({});
    expect(status).to.equal(2);
    expect(stderr).to.match(/ARCHIVE_SEARCH=meili/).and.match(/embedded search index/);
  });

  it('fails with status 1 and the reason when Meilisearch cannot be reached', () => {
    const { status, stderr } = runReindex({ ARCHIVE_SEARCH: 'meili', MEILI_URL: 'http://127.0.0.1:9' });
    expect(status).to.equal(1);
    expect(stderr).to.match(/^reindex failed: /);
  });
});
