import type { ClientSession } from 'mongodb';
import type { Filter } from 'mongodb';
import type { BatchRecord, ClaimedSubmission, EnqueueResult, IdempotencyRequest, NewBatch, NewSubmission, SubmissionQuery, SubmissionQueue } from '../../domain/ports.ts';
import { STOPPED_REASON_AFTER_COUNT, STOPPED_REASON_BEFORE_COUNT } from '../../domain/submission.ts';
import type { CheckVerdict, ReviewDecision, SubmissionOutcome, SubmissionRecord } from '../../domain/submission.ts';
import { newBatchId, newClaimToken, newSubmissionId } from '../sqlite/sqlite-submissions.ts';
import { fromSubmissionDocument, idempotentSubmissionIds, newSubmissionDocument } from './documents.ts';
import type { SubmissionDocument } from './documents.ts';
import { IDEMPOTENCY_RETENTION_SECONDS, isDuplicateKeyError } from './mongo-database.ts';
import type { MongoArchiveDatabase } from './mongo-database.ts';

/** A limit on how many submissions one token may make per UTC day. */
interface DailyLimit {
  limit: number;
}

/**
 * The submission queue in MongoDB. A claim is one `findOneAndUpdate` (atomic on the document),
 * so any number of publisher processes can share the queue; the claim's token is checked in
 * every later update's filter, so a claim that lapsed cannot overwrite the next claim's work.
 *
 * Lease times (`leaseUntil`, `dueAt` of a retry) are computed by the server from `$$NOW`, and
 * compared with it, so publishers on hosts whose clocks differ agree on when a lease ends. New
 * submissions and the `submittedAt`/`updatedAt` stamps use this process's clock.
 */
export class MongoSubmissionQueue implements SubmissionQueue {
  /**
   * @param testClock a clock a test moves to let time pass; the server's clock is read as moved
   *   by the same amount. The service leaves it out.
   */
  constructor(
    private readonly database: MongoArchiveDatabase,
    private readonly testClock?: () => number,
  ) {}

  private clock(): number {
    return this.testClock?.() ?? Date.now();
  }

  private get collections() {
    return this.database.collections;
  }

  /** The server's time in milliseconds since the epoch, as an aggregation expression. */
  private serverNow(): { $add: [{ $toLong: '$$NOW' }, number] } {
    return { $add: [{ $toLong: '$$NOW' }, this.testClock ? this.testClock() - Date.now() : 0] };
  }

  async enqueue(items: readonly NewSubmission[], idempotency?: IdempotencyRequest, quota?: DailyLimit, batch?: NewBatch): Promise<EnqueueResult> {
    try {
      return await this.enqueueOnce(items, idempotency, quota, batch);
    } catch (error) {
      // A concurrent request committed first what this one also inserts (the same Idempotency-Key,
      // a token's first quota guard): run again, now seeing it (a key becomes a replay).
      if (!isDuplicateKeyError(error)) throw error;
      return this.enqueueOnce(items, idempotency, quota, batch);
    }
  }

  private async enqueueOnce(items: readonly NewSubmission[], idempotency?: IdempotencyRequest, quota?: DailyLimit, batch?: NewBatch): Promise<EnqueueResult> {
    const now = this.clock();
    return this.database.transaction(async (session): Promise<EnqueueResult> => {
      if (idempotency) {
        const earlier = await this.collections.idempotencyKeys.findOne(
          { tokenName: idempotency.tokenName, key: idempotency.key, createdAt: { $gte: new Date(now - IDEMPOTENCY_RETENTION_SECONDS * 1000) } },
          { session, ...this.database.bounded },
        );
        if (earlier) return earlier.requestSha256 === idempotency.requestSha256 ? { kind: 'replay', submissionIds: idempotentSubmissionIds(earlier), batchId: earlier.batchId ?? null } : { kind: 'key-reused' };
      }
      if (quota) {
        const over = await this.overQuota(session, items, quota, now);
        if (over) return over;
      }
      const batchId = batch ? newBatchId(now) : null;
      const documents = items.map((item) => newSubmissionDocument(newSubmissionId(now), item.tokenName, item.submission, now, batchId));
      if (documents.length) await this.collections.submissions.insertMany(documents, { session });
      const records = documents.map(fromSubmissionDocument);
      if (batch && batchId) {
        const positions = records.map((record, position) => ({ index: batch.indexes[position] ?? position, submissionId: record.submissionId }));
        await this.collections.batches.insertOne({ _id: batchId, tokenName: items[0]?.tokenName ?? '', submittedAt: new Date(now).toISOString(), items: positions, refused: batch.refused }, { session });
      }
      if (idempotency) {
        // Replaces a key older than 24 hours that the TTL monitor has not removed yet.
        await this.collections.idempotencyKeys.replaceOne(
          { tokenName: idempotency.tokenName, key: idempotency.key },
          { tokenName: idempotency.tokenName, key: idempotency.key, requestSha256: idempotency.requestSha256, submissionIds: records.map((record) => record.submissionId), batchId, createdAt: new Date(now) },
          { upsert: true, session },
        );
      }
      return { kind: 'accepted', records, batchId };
    });
  }

