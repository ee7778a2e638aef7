import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openBackend } from '../../src/backend.ts';
import { temporaryDataDir } from '../helpers/server.ts';
import { recordStoreContract } from './record-store.contract.ts';
import { searchIndexContract } from './search-index.contract.ts';

function openEmbedded() {
  const dataDir = temporaryDataDir();
  const backend = openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true });
  const dispose = async (): Promise<void> => {
    await backend.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { backend, dispose };
}

recordStoreContract('embedded SQLite', async () => {
  const { backend, dispose } = openEmbedded();
  return { store: backend.store, dispose };
});

searchIndexContract('embedded SQLite FTS5', async () => {
  const { backend, dispose } = openEmbedded();
  return { index: backend.search, dispose };
});
