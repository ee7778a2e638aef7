import { ConfigError } from './config.ts';
import { dataFolderError } from './data-folder.ts';
import type { BackendSettings, Config, SearchSettings } from './config.ts';
import type { RecordStore, SearchIndex, SourceStore, SubmissionQueue, TokenStore } from './domain/ports.ts';
import { SearchIndexFilling } from './domain/ports.ts';
import { FollowingSearchIndex } from './search/following-index.ts';
import { openDatabase } from './store/sqlite/database.ts';
import type { SqliteDatabase } from './store/sqlite/database.ts';
import { migrateSchema, migrationName } from './store/sqlite/schema.ts';
import { SqliteRecordStore } from './store/sqlite/sqlite-store.ts';
import { SqliteSearchIndex } from './search/sqlite/sqlite-search.ts';
import { SqliteSubmissionQueue } from './store/sqlite/sqlite-submissions.ts';
import { SqliteTokenStore } from './store/sqlite/sqlite-tokens.ts';
import { isSqliteUnavailable, isSqliteWriteRefusal } from './store/sqlite/unavailable.ts';
import { WriteRefusals } from './store/write-refusals.ts';
import type { MongoArchiveDatabase } from './store/mongo/mongo-database.ts';
import type { ReaderStripe } from './search/sqlite/read-ahead.ts';
import type { Logger } from './logger.ts';

/** The adapters behind the two ports, as chosen by configuration. */
export interface Backend {
  store: RecordStore;
  /** The source table, kept in the same store as the records. */
  sources: SourceStore;
  search: SearchIndex;
  tokens: TokenStore;
  submissions: SubmissionQueue;
  /**
   * False when the store writes the search index in the same transaction as the record (the
   * embedded pair). True when the index is a separate engine that an index-sync process keeps
   * current by following the store's change feed.
   */
  searchFollowsStore: boolean;
  /** Whether an error thrown by these adapters means a backing service is unreachable or busy (answered 503). */
  isUnavailable(error: unknown): boolean;
  /** When the store last refused a write for lack of room or access (the embedded store; never for MongoDB), for /readyz. */
  writeRefusals: WriteRefusals;
  /**
   * Loads caches ahead of the first request (e.g. the typo vocabulary), and goes on filling them in
   * the background. `stripe` says which of the processes starting side by side this is, so they
   * share the work where they can (the embedded index's sets read ahead).
   */
  warm(stripe?: ReaderStripe): Promise<void>;
  close(): Promise<void>;
  /** The embedded schema's steps this opening applied (`store v9`), which a start logs; absent when none were. */
  schemaMigrated?: readonly string[];
  /**
   * True when this opening computed the stored records' work keys by newer rules (the embedded
   * store v6, v8 or v11; MongoDB's start when its keys were of older rules), or mended some that a
   * process of an earlier version wrote since the last start (a rolling upgrade; the embedded
   * mendDerivedKeys, MongoDB's fillWorkKeys): records published under two forms of one address may
   * now share a key and kind (see warnOfSharedWorks).
   */
  workKeysRecomputed?: boolean;
}

/**
 * A backend without its search index: what a process that never searches opens (the maintenance
 * commands but reindex, the publisher). On the embedded pair the search index comes with it, since
 * the store writes it in the same transaction as each record; an index that follows the store
 * (Meilisearch) is not contacted at all, so such a process runs while Meilisearch is down or hung.
 */
export type StoreBackend = Omit<Backend, 'search' | 'warm'>;

/** What opening a backend needs: the embedded file, and which adapters (embedded when left out). */
export type BackendConfig = Pick<Config, 'databaseFile'> & Partial<BackendSettings>;

