import type { SubmissionRecord } from '../../domain/submission.ts';

/** The status URL of a submission. */
export function statusUrl(baseUrl: string, submissionId: string): string {
  return `${baseUrl}/api/v1/ingest/${submissionId}`;
}

/** A submission's status as GET /api/v1/ingest/{submissionId} answers it. */
export function presentSubmission(record: SubmissionRecord, baseUrl: string) {
  return {
    submissionId: record.submissionId,
    status: record.status,
    statusUrl: statusUrl(baseUrl, record.submissionId),
    submittedAt: record.submittedAt,
    updatedAt: record.updatedAt,
    attempts: record.attempts,
    checks: record.checks,
    recordIds: record.recordIds,
    duplicateOf: record.duplicateOf,
    reason: record.reason,
  };
}

/** The 202 answer for one accepted submission. */
export function presentAccepted(record: SubmissionRecord, baseUrl: string) {
  return { submissionId: record.submissionId, status: record.status, statusUrl: statusUrl(baseUrl, record.submissionId) };
}
