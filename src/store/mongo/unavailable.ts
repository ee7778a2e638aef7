/**
 * Which MongoDB errors mean "the database cannot serve this right now, try again shortly" (503
 * with Retry-After) rather than a defect (500). Read from the driver's own sources: the error
 * codes it retries reads and writes on, the labels the server and the driver attach, and the
 * error classes for unreachable servers.
 */
import {
  MongoBulkWriteError,
  MongoClientClosedError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from 'mongodb';

/**
 * Server error codes of a replica set that is changing primary, shutting down, unreachable or
 * slower than the operation's bound: the driver's retryable read and write codes, plus
 * MaxTimeMSExpired (an operation past its maxTimeMS) and WriteConcernTimeout (a majority not
 * reached within wtimeout).
 */
export const UNAVAILABLE_CODES: ReadonlyMap<number, string> = new Map([
  [6, 'HostUnreachable'],
  [7, 'HostNotFound'],
  [50, 'MaxTimeMSExpired'],
  [64, 'WriteConcernTimeout'],
  [89, 'NetworkTimeout'],
  [91, 'ShutdownInProgress'],
  [134, 'ReadConcernMajorityNotAvailableYet'],
  [189, 'PrimarySteppedDown'],
  [262, 'ExceededTimeLimit'],
  [9001, 'SocketException'],
  [10058, 'LegacyNotPrimary'],
  [10107, 'NotWritablePrimary'],
  [11600, 'InterruptedAtShutdown'],
  [11602, 'InterruptedDueToReplStateChange'],
  [13435, 'NotPrimaryNoSecondaryOk'],
  [13436, 'NotPrimaryOrSecondary'],
]);

/**
 * Labels that say the operation may succeed when tried again: a retryable write, a transaction
 * that failed before its commit (or whose retries ran out), a commit whose outcome is unknown, an
 * overloaded server.
 */
const UNAVAILABLE_LABELS = ['RetryableWriteError', 'TransientTransactionError', 'UnknownTransactionCommitResult', 'RetryableError', 'SystemOverloadedError'];

/** Servers before 4.2 answer some state changes with a message and no code. */
const LEGACY_MESSAGES = /not master|node is recovering/i;

const UNREACHABLE_CLASSES = [MongoNetworkError, MongoServerSelectionError, MongoNotConnectedError, MongoTopologyClosedError, MongoClientClosedError, MongoOperationTimeoutError, MongoWriteConcernError];

function unavailableItself(error: unknown): boolean {
  if (!(error instanceof MongoError)) return false;
  if (UNREACHABLE_CLASSES.some((kind) => error instanceof kind)) return true;
  // A bulk write's error carries `err` only for a write concern error (the driver exports its class as a type alone).
  if (error instanceof MongoBulkWriteError && error.err !== undefined) return true;
  if ((error as { writeConcernError?: unknown }).writeConcernError) return true;
  if (UNAVAILABLE_LABELS.some((name) => error.hasErrorLabel(name))) return true;
  if (typeof error.code === 'number' && UNAVAILABLE_CODES.has(error.code)) return true;
  return error.code === undefined && LEGACY_MESSAGES.test(error.message);
}

/** Whether an error (or an error it was caused by) means MongoDB cannot serve the request right now. */
export function isMongoUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth += 1) {
    if (unavailableItself(current)) return true;
  }
  return false;
}
