import type { RecordStore } from '../../src/domain/ports.ts';
import type { CheckVerdict } from '../../src/domain/submission.ts';
import { DUPLICATE_MAX_DISTANCE } from '../media/perceptual-hash.ts';
import type { PreviewLookups } from '../published-previews.ts';

export interface DuplicateFinding {
  verdict: CheckVerdict;
  /** Set when the work is certainly already archived. */
  duplicateOf?: string;
}

/**
 * Duplicates: the canonical source URL is already published, or a preview is byte-identical or
 * perceptually within DUPLICATE_MAX_DISTANCE of a published preview: a duplicate. A preview
 * nearer than AMBIGUOUS_MAX_DISTANCE but not that near is not called a duplicate: it fails the
 * check so a maintainer decides (needs_review), because a wrong "duplicate" loses a work.
 */
export async function checkDuplicates(store: RecordStore, canonicalUrl: string | undefined, submissionId: string, lookups: PreviewLookups, imagesChecked: boolean): Promise<DuplicateFinding> {
  if (!canonicalUrl) return { verdict: { name: 'duplicates', outcome: 'error', detail: 'Without a canonical source URL there is nothing to compare.' } };
  const sameSource = (await store.findBySourceUrl(canonicalUrl)).find((record) => record.submissionId !== submissionId || !record.submissionId);
  if (sameSource) {
    return { verdict: { name: 'duplicates', outcome: 'fail', detail: `${canonicalUrl} is already archived as ${sameSource.id}.` }, duplicateOf: sameSource.id };
  }
  const certain = lookups.matches.find((match) => match.exact || match.distance <= DUPLICATE_MAX_DISTANCE);
  if (certain) {
    const how = certain.exact ? 'is byte-identical to' : `is a copy (perceptual distance ${certain.distance}) of`;
    return { verdict: { name: 'duplicates', outcome: 'fail', detail: `The preview ${certain.mediaUrl} ${how} a preview of ${certain.recordId}.` }, duplicateOf: certain.recordId };
  }
  const possible = lookups.matches[0];
  if (possible) {
    return {
      verdict: {
        name: 'duplicates',
        outcome: 'fail',
        detail: `The preview ${possible.mediaUrl} resembles a preview of ${possible.recordId} (perceptual distance ${possible.distance}, between ${DUPLICATE_MAX_DISTANCE} and the ambiguity limit); a maintainer must decide whether it is the same work.`,
      },
    };
  }
  return { verdict: { name: 'duplicates', outcome: 'pass', detail: imagesChecked ? 'No published record has this source URL or a similar preview.' : 'No published record has this source URL; previews could not be compared.' } };
}