export interface BackendOptions {
  /**
   * Set by the processes that own the schema: creates or upgrades SQLite tables, MongoDB
   * collections and indexes. Others open what exists.
   */
  migrate: boolean;
  /**
   * Set by the processes that serve or follow the store (the server's processes, the indexer):
   * when the search index that follows the store (Meilisearch) cannot be opened, the backend opens
   * without it instead of failing. Searches and /readyz then answer 503 and the index sync waits,
   * while opening is tried again in the background (PendingSearchIndex), which applies the index
   * settings once Meilisearch answers; `logger` is told when it goes on without search, when the
   * reason changes, and when search is back. `when: 'outage'` does so only when Meilisearch cannot
   * be reached or answer now (describeMeiliProblem's outage) and still fails on a configuration
   * that waiting does not mend (a key refused, a server that is not Meilisearch); `'any'` on every
   * failure, for a server's worker: its primary opened the index first, and a worker that failed
   * would only be replaced by one failing the same way. `role` words the warning for the process
   * that logs it: a server's (the default) answers searches and /readyz 503 meanwhile, the
   * indexer's (`npm run indexer`) serves neither and publishes while its index sync waits.
   */
  withoutSearch?: { logger: Logger; when: 'outage' | 'any'; role?: 'server' | 'indexer' };
}

/** Where the records live, for messages: the SQLite file or the MongoDB database. */
export function describeStore(config: BackendConfig): string {
  return config.store?.kind === 'mongo' ? `MongoDB database "${config.store.database}"` : config.databaseFile;
}

/**
 * The one place that chooses adapters. Allowed pairs:
 * - embedded store + embedded search (the default): one SQLite file holds records and the FTS5
 *   index, written in the same transaction;
 * - mongo store + meili search (production): the index follows the store's change feed;
 * - embedded store + meili search: the same following, over the SQLite change feed.
 * A mongo store with embedded search is refused (see readBackendSettings in config.ts).
 * The MongoDB and Meilisearch clients are loaded only when chosen.
 */
export async function openBackend(config: BackendConfig, options: BackendOptions): Promise<Backend> {
  const opened = await openStoreSide(config, options);
  if (opened.kind === 'with-search') return opened.backend;
  let search: OpenedSearch;
  try {
    search = await openMeiliSearch(opened.settings, options.withoutSearch);
  } catch (error) {
    await opened.backend.close();
    throw error;
  }
  return withFollowingSearch(opened.backend, search);
}

/**
 * openBackend without the search index (StoreBackend): the store, the sources, the tokens and the
 * submission queue, for a process that never searches. Meilisearch is not contacted.
 */
export async function openStore(config: BackendConfig, options: BackendOptions): Promise<StoreBackend> {
  return (await openStoreSide(config, options)).backend;
}

/** The store an opening names: with its search index (the embedded pair), or one a separate index follows (and that index's settings). */
type OpenedStoreSide = { kind: 'with-search'; backend: Backend } | { kind: 'followed'; backend: StoreBackend; settings: Extract<SearchSettings, { kind: 'meili' }> };

async function openStoreSide(config: BackendConfig, options: BackendOptions): Promise<OpenedStoreSide> {
  const store = config.store ?? { kind: 'embedded' };
  const search = config.search ?? { kind: 'embedded' };
  if (store.kind === 'mongo' && search.kind === 'embedded') {
    throw new ConfigError(['ARCHIVE_STORE=mongo needs ARCHIVE_SEARCH=meili: the embedded search index lives in the SQLite file of one machine']);
  }
  if (store.kind === 'mongo' && search.kind === 'meili') {
    const { MongoArchiveDatabase } = await import('./store/mongo/mongo-database.ts');
    const database = await MongoArchiveDatabase.open({ uri: store.uri, database: store.database }, { createIndexes: options.migrate });
    return { kind: 'followed', backend: await mongoStore(database), settings: search };
  }
  const db = openDatabase(config.databaseFile);
  const { applied, workKeysMended } = options.migrate ? migrateSchema(db) : { applied: [], workKeysMended: 0 };
  const marks = {
    ...(applied.some((migration) => migration.recomputesWorkKeys) || workKeysMended > 0 ? { workKeysRecomputed: true } : {}),
    ...(applied.length ? { schemaMigrated: applied.map(migrationName) } : {}),
  };
  if (search.kind === 'embedded') return { kind: 'with-search', backend: Object.assign(embeddedBackend(db), marks) };
  return { kind: 'followed', backend: { ...sqliteStore(db), ...marks }, settings: search };
}