  /**
   * Counts each token's submissions since the start of the UTC day. Each token's guard document
   * is updated first, so two concurrent batches of one token conflict and run one after the
   * other instead of both passing the count.
   */
  private async overQuota(session: ClientSession, items: readonly NewSubmission[], quota: DailyLimit, now: number): Promise<EnqueueResult | undefined> {
    const dayStart = `${new Date(now).toISOString().slice(0, 10)}T00:00:00.000Z`;
    const perToken = new Map<string, number>();
    for (const item of items) perToken.set(item.tokenName, (perToken.get(item.tokenName) ?? 0) + 1);
    for (const [tokenName, added] of perToken) {
      await this.collections.quotaGuards.updateOne({ _id: tokenName }, { $inc: { enqueues: 1 } }, { upsert: true, session });
      const used = await this.collections.submissions.countDocuments({ tokenName, submittedAt: { $gte: dayStart } }, { session, ...this.database.bounded });
      if (used + added > quota.limit) return { kind: 'over-quota', used, limit: quota.limit };
    }
    return undefined;
  }

  async getSubmission(submissionId: string): Promise<SubmissionRecord | undefined> {
    const document = await this.collections.submissions.findOne({ _id: submissionId }, this.database.bounded);
    return document ? fromSubmissionDocument(document) : undefined;
  }

  async getSubmissions(submissionIds: readonly string[]): Promise<SubmissionRecord[]> {
    if (submissionIds.length === 0) return [];
    const documents = await this.collections.submissions.find({ _id: { $in: [...submissionIds] } }, this.database.bounded).toArray();
    const byId = new Map(documents.map((document) => [document._id, fromSubmissionDocument(document)]));
    return submissionIds.flatMap((id) => byId.get(id) ?? []);
  }

  async getBatch(batchId: string): Promise<BatchRecord | undefined> {
    const document = await this.collections.batches.findOne({ _id: batchId }, this.database.bounded);
    return document ? { batchId: document._id, tokenName: document.tokenName, submittedAt: document.submittedAt, items: document.items, refused: document.refused } : undefined;
  }

  async listSubmissions(query: SubmissionQuery): Promise<SubmissionRecord[]> {
    const filter: Filter<SubmissionDocument> = {};
    if (query.tokenName !== undefined) filter.tokenName = query.tokenName;
    if (query.status) filter.status = query.status;
    const submittedAt: { $gte?: string } = {};
    if (query.since) submittedAt.$gte = query.since;
    if (query.since) filter.submittedAt = submittedAt;
    if (query.before) {
      const { submittedAt: at, submissionId } = query.before;
      filter.$or = [{ submittedAt: { ...submittedAt, $lt: at } }, { submittedAt: at, _id: { $lt: submissionId } }];
    }
    const documents = await this.collections.submissions.find(filter, this.database.bounded).sort({ submittedAt: -1, _id: -1 }).limit(query.limit).toArray();
    return documents.map(fromSubmissionDocument);
  }

  async review(submissionId: string, decision: ReviewDecision): Promise<SubmissionRecord | 'not-reviewable' | undefined> {
    const iso = new Date(this.clock()).toISOString();
    const change =
      decision.decision === 'approve'
        ? { status: 'queued', attempts: 0, dueAt: this.serverNow(), reason: { $literal: `Approved by ${decision.by}: ${decision.note}` } }
        : { status: 'rejected', reason: { $literal: `Rejected by ${decision.by}: ${decision.note}` } };
    // One atomic update, conditional on the status: two reviewers deciding at once cannot both succeed.
    const updated = await this.collections.submissions.findOneAndUpdate(
      { _id: submissionId, status: 'needs_review' },
      [{ $set: { ...change, updatedAt: { $literal: iso }, reviews: { $concatArrays: [{ $ifNull: ['$reviews', []] }, [{ $literal: decision }]] } } }],
      { returnDocument: 'after', ...this.database.bounded },
    );
    if (updated) return fromSubmissionDocument(updated);
    return (await this.collections.submissions.findOne({ _id: submissionId }, this.database.bounded)) ? 'not-reviewable' : undefined;
  }

