/**
 * The connection to the archive's MongoDB database: client settings, collections and their
 * indexes, and the transaction helper every multi-document write goes through.
 */
import { MongoClient, MongoServerError, ReadConcern, WriteConcern } from 'mongodb';
import type { ClientSession, Collection, Db, IndexDescription, TransactionOptions } from 'mongodb';
import type {
  CatalogCounterDocument,
  CatalogDateDocument,
  CheckpointDocument,
  IdempotencyKeyDocument,
  RecordDocument,
  RemovalDocument,
  SubmissionDocument,
  TokenDocument,
} from './documents.ts';

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
}

/** Every index the adapters rely on, by collection name. `createIndexes` leaves existing equal ones alone. */
export const ARCHIVE_INDEXES: Readonly<Record<string, readonly IndexDescription[]>> = {
  records: [
    { key: { id: 1 }, name: 'id_unique', unique: true },
    { key: { sourceUrl: 1, kind: 1 }, name: 'source_url_kind_unique', unique: true },
    { key: { model: 1, date: 1, id: 1 }, name: 'model_date_id' },
    { key: { seq: 1 }, name: 'seq_unique', unique: true },
  ],
  removals: [{ key: { seq: 1 }, name: 'seq_unique', unique: true }],
  submissions: [
    { key: { status: 1, dueAt: 1, _id: 1 }, name: 'status_due' },
    { key: { status: 1, leaseUntil: 1 }, name: 'status_lease' },
    { key: { tokenName: 1, submittedAt: 1 }, name: 'token_submitted' },
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
};

/**
 * Transactions read one snapshot and commit with majority, journaled writes. Their operations
 * must run one after another on the session (the driver does not support parallel ones).
 */
const TRANSACTION_OPTIONS: TransactionOptions = {
  readConcern: new ReadConcern('snapshot'),
  writeConcern: new WriteConcern('majority', undefined, true),
  readPreference: 'primary',
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

/** True for a unique-index violation (E11000), also when it comes wrapped in a bulk write error. */
export function isDuplicateKeyError(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}

export class MongoArchiveDatabase {
  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    readonly collections: ArchiveCollections,
  ) {}

  /**
   * Connects with majority, journaled writes and majority reads (nothing read can be rolled back
   * by a failover), and with `createIndexes` creates every collection and index the adapters need.
   */
  static async open(location: MongoLocation, options: { createIndexes: boolean }): Promise<MongoArchiveDatabase> {
    const client = new MongoClient(location.uri, {
      appName: 'model-works-archive',
      writeConcern: { w: 'majority', journal: true },
      readConcern: { level: 'majority' },
      readPreference: 'primary',
      retryWrites: true,
      retryReads: true,
      ignoreUndefined: true,
      serverSelectionTimeoutMS: 15_000,
    });
    await client.connect();
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
    };
    const database = new MongoArchiveDatabase(client, db, collections);
    try {
      const problem = topologyProblem(await db.admin().command({ hello: 1 }));
      if (problem) throw new Error(problem);
      if (options.createIndexes) await database.createCollectionsAndIndexes();
    } catch (error) {
      await client.close();
      throw error;
    }
    return database;
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
    }
    // The counter exists before the first record write, so concurrent first writers conflict on
    // an update (retried) rather than race to insert it.
    await this.collections.catalogCounter.updateOne({ _id: 'catalog' }, { $setOnInsert: { changeNumber: 0, total: 0 } }, { upsert: true });
  }

  /** Runs `work` in a transaction, retried by the driver on transient errors and write conflicts. */
  async transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    const session = this.client.startSession();
    try {
      return await session.withTransaction(work, TRANSACTION_OPTIONS);
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