/** The command that lists the works with more than one record of one kind. */
export const SHARED_WORKS_COMMAND = 'npm run sources -- works';

/**
 * After an opening that computed the work keys by newer rules, or mended keys a process of an
 * earlier version wrote (Backend.workKeysRecomputed), logs one warning naming how many works now
 * have more than one record of one kind and the command that lists them; nothing when none has.
 * For the starts of the processes that own the schema: nothing else reports such works, which the
 * duplicate check would no longer let in.
 */
export async function warnOfSharedWorks(backend: Pick<StoreBackend, 'store' | 'workKeysRecomputed'>, logger: Logger): Promise<void> {
  if (!backend.workKeysRecomputed) return;
  const { total } = await backend.store.sharedWorks(0);
  if (total > 0) {
    logger.warn(
      `work keys computed by this version's rules: some works now have more than one record of one kind (published under two forms of one address before the rules made them one work, or written by a process of an earlier version beside a newer one); list them with ${SHARED_WORKS_COMMAND}`,
      { works: total },
    );
  }
}

/**
 * openBackend for a process run on a data folder (the server's primary, the publisher alone, the
 * maintenance commands, reindex): an error opening its database is told as dataFolderError tells it, naming the file,
 * ARCHIVE_DATA_DIR and the likely cause.
 */
export function openArchive(config: BackendConfig & Pick<Config, 'dataDir' | 'mediaDir'>, options: BackendOptions): Promise<Backend> {
  return openBackend(config, options).catch((error: unknown) => {
    throw dataFolderError(error, config);
  });
}

/** openArchive without the search index (openStore): for the commands that never search. */
export function openStoreArchive(config: BackendConfig & Pick<Config, 'dataDir' | 'mediaDir'>, options: BackendOptions): Promise<StoreBackend> {
  return openStore(config, options).catch((error: unknown) => {
    throw dataFolderError(error, config);
  });
}

/** The embedded pair over an open SQLite file; `writeRefusals` may be a test's own (a shorter window). */
export function embeddedBackend(db: SqliteDatabase, writeRefusals = new WriteRefusals(isSqliteWriteRefusal)): Backend {
  const search = new SqliteSearchIndex(db);
  const store = new SqliteRecordStore(db, search);
  return {
    store,
    sources: store,
    search,
    tokens: new SqliteTokenStore(db),
    submissions: new SqliteSubmissionQueue(db),
    searchFollowsStore: false,
    isUnavailable: isSqliteUnavailable,
    writeRefusals,
    warm: async (stripe) => {
      search.warm(undefined, stripe);
      search.readAheadInBackground();
    },
    close: async () => {
      if (db.open) db.close();
    },
  };
}

/** The SQLite adapters but the search index, which a separate engine following the store's change feed holds. */
function sqliteStore(db: SqliteDatabase): StoreBackend {
  return {
    ...storeAndSources(new SqliteRecordStore(db)),
    tokens: new SqliteTokenStore(db),
    submissions: new SqliteSubmissionQueue(db),
    searchFollowsStore: true,
    isUnavailable: isSqliteUnavailable,
    writeRefusals: new WriteRefusals(isSqliteWriteRefusal),
    close: async () => {
      if (db.open) db.close();
    },
  };
}

/** A store that a separate search index follows, with that index beside it. */
function withFollowingSearch(store: StoreBackend, { search, isUnavailable }: OpenedSearch): Backend {
  return {
    ...store,
    // A search answers 503 while the index sync fills the index (FollowingSearchIndex), never 0 results.
    search: new FollowingSearchIndex(search, store.store),
    isUnavailable: (error) => store.isUnavailable(error) || error instanceof SearchIndexFilling || isUnavailable(error),
    warm: async () => {},
    close: async () => {
      await search.close();
      await store.close();
    },
  };
}

/** A record store adapter in both its roles. */
function storeAndSources(store: RecordStore & SourceStore): { store: RecordStore; sources: SourceStore } {
  return { store, sources: store };
}

/** A search adapter with the test for its unreachable-service errors. */
export interface OpenedSearch {
  search: SearchIndex;
  isUnavailable(error: unknown): boolean;
}

