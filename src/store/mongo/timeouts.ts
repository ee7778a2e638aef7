/**
 * How long each stage of a MongoDB operation may take, so that a request meeting a failover, a
 * lost primary or a silent server is answered (503) within seconds instead of waiting for the
 * driver's defaults (30 s of server selection, sockets that never time out, two minutes of
 * transaction retries).
 *
 * The driver's single `timeoutMS` cannot do this: from driver 7.8 (and 6.22) it is deprecated and
 * ignored, after a connection-pool defect in its implementation, and the driver's documentation
 * points to the per-stage options used here instead.
 */
import type { MongoClientOptions, TransactionOptions } from 'mongodb';
import { ReadConcern, WriteConcern } from 'mongodb';

export interface MongoTimeouts {
  /** Finding a member that can serve the operation (the primary); a replica-set election takes about 10 s. */
  serverSelectionMs: number;
  /** Opening a connection, handshake included. */
  connectMs: number;
  /** Waiting for a free connection in the pool. */
  waitQueueMs: number;
  /**
   * Server-side work of one operation: `maxTimeMS` of reads, `wtimeout` of a majority write's
   * acknowledgement, `maxCommitTimeMS` of a commit.
   */
  operationMs: number;
  /** A connection that stays silent this long during an operation is closed (a server that stopped answering). */
  socketMs: number;
  /** A transaction with all its retries (write conflicts, failover); past it the last error is thrown. */
  transactionMs: number;
}

/** In service. A single operation that never reaches a server gives up after serverSelectionMs. */
export const DEFAULT_MONGO_TIMEOUTS: MongoTimeouts = {
  serverSelectionMs: 10_000,
  connectMs: 5_000,
  waitQueueMs: 5_000,
  operationMs: 10_000,
  socketMs: 20_000,
  transactionMs: 20_000,
};

/** The client settings: majority, journaled writes and majority reads, every stage bounded. */
export function mongoClientOptions(timeouts: MongoTimeouts): MongoClientOptions {
  return {
    appName: 'model-works-archive',
    writeConcern: { w: 'majority', journal: true, wtimeoutMS: timeouts.operationMs },
    readConcern: { level: 'majority' },
    readPreference: 'primary',
    retryWrites: true,
    retryReads: true,
    ignoreUndefined: true,
    serverSelectionTimeoutMS: timeouts.serverSelectionMs,
    connectTimeoutMS: timeouts.connectMs,
    waitQueueTimeoutMS: timeouts.waitQueueMs,
    socketTimeoutMS: timeouts.socketMs,
  };
}

/**
 * Transactions read one snapshot and commit with majority, journaled writes. Their operations
 * must run one after another on the session (the driver does not support parallel ones).
 */
export function transactionOptions(timeouts: MongoTimeouts): TransactionOptions {
  return {
    readConcern: new ReadConcern('snapshot'),
    writeConcern: new WriteConcern('majority', timeouts.operationMs, true),
    readPreference: 'primary',
    maxCommitTimeMS: timeouts.operationMs,
  };
}
