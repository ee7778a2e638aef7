import { randomBytes } from 'node:crypto';
import type { BatchRecord, ClaimedSubmission, DailyQuota, EnqueueResult, IdempotencyRequest, NewBatch, NewSubmission, RefusedItem, SubmissionQuery, SubmissionQueue } from '../../domain/ports.ts';
import { stoppedReason } from '../../domain/submission.ts';
import type { CheckVerdict, ReviewDecision, Submission, SubmissionOutcome, SubmissionRecord, SubmissionStatus } from '../../domain/submission.ts';
import type { SqliteDatabase } from './database.ts';
import { DatabaseFileWatch } from './database-file.ts';

/** How long an Idempotency-Key and the ids it created are kept. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

interface SubmissionRow {
  id: string;
  token_name: string;
  status: string;
  body: string;
  submitted_at: string;
  updated_at: string;
  attempts: number;
  due_at: number;
  lease_owner: string | null;
  lease_token: string | null;
  lease_until: number | null;
  checks: string;
  record_ids: string;
  duplicate_of: string | null;
  reason: string | null;
  reviews: string;
  batch_id: string | null;
}

interface BatchRow {
  id: string;
  token_name: string;
  submitted_at: string;
  items: string;
  refused: string;
}

function toRecord(row: SubmissionRow): SubmissionRecord {
  return {
    submissionId: row.id,
    tokenName: row.token_name,
    status: row.status as SubmissionStatus,
    submission: JSON.parse(row.body) as Submission,
    submittedAt: row.submitted_at,
    updatedAt: row.updated_at,
    attempts: row.attempts,
    checks: JSON.parse(row.checks) as SubmissionRecord['checks'],
    recordIds: JSON.parse(row.record_ids) as string[],
    duplicateOf: row.duplicate_of,
    reason: row.reason,
    reviews: JSON.parse(row.reviews) as ReviewDecision[],
    batchId: row.batch_id,
  };
}

/** A new batch id: time-ordered, unguessable. */
export function newBatchId(now = Date.now()): string {
  return `bat_${now.toString(36).padStart(9, '0')}${randomBytes(8).toString('hex')}`;
}

/** A new submission id: time-ordered, unguessable. */
export function newSubmissionId(now = Date.now()): string {
  return `sub_${now.toString(36).padStart(9, '0')}${randomBytes(8).toString('hex')}`;
}

