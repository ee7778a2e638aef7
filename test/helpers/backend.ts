/**
 * The backend a test works on, chosen like the service chooses it: from ARCHIVE_STORE and
 * ARCHIVE_SEARCH (embedded by default). On MongoDB each backend gets a database of its own and
 * on Meilisearch an index prefix of its own; `destroy` drops them, so runs never share data.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { openBackend } from '../../src/backend.ts';
import type { Backend } from '../../src/backend.ts';
import { loadBackendSettings } from '../../src/config.ts';
import type { BackendSettings } from '../../src/config.ts';
import { syncOnce } from '../../indexer/search-sync.ts';

export interface TestBackend {
  backend: Backend;
  settings: BackendSettings;
  /** Brings the search index up to the store (one index-sync pass), when search follows the store. */
  syncSearch(): Promise<void>;
  /** Closes the backend and deletes what it held outside the data folder. */
  destroy(): Promise<void>;
}

/** Settings from the environment, with a unique database and index prefix for this backend. */
export function testBackendSettings(env: NodeJS.ProcessEnv = process.env): BackendSettings {
  const settings = loadBackendSettings(env);
  const unique = randomBytes(5).toString('hex');
  return {
    store: settings.store.kind === 'mongo' ? { ...settings.store, database: `archive_test_${unique}` } : settings.store,
    search: settings.search.kind === 'meili' ? { ...settings.search, indexPrefix: `test_${unique}_` } : settings.search,
  };
}

async function dropMongoDatabase(settings: BackendSettings['store']): Promise<void> {
  if (settings.kind !== 'mongo') return;
  const { MongoArchiveDatabase } = await import('../../src/store/mongo/mongo-database.ts');
  const database = await MongoArchiveDatabase.open(settings, { createIndexes: false });
  try {
    await database.drop();
  } finally {
    await database.close();
  }
}

async function deleteMeiliIndexes(settings: BackendSettings['search']): Promise<void> {
  if (settings.kind !== 'meili' || !settings.indexPrefix) return;
  const prefix = settings.indexPrefix;
  const { meiliClient } = await import('../../src/search/meili/meili-search.ts');
  const client = meiliClient(settings);
  const { results } = await client.getRawIndexes({ limit: 1000 });
  for (const index of results) if (index.uid.startsWith(prefix)) await client.deleteIndex(index.uid).waitTask();
}

/** Opens the backend for a test over `dataDir` (the embedded file and media live there). */
export async function openTestBackend(dataDir: string): Promise<TestBackend> {
  const settings = testBackendSettings();
  const backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite'), ...settings }, { migrate: true });
  const syncSearch = async (): Promise<void> => {
    if (backend.searchFollowsStore) await syncOnce(backend.store, backend.search);
  };
  return {
    backend,
    settings,
    syncSearch,
    destroy: async () => {
      await backend.close();
      await dropMongoDatabase(settings.store);
      await deleteMeiliIndexes(settings.search);
    },
  };
}
