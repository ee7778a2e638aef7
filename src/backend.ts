import type { Config } from './config.ts';
import type { RecordStore, SearchIndex, SubmissionQueue, TokenStore } from './domain/ports.ts';
import { openDatabase } from './store/sqlite/database.ts';
import { SqliteRecordStore } from './store/sqlite/sqlite-store.ts';
import { SqliteSearchIndex } from './search/sqlite/sqlite-search.ts';
import { SqliteSubmissionQueue } from './store/sqlite/sqlite-submissions.ts';
import { SqliteTokenStore } from './store/sqlite/sqlite-tokens.ts';

/** The adapters behind the two ports, as chosen by configuration. */
export interface Backend {
  store: RecordStore;
  search: SearchIndex;
  tokens: TokenStore;
  submissions: SubmissionQueue;
  /** Loads caches ahead of the first request (e.g. the typo vocabulary). */
  warm(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The one place that chooses adapters. Embedded: one SQLite file holds records and the FTS5
 * index, written in the same transaction. `migrate` is set by the process that owns the schema.
 */
export function openBackend(config: Pick<Config, 'databaseFile'>, options: { migrate: boolean }): Backend {
  const db = openDatabase(config.databaseFile);
  if (options.migrate) {
    SqliteRecordStore.migrate(db);
    SqliteSearchIndex.migrate(db);
  }
  const search = new SqliteSearchIndex(db);
  const store = new SqliteRecordStore(db, search);
  return {
    store,
    search,
    tokens: new SqliteTokenStore(db),
    submissions: new SqliteSubmissionQueue(db),
    warm: async () => search.warm(),
    close: async () => {
      if (db.open) db.close();
    },
  };
}
