import type { BatchRecord } from '../../domain/ports.ts';
import type { SubmittedItem } from '../../domain/ingest/submit.ts';
import { SUBMISSION_STATUSES } from '../../domain/submission.ts';
import type { SubmissionRecord } from '../../domain/submission.ts';

/** The status URL of a submission. */
export function statusUrl(baseUrl: string, submissionId: string): string {
  return `${baseUrl}/api/v1/ingest/${submissionId}`;
}

/** The status URL of a batch. */
export function batchUrl(baseUrl: string, batchId: string): string {
  return `${baseUrl}/api/v1/ingest/batch/${batchId}`;
}

/**
 * A submission's status as GET /api/v1/ingest/{submissionId} answers it. `recordIds` are the
 * current ids of what it published (a timeline record that has since moved shows where it went).
 */
export function presentSubmission(record: SubmissionRecord, baseUrl: string, currentRecordIds: readonly string[] = record.recordIds) {
  return {
    submissionId: record.submissionId,
    status: record.status,
    statusUrl: statusUrl(baseUrl, record.submissionId),
    submittedAt: record.submittedAt,
    updatedAt: record.updatedAt,
    attempts: record.attempts,
    checks: record.checks,
    recordIds: [...currentRecordIds],
    duplicateOf: record.duplicateOf,
    reason: record.reason,
    reviews: record.reviews,
    batchUrl: record.batchId ? batchUrl(baseUrl, record.batchId) : null,
  };
}

/** One submission in a reviewer's list, which spans tokens: its status and who submitted it. */
export function presentListed(record: SubmissionRecord, baseUrl: string, currentRecordIds: readonly string[], withSubmitter: boolean) {
  return { ...presentSubmission(record, baseUrl, currentRecordIds), ...(withSubmitter ? { submittedBy: record.tokenName } : {}) };
}

/** The 202 answer for one accepted submission (the same when replayed). */
export function presentAccepted(submissionId: string, baseUrl: string) {
  return { submissionId, status: 'queued', statusUrl: statusUrl(baseUrl, submissionId) };
}

/** The 202 answer for a batch: one entry per item, accepted or refused with its errors. */
export function presentBatchAccepted(batchId: string | null, items: readonly SubmittedItem[], baseUrl: string) {
  const accepted = items.filter((item) => 'submissionId' in item).length;
  return {
    ...(batchId ? { batchId, batchUrl: batchUrl(baseUrl, batchId) } : {}),
    accepted,
    rejected: items.length - accepted,
    items: items.map((item) => ('submissionId' in item ? { index: item.index, ...presentAccepted(item.submissionId, baseUrl) } : { index: item.index, status: 'rejected', errors: item.errors })),
  };
}

/** A batch's status: how many of its submissions are in each status now, and each item. */
export function presentBatch(batch: BatchRecord, submissions: readonly SubmissionRecord[], baseUrl: string) {
  const byId = new Map(submissions.map((record) => [record.submissionId, record]));
  const counts = Object.fromEntries(SUBMISSION_STATUSES.map((status) => [status, 0])) as Record<string, number>;
  for (const record of submissions) counts[record.status] = (counts[record.status] ?? 0) + 1;
  const items = [
    ...batch.items.map((item) => {
      const record = byId.get(item.submissionId);
      return { index: item.index, submissionId: item.submissionId, status: record?.status ?? 'queued', statusUrl: statusUrl(baseUrl, item.submissionId), recordIds: record?.recordIds ?? [], duplicateOf: record?.duplicateOf ?? null, reason: record?.reason ?? null };
    }),
    ...batch.refused.map((item) => ({ index: item.index, status: 'rejected' as const, errors: item.errors })),
  ].sort((a, b) => a.index - b.index);
  return { batchId: batch.batchId, batchUrl: batchUrl(baseUrl, batch.batchId), submittedAt: batch.submittedAt, accepted: batch.items.length, rejected: batch.refused.length, counts, items };
}
