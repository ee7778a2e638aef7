/**
 * The timeline rule: a model's timeline record belongs to its earliest archived work, by date,
 * then id, among gallery records, and an editorial timeline record (an imported catalog's) dated on
 * or before a work stands for the model's start, so that work gets none. With crashes and retries
 * works arrive in any order, so the rule is decided against every record of the model each time a
 * work is published, and its outcome never depends on that order (ties of date included).
 */
import type { RecordChanges, RecordStore } from '../ports.ts';
import type { CanonicalRecord, StoredRecord } from '../record.ts';
import { recordId } from '../ids.ts';
import { workKey } from '../sources.ts';
import { otherSubmissionsRecord } from '../checks/duplicates.ts';

/** What publishing one work writes: its records, and the ingested timeline records it supersedes. */
export type PublicationPlan = RecordChanges;

/** The gallery id of the work a record shows (its own id for a gallery record). */
export function galleryIdOf(record: Pick<CanonicalRecord, 'id' | 'kind' | 'sourceUrl' | 'format' | 'model'>): string {
  return record.kind === 'gallery' ? record.id : recordId({ canonicalSourceUrl: record.sourceUrl, kind: 'gallery', format: record.format, model: record.model });
}

/**
 * The records to write for a new gallery record, given every record of its model label: the
 * gallery record, and when the work is the model's earliest, its timeline record too. An ingested
 * timeline record of a later work gives way, and its id moves to that work's gallery record, so a
 * citation of it still finds the work it named. Timeline records of an imported catalog are
 * editorial and stay.
 */
export function planPublication(gallery: CanonicalRecord, ofModel: readonly CanonicalRecord[]): PublicationPlan {
  if (!startsTimeline(gallery, ofModel)) return { put: [gallery], retire: [] };
  const timelineId = recordId({ canonicalSourceUrl: gallery.sourceUrl, kind: 'timeline', format: gallery.format, model: gallery.model });
  const retire = ofModel
    .filter((other) => other.kind === 'timeline' && other.submissionId && other.id !== timelineId)
    .map((other) => ({
      id: other.id,
      movedTo: galleryIdOf(other),
      reason: supersededReason(gallery, timelineId, other),
    }));
  return { put: [gallery, { ...gallery, id: timelineId, kind: 'timeline' }], retire };
}

/**
 * Whether a new gallery record starts its model's timeline: no other gallery record is earlier (by
 * date, then id) and no editorial timeline record is dated on or before it. (Before 2026-11-26 an
 * editorial timeline record without a gallery twin did not count, and a work of a model the
 * imported catalog starts got a second "first" record.)
 */
function startsTimeline(gallery: CanonicalRecord, ofModel: readonly CanonicalRecord[]): boolean {
  return ofModel.every((other) => {
    if (other.id === gallery.id) return true;
    if (other.kind === 'timeline') return Boolean(other.submissionId) || other.date > gallery.date;
    return !earlier(other, gallery);
  });
}

/** Why a timeline record gives way to the timeline record of `first`, its date's or its id's order said as it is. */
function supersededReason(first: CanonicalRecord, timelineId: string, superseded: CanonicalRecord): string {
  const how = superseded.date === first.date ? `a work of the same date that comes first in the archive's order of ids (${timelineId})` : `an earlier work (${timelineId})`;
  return `The timeline of ${first.model} now starts with ${how}; this work stays in the gallery.`;
}

/** True when `a` comes before `b` in the timeline rule's order: by date, then id. */
function earlier(a: CanonicalRecord, b: CanonicalRecord): boolean {
  return a.date < b.date || (a.date === b.date && a.id < b.id);
}

/** A timeline record that came through ingest (an editorial one is never passed on or replaced). */
function isIngestedTimeline(record: StoredRecord): boolean {
  return record.kind === 'timeline' && Boolean(record.submissionId);
}

/**
 * Whether withdrawing `ids` takes a model label's ingested timeline record and leaves it none:
 * then planWithdrawal passes the timeline on, if it can (an editorial timeline record withdrawn is
 * never passed on; withdrawalEndsTimeline says when the label is left without one).
 */
export function withdrawalTakesTimeline(ids: ReadonlySet<string>, ofModel: readonly StoredRecord[]): boolean {
  return ofModel.some((record) => ids.has(record.id) && isIngestedTimeline(record)) && !ofModel.some((record) => !ids.has(record.id) && isIngestedTimeline(record));
}

/**
 * Whether withdrawing `ids`, by `changes` (planWithdrawal's), leaves a model label without a
 * timeline record: it takes one (ingested or editorial), keeps none, and writes none in its place.
 * Then 'editorial' when a timeline record it takes is editorial (never passed on), else 'ingested';
 * undefined when the label keeps or gets a timeline record, or none was taken.
 */
