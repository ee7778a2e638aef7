/**
 * MongoDB errors built with the driver's own classes, as the driver builds them from a server's
 * reply or a broken connection.
 */
import { MongoClientClosedError, MongoNetworkError, MongoNetworkTimeoutError, MongoServerError, MongoWriteConcernError } from 'mongodb';
import type { MongoError } from 'mongodb';

/** A server reply's error as the driver turns it into an exception. */
export function serverError(code: number, codeName: string, errorLabels: string[] = []): MongoServerError {
  return new MongoServerError({ ok: 0, code, codeName, errmsg: `${codeName} (from the server)`, errorLabels });
}

/** Errors a failover, a shutdown or an overloaded replica set produces, by what happened. */
export function failoverErrors(): Record<string, MongoError> {
  return {
    NotWritablePrimary: serverError(10107, 'NotWritablePrimary'),
    PrimarySteppedDown: serverError(189, 'PrimarySteppedDown'),
    InterruptedDueToReplStateChange: serverError(11602, 'InterruptedDueToReplStateChange'),
    ShutdownInProgress: serverError(91, 'ShutdownInProgress'),
    'a write concern not satisfied in time': new MongoWriteConcernError({ ok: 1, writeConcernError: { code: 64, codeName: 'WriteConcernTimeout', errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true } } }),
    'a write concern error on a write reply': new MongoServerError({ ok: 1, n: 1, writeConcernError: { code: 100, codeName: 'UnsatisfiableWriteConcern', errmsg: 'Not enough data-bearing nodes' } }),
    'a transaction whose retries ran out on a write conflict': serverError(112, 'WriteConflict', ['TransientTransactionError']),
    'a commit that timed out on the server': serverError(50, 'MaxTimeMSExpired', ['UnknownTransactionCommitResult']),
    'a retryable write that failed twice': serverError(6, 'HostUnreachable', ['RetryableWriteError']),
    'a lost connection': new MongoNetworkError('connection 2 to 10.0.0.1:27017 closed'),
    'a server silent past the socket timeout': new MongoNetworkTimeoutError('connection 3 to 10.0.0.2:27017 timed out'),
    'a client closed during shutdown': new MongoClientClosedError(),
  };
}
