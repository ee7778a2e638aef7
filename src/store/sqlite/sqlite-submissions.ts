import { randomBytes } from 'node:crypto';
import type { ClaimedSubmission, DailyQuota, EnqueueResult, IdempotencyRequest, NewSubmission, SubmissionQueue } from '../../domain/ports.ts';
import { stoppedReason } from '../../domain/submission.ts';
import type { Submission, SubmissionOutcome, SubmissionRecord, SubmissionStatus } from '../../domain/submission.ts';
import type { SqliteDatabase } from './database.ts';

/** How long an Idempotency-Key's answer is kept. */
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
  };
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

  constructor(
    private readonly db: SqliteDatabase,
    private readonly clock: () => number = Date.now,
  ) {
    this.statements = {
      insert: db.prepare('INSERT INTO submissions (id, token_name, status, body, submitted_at, updated_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      get: db.prepare<[string], SubmissionRow>('SELECT * FROM submissions WHERE id = ?'),
      expired: db.prepare<[number], SubmissionRow>("SELECT * FROM submissions WHERE status = 'processing' AND lease_until < ? ORDER BY lease_until LIMIT 1"),
      due: db.prepare<[number], SubmissionRow>("SELECT * FROM submissions WHERE status = 'queued' AND due_at <= ? ORDER BY due_at, id LIMIT 1"),
      claim: db.prepare("UPDATE submissions SET status = 'processing', lease_owner = ?, lease_token = ?, lease_until = ?, attempts = attempts + 1, updated_at = ? WHERE id = ?"),
      giveUp: db.prepare("UPDATE submissions SET status = 'needs_review', lease_owner = NULL, lease_token = NULL, lease_until = NULL, reason = ?, updated_at = ? WHERE id = ?"),
      renew: db.prepare("UPDATE submissions SET lease_until = ? WHERE id = ? AND lease_token = ? AND status = 'processing'"),
      complete: db.prepare("UPDATE submissions SET status = ?, checks = ?, record_ids = ?, duplicate_of = ?, reason = ?, lease_owner = NULL, lease_token = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND lease_token = ? AND status = 'processing'"),
      retry: db.prepare("UPDATE submissions SET status = 'queued', reason = ?, due_at = ?, lease_owner = NULL, lease_token = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND lease_token = ? AND status = 'processing'"),
      counts: db.prepare<[], { status: string; total: number }>('SELECT status, count(*) AS total FROM submissions GROUP BY status'),
      findKey: db.prepare<[string, string, number], { request_sha256: string; status: number; body: string }>('SELECT request_sha256, status, body FROM idempotency_keys WHERE token_name = ? AND key = ? AND created_at >= ?'),
      saveKey: db.prepare('INSERT INTO idempotency_keys (token_name, key, request_sha256, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (token_name, key) DO UPDATE SET request_sha256 = excluded.request_sha256, status = excluded.status, body = excluded.body, created_at = excluded.created_at'),
      submittedSince: db.prepare<[string, string], { total: number }>('SELECT count(*) AS total FROM submissions WHERE token_name = ? AND submitted_at >= ?'),
      dropOldKeys: db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?'),
    };
  }

  async enqueue(items: readonly NewSubmission[], idempotency?: IdempotencyRequest, quota?: DailyQuota): Promise<EnqueueResult> {
    const now = this.clock();
    const iso = new Date(now).toISOString();
    return this.db
      .transaction((): EnqueueResult => {
        if (idempotency) {
          this.statements.dropOldKeys.run(now - IDEMPOTENCY_RETENTION_MS);
          const earlier = this.statements.findKey.get(idempotency.tokenName, idempotency.key, now - IDEMPOTENCY_RETENTION_MS);
          if (earlier) return earlier.request_sha256 === idempotency.requestSha256 ? { kind: 'replay', answer: { status: earlier.status, body: earlier.body } } : { kind: 'key-reused' };
        }
        if (quota) {
          const dayStart = `${iso.slice(0, 10)}T00:00:00.000Z`;
          const over = this.quotaUse(items, dayStart).find((use) => use.used + use.added > quota.limit);
          if (over) return { kind: 'over-quota', used: over.used, limit: quota.limit };
        }
        const records = items.map((item) => {
          const id = newSubmissionId(now);
          this.statements.insert.run(id, item.tokenName, 'queued', JSON.stringify(item.submission), iso, iso, now);
          return toRecord(this.statements.get.get(id) as SubmissionRow);
        });
        if (idempotency) {
          const answer = idempotency.render(records);
          this.statements.saveKey.run(idempotency.tokenName, idempotency.key, idempotency.requestSha256, answer.status, answer.body, now);
        }
        return { kind: 'accepted', records };
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

  async claimNext(owner: string, leaseMs: number, maxAttempts: number): Promise<ClaimedSubmission | undefined> {
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

  async retryLater(submissionId: string, claimToken: string, reason: string, delayMs: number): Promise<boolean> {
    const now = this.clock();
    return this.statements.retry.run(reason, now + delayMs, new Date(now).toISOString(), submissionId, claimToken).changes > 0;
  }

  async countByStatus(): Promise<Record<string, number>> {
    return Object.fromEntries(this.statements.counts.all().map((row) => [row.status, row.total]));
  }
}
