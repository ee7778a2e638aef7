/**
 * The connection to the archive's MongoDB database: client settings, collections and their
 * indexes, and the transaction helper every multi-document write goes through.
 */
import { MongoClient, MongoServerError } from 'mongodb';
import type { AnyBulkWriteOperation, ClientSession, Collection, Db, Document, Filter, IndexDescription, Timestamp } from 'mongodb';
import { facetValueKey } from '../../domain/search-query.ts';
import { ADDED_SOURCE_HOSTS, BUILT_IN_SOURCES, currentSourceRule, REPLACED_SOURCE_RULES, UNKNOWN_SOURCE, WORK_KEY_RULES_VERSION, workKey } from '../../domain/sources.ts';
import type {
  BatchDocument,
  CatalogCounterDocument,
  CatalogDateDocument,
  CheckpointDocument,
  IdempotencyKeyDocument,
  RecordDocument,
  RecordFateDocument,
  RemovalDocument,
  SourceDocument,
  SubmissionDocument,
  TokenDocument,
} from './documents.ts';
import { DEFAULT_MONGO_TIMEOUTS, mongoClientOptions, transactionOptions } from './timeouts.ts';
import type { MongoTimeouts } from './timeouts.ts';
import { runTransaction } from './transaction.ts';

/** How long an Idempotency-Key's answer is kept. */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 60 * 60;

/** Where the archive lives in MongoDB. */
export interface MongoLocation {
  uri: string;
  database: string;
}

/** One document per token and day would do; one per token is enough to serialize quota checks. */
export interface QuotaGuardDocument {
  _id: string;
  enqueues: number;
}

/**
 * A model label's timeline slot: every transaction that decides the label's records
 * (RecordStore.changeModelRecords) writes it, so two of them at once conflict and the later one
 * runs again on a fresh reading. Created before the transaction, so first publishers of a label
 * conflict on an update rather than race to insert it.
 */
export interface TimelineSlotDocument {
  _id: string;
  decisions: number;
  decidedAt?: string;
}

export interface ArchiveCollections {
  records: Collection<RecordDocument>;
  removals: Collection<RemovalDocument>;
  catalogCounter: Collection<CatalogCounterDocument>;
  catalogDate: Collection<CatalogDateDocument>;
  checkpoints: Collection<CheckpointDocument>;
  submissions: Collection<SubmissionDocument>;
  idempotencyKeys: Collection<IdempotencyKeyDocument>;
  quotaGuards: Collection<QuotaGuardDocument>;
  tokens: Collection<TokenDocument>;
  recordFates: Collection<RecordFateDocument>;
  batches: Collection<BatchDocument>;
  sources: Collection<SourceDocument>;
  timelineSlots: Collection<TimelineSlotDocument>;
}

/** The marker that the source table was given its built-in sources once (so removed ones stay removed). */
interface SourcesSeededDocument {
  _id: 'sources-seeded';
  at: string;
}

/** The hosts of ADDED_SOURCE_HOSTS (sources.ts) already offered to the stored table, each once (see addSourceHosts). */
interface SourceHostsAddedDocument {
  _id: 'source-hosts-added';
  hosts: string[];
}

/**
 * Which version of the work key rules (sources.ts WORK_KEY_RULES_VERSION) the stored keys were
 * computed with (absent: version 1), and the highest record change number checked since
 * (`checkedSeq`, see fillWorkKeys).
 */
interface WorkKeyRulesDocument {
  _id: 'work-key-rules';
  version: number;
  checkedSeq?: number;
}

/** Every index the adapters rely on, by collection name. `createIndexes` leaves existing equal ones alone. */
export const ARCHIVE_INDEXES: Readonly<Record<string, readonly IndexDescription[]>> = {
  records: [
    { key: { id: 1 }, name: 'id_unique', unique: true },
    { key: { sourceUrl: 1, kind: 1 }, name: 'source_url_kind_unique', unique: true },
    { key: { workKey: 1 }, name: 'work_key' },
    { key: { modelKey: 1, date: 1, id: 1 }, name: 'model_key_date_id' },
    { key: { seq: 1 }, name: 'seq_unique', unique: true },
  ],
  removals: [{ key: { seq: 1 }, name: 'seq_unique', unique: true }],
  submissions: [
    { key: { status: 1, dueAt: 1, _id: 1 }, name: 'status_due' },
    { key: { status: 1, leaseUntil: 1 }, name: 'status_lease' },
    { key: { tokenName: 1, submittedAt: 1 }, name: 'token_submitted' },
    { key: { tokenName: 1, submittedAt: -1, _id: -1 }, name: 'token_listing' },
    { key: { status: 1, submittedAt: -1, _id: -1 }, name: 'status_listing' },
    { key: { submittedAt: -1, _id: -1 }, name: 'submitted_listing' },
  ],
  idempotency_keys: [
    { key: { tokenName: 1, key: 1 }, name: 'token_key_unique', unique: true },
    { key: { createdAt: 1 }, name: 'created_ttl', expireAfterSeconds: IDEMPOTENCY_RETENTION_SECONDS },
  ],
  tokens: [
    { key: { name: 1 }, name: 'name_unique', unique: true },
    { key: { secretSha256: 1 }, name: 'secret_sha256_unique', unique: true },
  ],
  meta: [],
  checkpoints: [],
  quota_guards: [],
  record_fates: [
    { key: { workKey: 1 }, name: 'work_key' },
    { key: { at: 1, _id: 1 }, name: 'at_id' },
  ],
  batches: [],
  sources: [],
  timeline_slots: [],
};

