/**
 * A MongoDB transaction with its retries bounded in time.
 *
 * The rules are MongoDB's own for transactions (the same ones `withTransaction` applies): an
 * error labelled `TransientTransactionError` (a write conflict, a primary stepping down before
 * the commit) means nothing was committed and the whole transaction may run again; a commit
 * error labelled `UnknownTransactionCommitResult` means the commit may or may not have happened
 * and the commit alone may be sent again (the driver sends it with majority write concern, and
 * the server answers a repeated commit of a committed transaction with success). Anything else
 * ends the transaction.
 *
 * `withTransaction` keeps retrying for two minutes, a limit it does not let callers lower (its
 * `timeoutMS` is ignored by this driver). This runner stops retrying at `budgetMs` and throws the
 * last error, labels intact, which the service answers as 503 (unavailable.ts).
 */
import { MongoError } from 'mongodb';
import type { ClientSession, TransactionOptions } from 'mongodb';

/** The server's code for an operation that ran past its maxTimeMS. */
const MAX_TIME_MS_EXPIRED = 50;

/** What to do after an error, by MongoDB's rules for transactions. */
export type AfterTransactionError = 'retry-transaction' | 'retry-commit' | 'give-up';

function label(error: unknown, name: string): boolean {
  return error instanceof MongoError && error.hasErrorLabel(name);
}

function maxTimeExpired(error: unknown): boolean {
  if (!(error instanceof MongoError)) return false;
  const writeConcernCode = (error as { writeConcernError?: { code?: unknown } }).writeConcernError?.code;
  return error.code === MAX_TIME_MS_EXPIRED || writeConcernCode === MAX_TIME_MS_EXPIRED;
}

/** The next step after `error` was thrown by the transaction's work or by its commit. */
export function afterTransactionError(error: unknown, during: 'work' | 'commit'): AfterTransactionError {
  if (during === 'commit' && label(error, 'UnknownTransactionCommitResult') && !maxTimeExpired(error)) return 'retry-commit';
  if (label(error, 'TransientTransactionError')) return 'retry-transaction';
  return 'give-up';
}

/** A short random pause between attempts, growing with each, so conflicting writers spread out. */
function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(5 * 1.5 ** attempt, 500);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `work` in a transaction on `session`, retrying by MongoDB's rules until `budgetMs` has passed. */
export async function runTransaction<T>(session: ClientSession, work: (session: ClientSession) => Promise<T>, options: TransactionOptions, budgetMs: number): Promise<T> {
  const deadline = performance.now() + budgetMs;
  for (let attempt = 0; ; attempt += 1) {
    if (attempt > 0) await backoff(attempt);
    session.startTransaction(options);
    let result: T;
    try {
      result = await work(session);
    } catch (error) {
      if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
      if (afterTransactionError(error, 'work') === 'retry-transaction' && performance.now() < deadline) continue;
      throw error;
    }
    for (;;) {
      try {
        await session.commitTransaction();
        return result;
      } catch (error) {
        const next = afterTransactionError(error, 'commit');
        if (next === 'give-up' || performance.now() >= deadline) throw error;
        if (next === 'retry-transaction') break;
      }
    }
  }
}
