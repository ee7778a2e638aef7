/**
 * The review command: a maintainer's decision on a submission in needs_review. Approve returns it
 * to the queue, and the publisher publishes it with every failed check recorded as overridden, by
 * whom and why; reject makes it final as rejected. Either way the decision joins its history.
 */
import type { SubmissionQueue } from '../ports.ts';
import type { ReviewDecisionKind, SubmissionRecord, SubmissionStatus } from '../submission.ts';

/** The longest note a decision keeps. */
export const REVIEW_NOTE_MAX_LENGTH = 2000;

export interface ReviewRequest {
  submissionId: string;
  decision: ReviewDecisionKind;
  /** Why: kept in the history, and in every check the approval overrides. */
  note: string;
  /** Who decides: a token's name, or the shell user of `npm run review`. */
  reviewer: string;
  now: Date;
}

export type ReviewResult =
  | { kind: 'reviewed'; record: SubmissionRecord }
  | { kind: 'not-found' }
  /** Only a submission in needs_review can be reviewed. */
  | { kind: 'not-reviewable'; status: SubmissionStatus }
  | { kind: 'invalid'; message: string };

export async function review(ports: { submissions: SubmissionQueue }, request: ReviewRequest): Promise<ReviewResult> {
  const note = request.note.trim();
  if (!note) return { kind: 'invalid', message: 'a note saying why is required' };
  if (note.length > REVIEW_NOTE_MAX_LENGTH) return { kind: 'invalid', message: `the note must be at most ${REVIEW_NOTE_MAX_LENGTH} characters` };
  const result = await ports.submissions.review(request.submissionId, { decision: request.decision, by: request.reviewer, note, at: request.now.toISOString(), from: 'needs_review' });
  if (result === undefined) return { kind: 'not-found' };
  if (result === 'not-reviewable') {
    const current = await ports.submissions.getSubmission(request.submissionId);
    return { kind: 'not-reviewable', status: current?.status ?? 'queued' };
  }
  return { kind: 'reviewed', record: result };
}