/**
 * Why a server cannot hold the archive, from its `hello` answer: transactions need a replica set
 * member or a mongos router. Undefined when it can.
 */
export function topologyProblem(hello: { setName?: unknown; msg?: unknown }): string | undefined {
  if (typeof hello.setName === 'string' || hello.msg === 'isdbgrid') return undefined;
  return 'the MongoDB server at MONGODB_URI is not a replica set member (a standalone server, or a replica set not yet initiated); the archive needs a replica set: a single node started with --replSet and initiated once with rs.initiate() is enough (see compose.yaml)';
}

/** The server's error code for creating a collection that exists. */
const NAMESPACE_EXISTS = 48;

/** The server's code for an index that does not exist (dropped already, or never made). */
const INDEX_NOT_FOUND = 27;

/**
 * Indexes earlier versions made that nothing reads any more, by collection: dropped at start, so
 * writes stop keeping them. `model_date_id` served the timeline rule's reading by label as written,
 * which reads by `modelKey` since 2026-11-26.
 */
const RETIRED_INDEXES: Readonly<Record<string, readonly string[]>> = { records: ['model_date_id'] };

/** True for a unique-index violation (E11000), also when it comes wrapped in a bulk write error. */
export function isDuplicateKeyError(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}

/**
 * Sets a key derived from a field (a work key from the source URL, a model key from the label) on
 * the selected documents whose key differs, a thousand updates at a time. Each update names the
 * field's value it read, so a document rewritten meanwhile (which then has its key) is left alone.
 * Returns how many documents it changed.
 */
async function fillDerivedKey(documents: Collection<Document>, selected: Filter<Document>, field: { from: string; to: string; derive: (value: string) => string }): Promise<number> {
  const reading = documents.find(selected, { projection: { _id: 1, [field.from]: 1, [field.to]: 1 } });
  let batch: AnyBulkWriteOperation<Document>[] = [];
  let changed = 0;
  for await (const document of reading) {
    const value = String(document[field.from]);
    const key = field.derive(value);
    if (key === document[field.to]) continue;
    batch.push({ updateOne: { filter: { _id: document._id, [field.from]: value }, update: { $set: { [field.to]: key } } } });
    if (batch.length === 1000) {
      changed += (await documents.bulkWrite(batch, { ordered: false })).modifiedCount;
      batch = [];
    }
  }
  if (batch.length) changed += (await documents.bulkWrite(batch, { ordered: false })).modifiedCount;
  return changed;
}

/**
 * Gives the documents of a collection the work key of their source URL: those written before
 * documents carried one, or, when the rules changed, every document whose key they change, or
 * those written after a change number besides the ones lacking it.
 */
function fillWorkKeysOf(documents: Collection<Document>, which: 'lacking' | 'all' | { seqAbove: number }): Promise<number> {
  const selected = which === 'all' ? {} : which === 'lacking' ? { workKey: { $exists: false } } : { $or: [{ workKey: { $exists: false } }, { seq: { $gt: which.seqAbove } }] };
  return fillDerivedKey(documents, selected, { from: 'sourceUrl', to: 'workKey', derive: workKey });
}

/**
 * Gives records their model key (search-query.ts facetValueKey of the label; the embedded store
 * v9): those without one, and those written after `seqAbove` (by a process of an earlier version
 * still running).
 */
function fillModelKeysOf(records: Collection<Document>, seqAbove: number): Promise<number> {
  return fillDerivedKey(records, { $or: [{ modelKey: { $exists: false } }, { seq: { $gt: seqAbove } }] }, { from: 'model', to: 'modelKey', derive: facetValueKey });
}