/** A new claim token: random, so no two claims of any processes share one. */
export function newClaimToken(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The durable submission queue in the embedded store; claims are atomic IMMEDIATE transactions.
 * Lease times come from this process's clock, which is the database's: the file lives on this
 * machine.
 */
export class SqliteSubmissionQueue implements SubmissionQueue {
  private readonly statements;
  private readonly file: DatabaseFileWatch;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly clock: () => number = Date.now,
  ) {
    this.file = new DatabaseFileWatch(db.name);
    this.statements = {
      insert: db.prepare('INSERT INTO submissions (id, token_name, status, body, submitted_at, updated_at, due_at, batch_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      get: db.prepare<[string], SubmissionRow>('SELECT * FROM submissions WHERE id = ?'),
      expired: db.prepare<[number], SubmissionRow>("SELECT * FROM submissions WHERE status = 'processing' AND lease_until < ? ORDER BY lease_until LIMIT 1"),
      due: db.prepare<[number], SubmissionRow>("SELECT * FROM submissions WHERE status = 'queued' AND due_at <= ? ORDER BY due_at, id LIMIT 1"),
      claim: db.prepare("UPDATE submissions SET status = 'processing', lease_owner = ?, lease_token = ?, lease_until = ?, attempts = attempts + 1, updated_at = ? WHERE id = ?"),
      giveUp: db.prepare("UPDATE submissions SET status = 'needs_review', lease_owner = NULL, lease_token = NULL, lease_until = NULL, reason = ?, updated_at = ? WHERE id = ?"),
      renew: db.prepare("UPDATE submissions SET lease_until = ? WHERE id = ? AND lease_token = ? AND status = 'processing'"),
      complete: db.prepare("UPDATE submissions SET status = ?, checks = ?, record_ids = ?, duplicate_of = ?, reason = ?, lease_owner = NULL, lease_token = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND lease_token = ? AND status = 'processing'"),
      retry: db.prepare("UPDATE submissions SET status = 'queued', reason = ?, checks = coalesce(?, checks), due_at = ?, lease_owner = NULL, lease_token = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND lease_token = ? AND status = 'processing'"),
      approve: db.prepare("UPDATE submissions SET status = 'queued', attempts = 0, due_at = ?, reason = ?, reviews = ?, updated_at = ? WHERE id = ? AND status = 'needs_review'"),
      reject: db.prepare("UPDATE submissions SET status = 'rejected', reason = ?, reviews = ?, updated_at = ? WHERE id = ? AND status = 'needs_review'"),
      insertBatch: db.prepare('INSERT INTO batches (id, token_name, submitted_at, items, refused) VALUES (?, ?, ?, ?, ?)'),
      getBatch: db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE id = ?'),
      counts: db.prepare<[], { status: string; total: number }>('SELECT status, count(*) AS total FROM submissions GROUP BY status'),
      findKey: db.prepare<[string, string, number], { request_sha256: string; submission_ids: string; batch_id: string | null }>('SELECT request_sha256, submission_ids, batch_id FROM idempotency_requests WHERE token_name = ? AND key = ? AND created_at >= ?'),
      saveKey: db.prepare('INSERT INTO idempotency_requests (token_name, key, request_sha256, submission_ids, batch_id, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (token_name, key) DO UPDATE SET request_sha256 = excluded.request_sha256, submission_ids = excluded.submission_ids, batch_id = excluded.batch_id, created_at = excluded.created_at'),
      submittedSince: db.prepare<[string, string], { total: number }>('SELECT count(*) AS total FROM submissions WHERE token_name = ? AND submitted_at >= ?'),
      dropOldKeys: db.prepare('DELETE FROM idempotency_requests WHERE created_at < ?'),
    };
  }

  async enqueue(items: readonly NewSubmission[], idempotency?: IdempotencyRequest, quota?: DailyQuota, batch?: NewBatch): Promise<EnqueueResult> {
    this.file.check();
    const now = this.clock();
    const iso = new Date(now).toISOString();
    return this.db
      .transaction((): EnqueueResult => {
        if (idempotency) {
          this.statements.dropOldKeys.run(now - IDEMPOTENCY_RETENTION_MS);
          const earlier = this.statements.findKey.get(idempotency.tokenName, idempotency.key, now - IDEMPOTENCY_RETENTION_MS);
          if (earlier) return earlier.request_sha256 === idempotency.requestSha256 ? { kind: 'replay', submissionIds: JSON.parse(earlier.submission_ids) as string[], batchId: earlier.batch_id } : { kind: 'key-reused' };
        }
        if (quota) {
          const dayStart = `${iso.slice(0, 10)}T00:00:00.000Z`;
          const over = this.quotaUse(items, dayStart).find((use) => use.used + use.added > quota.limit);
          if (over) return { kind: 'over-quota', used: over.used, limit: quota.limit };
        }
        const batchId = batch ? newBatchId(now) : null;
        const records = items.map((item) => {
          const id = newSubmissionId(now);
          this.statements.insert.run(id, item.tokenName, 'queued', JSON.stringify(item.submission), iso, iso, now, batchId);
          return toRecord(this.statements.get.get(id) as SubmissionRow);
        });
        if (batch && batchId) {
          const positions = records.map((record, position) => ({ index: batch.indexes[position] ?? position, submissionId: record.submissionId }));
          this.statements.insertBatch.run(batchId, items[0]?.tokenName ?? '', iso, JSON.stringify(positions), JSON.stringify(batch.refused));
        }
        if (idempotency) {
          this.statements.saveKey.run(idempotency.tokenName, idempotency.key, idempotency.requestSha256, JSON.stringify(records.map((record) => record.submissionId)), batchId, now);
        }
        return { kind: 'accepted', records, batchId };
      })
      .immediate();
  }

  /** For each token in the batch, its submissions since dayStart and how many this batch adds. */
  private quotaUse(items: readonly NewSubmission[], dayStart: string): { used: number; added: number }[] {
    const perToken = new Map<string, number>();
    for (const item of items) perToken.set(item.tokenName, (perToken.get(item.tokenName) ?? 0) + 1);
    return [...perToken].map(([tokenName, added]) => ({ used: this.statements.submittedSince.get(tokenName, dayStart)?.total ?? 0, added }));
  }

  async getSubmission(submissionId: string): Promise<SubmissionRecord | undefined> {
    const row = this.statements.get.get(submissionId);
    return row ? toRecord(row) : undefined;
  }

  async getSubmissions(submissionIds: readonly string[]): Promise<SubmissionRecord[]> {
    return submissionIds.flatMap((id) => {
      const row = this.statements.get.get(id);
      return row ? [toRecord(row)] : [];
    });
  }

  async getBatch(batchId: string): Promise<BatchRecord | undefined> {
    const row = this.statements.getBatch.get(batchId);
    if (!row) return undefined;
    return { batchId: row.id, tokenName: row.token_name, submittedAt: row.submitted_at, items: JSON.parse(row.items) as BatchRecord['items'], refused: JSON.parse(row.refused) as RefusedItem[] };
  }

  async listSubmissions(query: SubmissionQuery): Promise<SubmissionRecord[]> {
    const where: string[] = [];
    const values: (string | number)[] = [];
    if (query.tokenName !== undefined) {
      where.push('token_name = ?');
      values.push(query.tokenName);
    }
    if (query.status) {
      where.push('status = ?');
      values.push(query.status);
    }
    if (query.since) {
      where.push('submitted_at >= ?');
      values.push(query.since);
    }
    if (query.before) {
      where.push('(submitted_at, id) < (?, ?)');
      values.push(query.before.submittedAt, query.before.submissionId);
    }
    const sql = `SELECT * FROM submissions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY submitted_at DESC, id DESC LIMIT ?`;
    return this.db.prepare<(string | number)[], SubmissionRow>(sql).all(...values, query.limit).map(toRecord);
  }

  async review(submissionId: string, decision: ReviewDecision): Promise<SubmissionRecord | 'not-reviewable' | undefined> {
    return this.db
      .transaction((): SubmissionRecord | 'not-reviewable' | undefined => {
        const row = this.statements.get.get(submissionId);
        if (!row) return undefined;
        if (row.status !== 'needs_review') return 'not-reviewable';
        const now = this.clock();
        const iso = new Date(now).toISOString();
        const reviews = JSON.stringify([...(JSON.parse(row.reviews) as ReviewDecision[]), decision]);
        if (decision.decision === 'approve') this.statements.approve.run(now, `Approved by ${decision.by}: ${decision.note}`, reviews, iso, submissionId);
        else this.statements.reject.run(`Rejected by ${decision.by}: ${decision.note}`, reviews, iso, submissionId);
        return toRecord(this.statements.get.get(submissionId) as SubmissionRow);
      })
      .immediate();
  }

  async claimNext(owner: string, leaseMs: number, maxAttempts: number): Promise<ClaimedSubmission | undefined> {
    this.file.check();
    return this.db
      .transaction((): ClaimedSubmission | undefined => {
        const now = this.clock();
        const iso = new Date(now).toISOString();
        const claim = (id: string): ClaimedSubmission => {
          const claimToken = newClaimToken();
          this.statements.claim.run(owner, claimToken, now + leaseMs, iso, id);
          return { ...toRecord(this.statements.get.get(id) as SubmissionRow), claimToken };
        };
        for (;;) {
          const expired = this.statements.expired.get(now);
          if (!expired) break;
          if (expired.attempts < maxAttempts) return claim(expired.id);
          this.statements.giveUp.run(stoppedReason(expired.attempts), iso, expired.id);
        }
        const due = this.statements.due.get(now);
        return due ? claim(due.id) : undefined;
      })
      .immediate();
  }

  async renewLease(submissionId: string, claimToken: string, leaseMs: number): Promise<boolean> {
    return this.statements.renew.run(this.clock() + leaseMs, submissionId, claimToken).changes > 0;
  }

  async complete(submissionId: string, claimToken: string, outcome: SubmissionOutcome): Promise<boolean> {
    const iso = new Date(this.clock()).toISOString();
    return (
      this.statements.complete.run(outcome.status, JSON.stringify(outcome.checks), JSON.stringify(outcome.recordIds), outcome.duplicateOf, outcome.reason, iso, submissionId, claimToken).changes > 0
    );
  }

  async retryLater(submissionId: string, claimToken: string, reason: string, delayMs: number, checks?: readonly CheckVerdict[]): Promise<boolean> {
    const now = this.clock();
    return this.statements.retry.run(reason, checks ? JSON.stringify(checks) : null, now + delayMs, new Date(now).toISOString(), submissionId, claimToken).changes > 0;
  }

  async countByStatus(): Promise<Record<string, number>> {
    return Object.fromEntries(this.statements.counts.all().map((row) => [row.status, row.total]));
  }
}
