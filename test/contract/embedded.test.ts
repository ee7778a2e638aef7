import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { migrateSchema } from '../../src/store/sqlite/schema.ts';
import { SqliteSubmissionQueue } from '../../src/store/sqlite/sqlite-submissions.ts';
import { SqliteTokenStore } from '../../src/store/sqlite/sqlite-tokens.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';
import { openEmbeddedBackend } from '../helpers/backend.ts';
import { temporaryDataDir } from '../helpers/server.ts';
import { recordStoreContract } from './record-store.contract.ts';
import { searchIndexContract } from './search-index.contract.ts';
import { submissionQueueContract } from './submission-queue.contract.ts';
import { tokenStoreContract } from './token-store.contract.ts';

/** A migrated embedded database alone, for adapters that take a clock. */
function openEmbeddedDatabase() {
  const dataDir = temporaryDataDir();
  const db = openDatabase(join(dataDir, 'archive.sqlite'));
  migrateSchema(db);
  const dispose = async (): Promise<void> => {
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { db, dispose };
}

recordStoreContract('embedded SQLite', async () => {
  const { backend, dispose } = await openEmbeddedBackend();
  return { store: backend.store, sources: backend.sources, dispose };
});

searchIndexContract('embedded SQLite FTS5', async () => {
  const { backend, dispose } = await openEmbeddedBackend();
  return { index: backend.search, dispose };
});

for (const mode of ['always', 'never'] as const) {
  searchIndexContract(`embedded SQLite FTS5, row sets ${mode}`, async () => {
    const { db, dispose } = openEmbeddedDatabase();
    return { index: new SqliteSearchIndex(db, mode), dispose };
  });
}

submissionQueueContract('embedded SQLite', async (clock) => {
  const { db, dispose } = openEmbeddedDatabase();
  return { queue: new SqliteSubmissionQueue(db, clock), dispose };
});

tokenStoreContract('embedded SQLite', async () => {
  const { db, dispose } = openEmbeddedDatabase();
  return { tokens: new SqliteTokenStore(db), dispose };
});