export class MongoArchiveDatabase {
  /** Options every read passes, so the server stops it at the operation bound (maxTimeMS). */
  readonly bounded: { maxTimeMS: number };
  /**
   * Whether opening computed every stored work key by newer rules (fillWorkKeys: the `meta` document
   * `work-key-rules` named older ones, or none), or changed the key of a record written since the
   * last start (by a process of an earlier version still running): records of two forms of one
   * address may now share one.
   */
  workKeysRecomputed = false;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    readonly collections: ArchiveCollections,
    private readonly timeouts: MongoTimeouts,
  ) {
    this.bounded = { maxTimeMS: timeouts.operationMs };
  }

  /**
   * Connects with majority, journaled writes and majority reads (nothing read can be rolled back
   * by a failover), checks that the server is a replica set member, and with `createIndexes`
   * creates every collection and index the adapters need.
   */
  static async open(location: MongoLocation, options: { createIndexes: boolean }, timeouts: MongoTimeouts = DEFAULT_MONGO_TIMEOUTS): Promise<MongoArchiveDatabase> {
    const database = MongoArchiveDatabase.withoutConnecting(location, timeouts);
    try {
      await database.client.connect();
      const problem = topologyProblem(await database.db.admin().command({ hello: 1 }));
      if (problem) throw new Error(problem);
      if (options.createIndexes) await database.createCollectionsAndIndexes();
    } catch (error) {
      await database.client.close();
      throw error;
    }
    return database;
  }

  /**
   * The database with a client that connects at its first operation, without the checks of
   * `open`: each operation then fails as the driver fails it when no server answers.
   */
  static withoutConnecting(location: MongoLocation, timeouts: MongoTimeouts = DEFAULT_MONGO_TIMEOUTS): MongoArchiveDatabase {
    const client = new MongoClient(location.uri, mongoClientOptions(timeouts));
    const db = client.db(location.database);
    const collections: ArchiveCollections = {
      records: db.collection<RecordDocument>('records'),
      removals: db.collection<RemovalDocument>('removals'),
      catalogCounter: db.collection<CatalogCounterDocument>('meta'),
      catalogDate: db.collection<CatalogDateDocument>('meta'),
      checkpoints: db.collection<CheckpointDocument>('checkpoints'),
      submissions: db.collection<SubmissionDocument>('submissions'),
      idempotencyKeys: db.collection<IdempotencyKeyDocument>('idempotency_keys'),
      quotaGuards: db.collection<QuotaGuardDocument>('quota_guards'),
      tokens: db.collection<TokenDocument>('tokens'),
      recordFates: db.collection<RecordFateDocument>('record_fates'),
      batches: db.collection<BatchDocument>('batches'),
      sources: db.collection<SourceDocument>('sources'),
      timelineSlots: db.collection<TimelineSlotDocument>('timeline_slots'),
    };
    return new MongoArchiveDatabase(client, db, collections, timeouts);
  }

  /**
   * Creates the collections (transactions may not create them on every server version) and
   * their indexes. Safe to run from every process at every start.
   */
  private async createCollectionsAndIndexes(): Promise<void> {
    for (const [name, indexes] of Object.entries(ARCHIVE_INDEXES)) {
      try {
        await this.db.createCollection(name);
      } catch (error) {
        // Created at an earlier start, or by another process starting at the same time.
        if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
      }
      if (indexes.length) await this.db.collection(name).createIndexes([...indexes]);
      for (const retired of RETIRED_INDEXES[name] ?? []) {
        await this.db
          .collection(name)
          .dropIndex(retired)
          .catch((error: unknown) => {
            // Dropped at an earlier start, by another process starting at the same time, or never made.
            if (!(error instanceof MongoServerError && error.code === INDEX_NOT_FOUND)) throw error;
          });
      }
    }
    // The counter exists before the first record write, so concurrent first writers conflict on
    // an update (retried) rather than race to insert it.
    await this.collections.catalogCounter.updateOne({ _id: 'catalog' }, { $setOnInsert: { changeNumber: 0, total: 0 } }, { upsert: true });
    await this.seedSources();
    await this.replaceSourceRules();
    await this.addSourceHosts();
    await this.fillWorkKeys();
  }

  /**
   * Gives every record written before records had a work key its key, from its source URL (what
   * the embedded store's migration store v6 does), then every retired id's fate likewise. Each update names the URL it read, so a record
   * rewritten meanwhile (which then has its key) is left alone; a start with nothing to fill reads
   * one index entry.
   */
  private async fillWorkKeys(): Promise<void> {
    // Keys computed by rules older than this version's are computed again (the embedded store v8 and v11, record-fates v4 and v5);
    // after that, at each start, the records written since the last start's check (a process of an
    // earlier version still running writes its own rules' keys: the embedded mendDerivedKeys).
    const meta = this.db.collection<WorkKeyRulesDocument>('meta');
    const rules = await meta.findOne({ _id: 'work-key-rules' });
    const highestSeq = (await this.collections.records.find({}, { projection: { seq: 1 } }).sort({ seq: -1 }).limit(1).next())?.seq ?? 0;
    const which = (rules?.version ?? 1) < WORK_KEY_RULES_VERSION ? 'all' : { seqAbove: rules?.checkedSeq ?? highestSeq };
    const changed = await fillWorkKeysOf(this.db.collection(this.collections.records.collectionName), which);
    this.workKeysRecomputed = which === 'all' || changed > 0;
    // The fates of retired ids: those written before fates had a work key (the embedded record-fates v2), or all when the rules changed.
    await fillWorkKeysOf(this.db.collection(this.collections.recordFates.collectionName), which === 'all' ? 'all' : 'lacking');
    await fillModelKeysOf(this.db.collection(this.collections.records.collectionName), which === 'all' ? highestSeq : which.seqAbove);
    await meta.updateOne({ _id: 'work-key-rules' }, { $max: { version: WORK_KEY_RULES_VERSION, checkedSeq: highestSeq } }, { upsert: true });
  }

  /**
   * Gives a stored built-in source still holding a rule an earlier version wrote this version's
   * rule (sources.ts REPLACED_SOURCE_RULES; the embedded source-table v2); a maintainer's rule stays.
   */
  private async replaceSourceRules(): Promise<void> {
    for (const { key, field, was } of REPLACED_SOURCE_RULES) {
      const holdingTheOldRule = { _id: key, [`definition.${field}`]: was } as Filter<SourceDocument>;
      await this.collections.sources.updateOne(holdingTheOldRule, { $set: { [`definition.${field}`]: currentSourceRule(key, field) } });
    }
  }

  /**
   * Gives a stored built-in source the hosts a later version added to it (sources.ts
   * ADDED_SOURCE_HOSTS; the embedded source-table v3), each once, where no stored source holds the
   * host already: a host a maintainer removed afterwards is not brought back at the next start.
   */
  private async addSourceHosts(): Promise<void> {
    const meta = this.db.collection<SourceHostsAddedDocument>('meta');
    const offered = new Set((await meta.findOne({ _id: 'source-hosts-added' }))?.hosts ?? []);
    for (const { key, host, alias } of ADDED_SOURCE_HOSTS) {
      if (offered.has(host)) continue;
      const held = await this.collections.sources.findOne({ $or: [{ 'definition.hosts': host }, { 'definition.mediaHosts': host }] });
      if (!held) await this.collections.sources.updateOne({ _id: key }, { $addToSet: { 'definition.hosts': host, ...(alias ? { 'definition.aliases': host } : {}) } });
      await meta.updateOne({ _id: 'source-hosts-added' }, { $addToSet: { hosts: host } }, { upsert: true });
    }
  }

  /** Gives a new database the built-in sources, once: a source a maintainer removed is not brought back at the next start. */
  private async seedSources(): Promise<void> {
    const meta = this.db.collection<SourcesSeededDocument>('meta');
    if (await meta.findOne({ _id: 'sources-seeded' })) return;
    for (const definition of BUILT_IN_SOURCES.filter((source) => source.key !== UNKNOWN_SOURCE)) {
      await this.collections.sources.updateOne({ _id: definition.key }, { $setOnInsert: { definition } }, { upsert: true });
    }
    await meta.updateOne({ _id: 'sources-seeded' }, { $setOnInsert: { at: new Date().toISOString() } }, { upsert: true });
  }

  /**
   * Runs `work` in a transaction, run again after write conflicts and failovers until the
   * transaction budget is spent (transaction.ts).
   */
  async transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    const session = this.client.startSession();
    try {
      return await runTransaction(session, work, transactionOptions(this.timeouts), this.timeouts.transactionMs);
    } finally {
      await session.endSession();
    }
  }

  /**
   * Runs reads, one after another, in a causally consistent session that begins no earlier than
   * `after` (an operation time an earlier read returned): with majority read concern the server
   * waits until its majority snapshot has reached it, also on a primary elected meanwhile. Returns
   * the reads' result and the session's operation time after them.
   */
  async causalReads<T>(after: Timestamp | undefined, reads: (session: ClientSession) => Promise<T>): Promise<{ result: T; operationTime: Timestamp | undefined }> {
    const session = this.client.startSession({ causalConsistency: true });
    try {
      if (after) session.advanceOperationTime(after);
      const result = await reads(session);
      return { result, operationTime: session.operationTime };
    } finally {
      await session.endSession();
    }
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  /** Deletes the whole database. For tests that each work on a database of their own. */
  async drop(): Promise<void> {
    await this.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