  async claimNext(owner: string, leaseMs: number, maxAttempts: number): Promise<ClaimedSubmission | undefined> {
    const iso = new Date(this.clock()).toISOString();
    const now = this.serverNow();
    const lapsed = { status: 'processing', $expr: { $lt: ['$leaseUntil', now] } } as const;
    // Lapsed claims that used their last attempt go to a maintainer; they are never claimed again.
    await this.collections.submissions.updateMany({ ...lapsed, attempts: { $gte: maxAttempts } }, [
      {
        $set: {
          status: 'needs_review',
          leaseOwner: null,
          leaseToken: null,
          leaseUntil: null,
          updatedAt: { $literal: iso },
          reason: { $concat: [{ $literal: STOPPED_REASON_BEFORE_COUNT }, { $toString: '$attempts' }, { $literal: STOPPED_REASON_AFTER_COUNT }] },
        },
      },
    ]);
    // The claim itself: one atomic update of the oldest due submission or lapsed claim.
    const claimToken = newClaimToken();
    const claimed = await this.collections.submissions.findOneAndUpdate(
      { $or: [{ status: 'queued', $expr: { $lte: ['$dueAt', now] } }, { ...lapsed, attempts: { $lt: maxAttempts } }] },
      [
        {
          $set: {
            status: 'processing',
            leaseOwner: { $literal: owner },
            leaseToken: { $literal: claimToken },
            leaseUntil: { $add: [now, leaseMs] },
            updatedAt: { $literal: iso },
            attempts: { $add: ['$attempts', 1] },
          },
        },
      ],
      { sort: { dueAt: 1, _id: 1 }, returnDocument: 'after', ...this.database.bounded },
    );
    return claimed ? { ...fromSubmissionDocument(claimed), claimToken } : undefined;
  }

  async renewLease(submissionId: string, claimToken: string, leaseMs: number): Promise<boolean> {
    const result = await this.collections.submissions.updateOne({ _id: submissionId, leaseToken: claimToken, status: 'processing' }, [{ $set: { leaseUntil: { $add: [this.serverNow(), leaseMs] } } }]);
    return result.matchedCount > 0;
  }

  async complete(submissionId: string, claimToken: string, outcome: SubmissionOutcome): Promise<boolean> {
    const result = await this.collections.submissions.updateOne(
      { _id: submissionId, leaseToken: claimToken, status: 'processing' },
      {
        $set: {
          status: outcome.status,
          checks: outcome.checks,
          recordIds: outcome.recordIds,
          duplicateOf: outcome.duplicateOf,
          reason: outcome.reason,
          leaseOwner: null,
          leaseToken: null,
          leaseUntil: null,
          updatedAt: new Date(this.clock()).toISOString(),
        },
      },
    );
    return result.matchedCount > 0;
  }

  async retryLater(submissionId: string, claimToken: string, reason: string, delayMs: number, checks?: readonly CheckVerdict[]): Promise<boolean> {
    const result = await this.collections.submissions.updateOne({ _id: submissionId, leaseToken: claimToken, status: 'processing' }, [
      {
        $set: {
          status: 'queued',
          reason: { $literal: reason },
          dueAt: { $add: [this.serverNow(), delayMs] },
          leaseOwner: null,
          leaseToken: null,
          leaseUntil: null,
          updatedAt: { $literal: new Date(this.clock()).toISOString() },
          ...(checks ? { checks: { $literal: [...checks] } } : {}),
        },
      },
    ]);
    return result.matchedCount > 0;
  }

  async countByStatus(): Promise<Record<string, number>> {
    const groups = await this.collections.submissions.aggregate<{ _id: string; total: number }>([{ $group: { _id: '$status', total: { $sum: 1 } } }], this.database.bounded).toArray();
    return Object.fromEntries(groups.map((group) => [group._id, group.total]));
  }
}
