import type { WorkDescription } from './record.ts';

/** A work as a maintainer submits it (spec §2.3). Mirrors schemas/submission.schema.json. */
export interface Submission extends WorkDescription {
  /** 1 to 6 raster preview image URLs. */
  media: string[];
}

export const SUBMISSION_STATUSES = ['queued', 'processing', 'published', 'duplicate', 'needs_review'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** Statuses a submission never leaves. */
export const FINAL_STATUSES: readonly SubmissionStatus[] = ['published', 'duplicate', 'needs_review'];

/**
 * The reason a submission goes to needs_review when the publisher stopped (crash or timeout) in
 * every attempt at it; split around a plural count too, for stores that build it in a query.
 */
const STOPPED_REASON_END = ' while checking this submission (crash or timeout); a maintainer should look at it.';
export const STOPPED_REASON_BEFORE_COUNT = 'The publisher stopped ';
export const STOPPED_REASON_AFTER_COUNT = ` times${STOPPED_REASON_END}`;

export function stoppedReason(stops: number): string {
  return `${STOPPED_REASON_BEFORE_COUNT}${stops} time${stops === 1 ? '' : 's'}${STOPPED_REASON_END}`;
}

export const CHECK_NAMES = ['source-identity', 'date', 'preview-ownership', 'duplicates', 'images'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/** One publisher check's verdict: pass, fail (the work is at fault) or error (the check could not run). */
export interface CheckVerdict {
  name: CheckName;
  outcome: 'pass' | 'fail' | 'error';
  detail: string;
}

/** A submission as the queue keeps it. */
export interface SubmissionRecord {
  submissionId: string;
  /** Name of the token that submitted it; only that token may read it. */
  tokenName: string;
  status: SubmissionStatus;
  submission: Submission;
  submittedAt: string;
  updatedAt: string;
  attempts: number;
  checks: CheckVerdict[];
  recordIds: string[];
  duplicateOf: string | null;
  reason: string | null;
}

/** How a publisher run ended for one submission. */
export interface SubmissionOutcome {
  status: 'published' | 'duplicate' | 'needs_review';
  checks: CheckVerdict[];
  recordIds: string[];
  duplicateOf: string | null;
  reason: string | null;
}

export const TOKEN_SCOPES = ['ingest', 'export'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** An access token as the store keeps it: the secret itself is never stored, only its SHA-256. */
export interface TokenRecord {
  name: string;
  scopes: TokenScope[];
  createdAt: string;
  revokedAt: string | null;
}