export function withdrawalEndsTimeline(ids: ReadonlySet<string>, ofModel: readonly StoredRecord[], changes: RecordChanges): 'editorial' | 'ingested' | undefined {
  const timelines = ofModel.filter((record) => record.kind === 'timeline');
  const taken = timelines.filter((record) => ids.has(record.id));
  if (taken.length === 0 || taken.length < timelines.length || changes.put.some((record) => record.kind === 'timeline')) return undefined;
  return taken.some((record) => !record.submissionId) ? 'editorial' : 'ingested';
}

/**
 * What withdrawing records of one model label writes, given every record of the label: the
 * records withdrawn (those of `ids` the label still has), and, when an ingested timeline record is
 * among them and the label keeps no other, the timeline record of the earliest remaining work,
 * by the rule of planPublication: only when that work came through ingest (a label whose earliest
 * remaining work is editorial gets none, as at publication, nor one whose editorial timeline record
 * is dated on or before it) and its timeline id is not itself being withdrawn. That record is compiled on `compiledOn` (the day of the withdrawal), as every
 * record new to the catalog is.
 */
export function planWithdrawal(ids: ReadonlySet<string>, reason: string, ofModel: readonly StoredRecord[], compiledOn: string): RecordChanges {
  const retire = ofModel.filter((record) => ids.has(record.id)).map((record) => ({ id: record.id, reason }));
  if (!withdrawalTakesTimeline(ids, ofModel)) return { put: [], retire };
  const remaining = ofModel.filter((record) => !ids.has(record.id));
  const earliest = remaining.filter((record) => record.kind === 'gallery').reduce<StoredRecord | undefined>((first, record) => (!first || earlier(record, first) ? record : first), undefined);
  if (!earliest?.submissionId) return { put: [], retire };
  // An editorial timeline record dated on or before it still starts the model's timeline.
  if (remaining.some((record) => record.kind === 'timeline' && !record.submissionId && record.date <= earliest.date)) return { put: [], retire };
  const timelineId = recordId({ canonicalSourceUrl: earliest.sourceUrl, kind: 'timeline', format: earliest.format, model: earliest.model });
  if (ids.has(timelineId)) return { put: [], retire };
  const { seq: _seq, ...gallery } = earliest;
  // A record new to the catalog today: a client syncing with `since` must find it.
  return { put: [{ ...gallery, id: timelineId, kind: 'timeline', updated: compiledOn }], retire };
}

/**
 * What writing a publication came to: the records written; the record of the same work another
 * submission published first; or records written since the previews were judged that a preview
 * resembles, so the submission is judged again before it is written.
 */
export type PublicationResult = { kind: 'written'; plan: PublicationPlan } | { kind: 'duplicate'; of: StoredRecord } | { kind: 'previews-changed' };

/** The previews of a publication, judged against what was published up to a change number, compared again inside the write with what was written since. */
export interface PreviewRecheck {
  /** The change number the judging read the published previews up to. */
  judgedAt: number;
  /** Whether any preview resembles one of these records (written since). */
  resemblesAny(records: readonly StoredRecord[]): boolean;
}

const NOTHING: RecordChanges = { put: [], retire: [] };

/**
 * Publishes a work's gallery record by the timeline rule, decided inside the store's transaction
 * against the model's records and the work's as they are at that moment
 * (RecordStore.changeModelRecords): two publishers of the same model, in one process or many,
 * never both give it a timeline record, and never both publish one work (the same work key),
 * under this label or any other: the later finds the earlier's record and writes nothing. A
 * record of the work from this submission's own earlier attempt is not another's. Given its
 * previews, it also writes nothing when a record written since they were judged has a preview
 * like one of them (or more were written than the write reads): two publishers of one image in
 * two works never both write.
 */
export async function writePublication(store: RecordStore, gallery: CanonicalRecord, previews?: PreviewRecheck): Promise<PublicationResult> {
  let outcome: Exclude<PublicationResult, { kind: 'written' }> | undefined;
  const plan = await store.changeModelRecords(
    gallery.model,
    (ofModel, work) => {
      const published = otherSubmissionsRecord(work.ofWork, gallery.submissionId ?? '');
      outcome = published ? { kind: 'duplicate', of: published } : previews && (!work.changedComplete || previews.resemblesAny(work.changed)) ? { kind: 'previews-changed' } : undefined;
      return outcome ? NOTHING : planPublication(gallery, ofModel);
    },
    { workKey: workKey(gallery.sourceUrl), ...(previews ? { changedAfter: previews.judgedAt } : {}) },
  );
  return outcome ?? { kind: 'written', plan };
}
