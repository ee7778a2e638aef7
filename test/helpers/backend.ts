/**
 * The backend a test works on, chosen like the service chooses it: from ARCHIVE_STORE and
 * ARCHIVE_SEARCH (embedded by default). On MongoDB each backend gets a database of its own and
 * on Meilisearch an index prefix of its own; `destroy` drops them, so runs never share data.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openBackend } from '../../src/backend.ts';
import type { Backend } from '../../src/backend.ts';
import { loadBackendSettings } from '../../src/config.ts';
import type { BackendSettings, SearchSettings } from '../../src/config.ts';
import { syncOnce } from '../../indexer/search-sync.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { MIGRATIONS, migrateSchema, migrationName } from '../../src/store/sqlite/schema.ts';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-store.ts';
import { temporaryDataDir } from './server.ts';

export interface TestBackend {
  backend: Backend;
  settings: BackendSettings;
  /** Brings the search index up to the store (one index-sync pass), when search follows the store. */
  syncSearch(): Promise<void>;
  /** Closes the backend and deletes what it held outside the data folder. */
  destroy(): Promise<void>;
}

/** Settings from the environment, with a unique database and index prefix for this backend (or the given prefix). */
export function testBackendSettings(env: NodeJS.ProcessEnv = process.env, indexPrefix?: string): BackendSettings {
  const settings = loadBackendSettings(env);
  const unique = randomBytes(5).toString('hex');
  return {
    store: settings.store.kind === 'mongo' ? { ...settings.store, database: `archive_test_${unique}` } : settings.store,
    search: settings.search.kind === 'meili' ? { ...settings.search, indexPrefix: indexPrefix ?? `test_${unique}_` } : settings.search,
  };
}

/** The variables that make a process open the backend of these settings (its MongoDB database, its index prefix). */
export function backendEnvironment(settings: BackendSettings): Record<string, string> {
  return {
    ...(settings.store.kind === 'mongo' ? { MONGODB_DATABASE: settings.store.database } : {}),
    ...(settings.search.kind === 'meili' && settings.search.indexPrefix ? { MEILI_INDEX_PREFIX: settings.search.indexPrefix } : {}),
  };
}

/** Whether the configured search index follows the store (Meilisearch) rather than being written with it. */
export function searchFollowsStore(env: NodeJS.ProcessEnv = process.env): boolean {
  return loadBackendSettings(env).search.kind === 'meili';
}

/** Waits until the check passes (every 100 ms), or throws with the message after timeoutMs. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
  const { dropMeiliIndexes } = await import('./meili.ts');
  await dropMeiliIndexes(settings);
}

/** What a test may choose instead of the environment. */
export interface TestBackendOptions {
  /** The index prefix of server processes over the same folder (processIndexPrefix). */
  indexPrefix?: string;
  /** A search engine of the test's own (a Meilisearch it starts and stops). */
  search?: SearchSettings;
}

/** Opens the backend for a test over `dataDir` (the embedded file and media live there). */
export async function openTestBackend(dataDir: string, options: TestBackendOptions = {}): Promise<TestBackend> {
  const fromEnvironment = testBackendSettings(process.env, options.indexPrefix);
  const settings = options.search ? { ...fromEnvironment, search: options.search } : fromEnvironment;
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

/** The embedded backend (SQLite, its own search) over a fresh data folder; `dispose` closes it and deletes the folder. */
export async function openEmbeddedBackend(): Promise<{ dataDir: string; backend: Backend; dispose: () => Promise<void> }> {
  const dataDir = temporaryDataDir();
  const backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true });
  const dispose = async (): Promise<void> => {
    await backend.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { dataDir, backend, dispose };
}

/**
 * An embedded archive file as the version before work key rules 3 left it (store v10): the
 * records keyed as that version keyed two forms of one Bilibili video, each by its own source URL,
 * and checked by its last start. The next opening that owns the schema applies store v11.
 */
export function writeArchiveBeforeWorkKeyRules3(file: string, records: readonly CanonicalRecord[]): void {
  const db = openDatabase(file);
  try {
    const later = new Set(['store v11', 'record-fates v5']);
    migrateSchema(db, MIGRATIONS.filter((migration) => !later.has(migrationName(migration))));
    new SqliteRecordStore(db, new SqliteSearchIndex(db)).putRecordsNow(records);
    db.prepare('UPDATE records SET work_key = source_url').run();
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('work_keys_checked', json_array((SELECT max(seq) FROM records), 0))").run();
  } finally {
    db.close();
  }
}
