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
import type { StoredRecord } from '../../src/domain/record.ts';

export interface TestBackend {
  backend: Backend;
  settings: BackendSettings;
  /** Copies every store change since the last call into the search index, when search follows the store. */
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
  let synced = 0;
  const syncSearch = async (): Promise<void> => {
    if (!backend.searchFollowsStore) return;
    for (;;) {
      const changes = await backend.store.changesSince(synced, 500);
      const removals = await backend.store.removalsSince(synced, 500);
      if (changes.length === 0 && removals.length === 0) return;
      // Apply in change order: a record removed and put back ends up present.
      const events = [...changes.map((record) => ({ seq: record.seq, record })), ...removals.map((removal) => ({ seq: removal.seq, removedId: removal.id }))].sort((a, b) => a.seq - b.seq);
      const last = Math.min(changes.length === 500 ? (changes.at(-1)?.seq ?? Infinity) : Infinity, removals.length === 500 ? (removals.at(-1)?.seq ?? Infinity) : Infinity);
      let upserts: StoredRecord[] = [];
      const flush = async (): Promise<void> => {
        if (upserts.length) await backend.search.upsert(upserts);
        upserts = [];
      };
      for (const event of events) {
        if (event.seq > last) break;
        if ('record' in event) upserts.push(event.record);
        else {
          await flush();
          await backend.search.remove([event.removedId]);
        }
        synced = event.seq;
      }
      await flush();
    }
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
