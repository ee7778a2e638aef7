import type { WorkDescription } from './record.ts';

/** A work as a maintainer submits it (spec §2.3). Mirrors schemas/submission.schema.json. */
export interface Submission extends WorkDescription {
  /** 1 to 6 raster preview image URLs. */
  media: string[];
}

/** The spec's five statuses, and `rejected`, which only a maintainer's review decision reaches. */
export const SUBMISSION_STATUSES = ['queued', 'processing', 'published', 'duplicate', 'needs_review', 'rejected'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** Statuses the publisher never moves a submission out of (a maintainer may review a needs_review one). */
export const FINAL_STATUSES: readonly SubmissionStatus[] = ['published', 'duplicate', 'needs_review', 'rejected'];

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

/**
 * What a check found: pass; fail (the work is at fault); error (the check could not run, e.g. a
 * media host is down); pending (it runs in a later attempt, after a transient fault); skipped (it
 * never ran, because the submission had already failed a check that decides without fetching).
 */
export const CHECK_OUTCOMES = ['pass', 'fail', 'error', 'pending', 'skipped'] as const;
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];

/** A maintainer's override of a check that failed or could not run, recorded when the publisher acts on the approval. */
export interface CheckOverride {
  /** The reviewer: a token name, or the shell user of `npm run review`. */
  by: string;
  note: string;
  at: string;
}

/** One publisher check's verdict. */
export interface CheckVerdict {
  name: CheckName;
  outcome: CheckOutcome;
  detail: string;
  /** Present when a maintainer approved the submission although this check did not pass. */
  override?: CheckOverride;
}

export const REVIEW_DECISIONS = ['approve', 'reject'] as const;
export type ReviewDecisionKind = (typeof REVIEW_DECISIONS)[number];

/** One maintainer decision on a needs_review submission, kept in its history. */
export interface ReviewDecision {
  decision: ReviewDecisionKind;
  by: string;
  note: string;
  at: string;
  /** The status the submission had when the decision was taken (needs_review). */
  from: SubmissionStatus;
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
  /** Every review decision, oldest first. */
  reviews: ReviewDecision[];
  /** The batch it came in, when it came in one. */
  batchId: string | null;
}

/** The decision a submission is being published under: the latest, when it approved. */
export function pendingApproval(record: Pick<SubmissionRecord, 'reviews'>): ReviewDecision | undefined {
  const latest = record.reviews.at(-1);
  return latest?.decision === 'approve' ? latest : undefined;
}

/** How a publisher run ended for one submission. */
export interface SubmissionOutcome {
  status: 'published' | 'duplicate' | 'needs_review';
  checks: CheckVerdict[];
  recordIds: string[];
  duplicateOf: string | null;
  reason: string | null;
}

/** ingest: submit and follow one's own submissions; export: the authenticated export; review: list every token's submissions and approve or reject those in needs_review. */
export const TOKEN_SCOPES = ['ingest', 'export', 'review'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** An access token as the store keeps it: the secret itself is never stored, only its SHA-256. */
export interface TokenRecord {
  name: string;
  scopes: TokenScope[];
  createdAt: string;
  revokedAt: string | null;
}