/** The warning of a process that goes on without search, worded for what it does meanwhile. */
export const WITHOUT_SEARCH_WARNINGS: Record<'server' | 'indexer', string> = {
  server: 'going on without search: Meilisearch cannot be opened; searches and /readyz answer 503 until it can, and its index settings are applied then',
  indexer: 'going on without search: Meilisearch cannot be opened; the publisher goes on, and the index sync begins once it can, when its index settings are applied',
};

/**
 * Opens the Meilisearch indexes (applying their settings). A failure is told as
 * describeMeiliProblem tells it, naming MEILI_URL or MEILI_API_KEY, the cause and what to do; the
 * client's own error is its cause. With `withoutSearch` (BackendOptions), a failure it allows
 * gives a PendingSearchIndex instead, which opens the indexes once Meilisearch answers.
 */
async function openMeiliSearch(settings: Extract<SearchSettings, { kind: 'meili' }>, withoutSearch?: BackendOptions['withoutSearch']): Promise<OpenedSearch> {
  const { MeiliSearchIndex } = await import('./search/meili/meili-search.ts');
  const { isMeiliUnavailable } = await import('./search/meili/unavailable.ts');
  const options = {
    url: settings.url,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    ...(settings.indexPrefix ? { indexPrefix: settings.indexPrefix } : {}),
  };
  try {
    return { search: await MeiliSearchIndex.open(options), isUnavailable: isMeiliUnavailable };
  } catch (error) {
    const { describeMeiliProblem } = await import('./search/meili/start-problems.ts');
    const problem = await describeMeiliProblem(error, options);
    if (!withoutSearch || (withoutSearch.when === 'outage' && !problem.outage)) throw new Error(problem.message, { cause: error });
    const { OPEN_RETRY_DELAYS_MS, PendingSearchIndex, SearchIndexNotReady } = await import('./search/meili/pending-index.ts');
    const { logger } = withoutSearch;
    const retryEveryMs = OPEN_RETRY_DELAYS_MS.at(-1);
    logger.warn(WITHOUT_SEARCH_WARNINGS[withoutSearch.role ?? 'server'], { problem: problem.message, retryEveryMs });
    // Each attempt that fails as the last one did is not logged again: an outage of an hour is one line.
    let told = problem.message;
    const started = performance.now();
    const search = new PendingSearchIndex(() => MeiliSearchIndex.open(options), error, {
      failed: async (again, attempts) => {
        const { message } = await describeMeiliProblem(again, options);
        if (message === told) return;
        told = message;
        logger.warn('Meilisearch still cannot be opened, now for another reason', { problem: message, attempts });
      },
      opened: (attempts) => logger.info('Meilisearch opened: index settings applied, searching again', { url: options.url, attempts, seconds: Math.round((performance.now() - started) / 1000) }),
    });
    return { search, isUnavailable: (failure) => failure instanceof SearchIndexNotReady || isMeiliUnavailable(failure) };
  }
}

/** The MongoDB adapters over a database, beside a search adapter that follows the store. */
export async function mongoBackend(database: MongoArchiveDatabase, opened: OpenedSearch): Promise<Backend> {
  return withFollowingSearch(await mongoStore(database), opened);
}

/** The MongoDB adapters over a database, without the search index that follows them. */
async function mongoStore(database: MongoArchiveDatabase): Promise<StoreBackend> {
  const { MongoRecordStore } = await import('./store/mongo/mongo-record-store.ts');
  const { MongoSubmissionQueue } = await import('./store/mongo/mongo-submissions.ts');
  const { MongoTokenStore } = await import('./store/mongo/mongo-tokens.ts');
  const { isMongoUnavailable } = await import('./store/mongo/unavailable.ts');
  return {
    ...(database.workKeysRecomputed ? { workKeysRecomputed: true } : {}),
    ...storeAndSources(new MongoRecordStore(database)),
    tokens: new MongoTokenStore(database),
    submissions: new MongoSubmissionQueue(database),
    searchFollowsStore: true,
    isUnavailable: isMongoUnavailable,
    writeRefusals: new WriteRefusals(() => false),
    close: async () => {
      await database.close();
    },
  };
}
