import type { RecordStore } from '../ports.ts';
import type { CanonicalRecord } from '../record.ts';
import { workKey } from '../sources.ts';
import { reasonSentence } from '../record-fates.ts';
import type { CheckVerdict } from '../submission.ts';
import { describeLikeness } from '../previews.ts';
import type { PreviewMatch } from '../previews.ts';

/** Set when the work is certainly archived already. */
export interface DuplicateFinding {
  verdict: CheckVerdict;
  duplicateOf?: string;
}

/**
 * The first of a work's records that is not this submission's own (one an earlier attempt of it
 * wrote): a record of another submission, or one that came with no submission (imported).
 */
export function otherSubmissionsRecord<T extends CanonicalRecord>(ofWork: readonly T[], submissionId: string): T | undefined {
  return ofWork.find((record) => record.submissionId !== submissionId || !record.submissionId);
}

/**
 * Duplicates, its first part, decided before anything is fetched: a published record (other than
 * this submission's own, from an earlier attempt) has a source URL of the same work: the same
 * work key (sources.ts workKey), so another case of a GitHub owner, another handle or share form
 * of an x.com status, or a URL stored before such parts were folded, is the same source.
 */
export async function findSameSource(store: RecordStore, canonicalUrl: string, submissionId: string): Promise<DuplicateFinding | undefined> {
  const sameSource = otherSubmissionsRecord(await store.findByWorkKey(workKey(canonicalUrl)), submissionId);
  if (!sameSource) return undefined;
  const stored = sameSource.sourceUrl === canonicalUrl ? '' : ` (its source URL: ${sameSource.sourceUrl})`;
  return { verdict: { name: 'duplicates', outcome: 'fail', detail: `${canonicalUrl} is already archived as ${sameSource.id}${stored}.` }, duplicateOf: sameSource.id };
}

/**
 * Duplicates, its part for withdrawn works, also decided before anything is fetched: a record of
 * the same work (the same work key) was withdrawn, on a takedown request. That is not a duplicate
 * (nothing of the work is in the archive), but the work is not published again unseen: the check
 * fails, the submission goes to needs_review, and a maintainer's approval publishes it. Undefined
 * when the work was never withdrawn.
 */
export async function findWithdrawnWork(store: RecordStore, canonicalUrl: string): Promise<CheckVerdict | undefined> {
  const withdrawals = await store.findWithdrawals(workKey(canonicalUrl));
  const latest = withdrawals[0];
  if (!latest) return undefined;
  const ids = withdrawals.map((withdrawal) => withdrawal.id).join(', ');
  return {
    name: 'duplicates',
    outcome: 'fail',
    detail: `${canonicalUrl} is a work withdrawn from the archive on ${latest.at.slice(0, 10)} (${ids}): ${reasonSentence(latest.reason)} A maintainer decides whether it is published again.`,
  };
}

/**
 * Duplicates, whole: the source URL (already compared) and the previews. A preview byte-identical
 * to a published one, or perceptually within the duplicate limit, is a duplicate; a preview only
 * similar fails the check so a maintainer decides (needs_review), since a wrong "duplicate" would
 * lose a work. `matches` is undefined when the previews could not be loaded; then the check does
 * not pass, it is pending (retried) or skipped.
 */
export function checkDuplicates(matches: readonly PreviewMatch[] | undefined, pending = false): DuplicateFinding {
  if (matches === undefined) {
    return {
      verdict: {
        name: 'duplicates',
        outcome: pending ? 'pending' : 'skipped',
        detail: `No published record has this source URL; ${pending ? 'the previews are compared once they load' : 'the previews were not compared with published ones, because they did not load'}.`,
      },
    };
  }
  const certain = matches.find((match) => match.verdict === 'duplicate');
  if (certain) {
    return { verdict: { name: 'duplicates', outcome: 'fail', detail: `The preview ${certain.mediaUrl} is ${describeLikeness(certain)} a preview of ${certain.recordId}.` }, duplicateOf: certain.recordId };
  }
  const possible = matches[0];
  if (possible) {
    return {
      verdict: {
        name: 'duplicates',
        outcome: 'fail',
        detail: `The preview ${possible.mediaUrl} is ${describeLikeness(possible)} a preview of ${possible.recordId}, but not near enough to be called a copy; a maintainer must decide whether it is the same work.`,
      },
    };
  }
  return { verdict: { name: 'duplicates', outcome: 'pass', detail: 'No published record has this source URL or a similar preview.' } };
}
