/**
 * The publish command: decides what becomes of one claimed submission and, when it passes (or a
 * maintainer approved it), writes its records. The checks that need nothing fetched run first
 * (source identity, date, the hosts of the previews, an archived source URL); a submission that
 * fails one of them is settled at once, and a preview on a host the archive would refuse is never
 * fetched. Only then are the previews fetched and compared with the published ones.
 *
 * The command knows nothing of queues or leases: it returns a settled outcome or asks for a retry,
 * and the publisher records either under its own claim.
 */
import { checkDate } from '../checks/date.ts';
import { checkDuplicates, findSameSource, findWithdrawnWork } from '../checks/duplicates.ts';
import { checkImages } from '../checks/images.ts';
import { checkPreviewHosts, checkPreviewOwnership } from '../checks/preview-ownership.ts';
import { checkSourceIdentity } from '../checks/source-identity.ts';
import { recordId } from '../ids.ts';
import type { RecordStore } from '../ports.ts';
import { MediaStoreError } from '../previews.ts';
import type { LoadedPreview, MediaStore, PreviewCatalog, PreviewLoader } from '../previews.ts';
import { compilationDay } from '../record.ts';
import type { CanonicalRecord, StoredMedia, StoredRecord } from '../record.ts';
import type { SourceTable } from '../sources.ts';
import { CHECK_NAMES, pendingApproval, stoppedReason } from '../submission.ts';
import type { CheckVerdict, ReviewDecision, SubmissionOutcome, SubmissionRecord } from '../submission.ts';
import { writePublication } from './timeline.ts';

/** The promptCategory of records that come through ingest, which carries none. */
export const INGEST_PROMPT_CATEGORY = 'uncategorized';

export interface PublishPorts {
  store: RecordStore;
  sources: SourceTable;
  previews: PreviewLoader;
  catalog: PreviewCatalog;
  media: MediaStore;
  /** Runs a task once every task given before it has finished: the last step of publishing, one claim at a time in this process. */
  oneAtATime: <T>(task: () => Promise<T>) => Promise<T>;
}

export interface PublishSettings {
  uploadHosts: readonly string[];
  maxAttempts: number;
  /** First delay before retrying after a transient fault; doubles with every attempt. */
  retryDelayMs: number;
  /**
   * The clock: read once when the claim is checked (the date check), and again just before each
   * write, whose UTC day is the record's compilation date (`updated`), so a record written after
   * midnight is never dated the day before (loading its previews can take seconds).
   */
  now: () => Date;
  /** Aborts when the publisher's lease is lost: nothing more is written after that. */
  signal?: AbortSignal;
}

/** A submission decided: published, duplicate, rejected or sent to review. */
type Settled = { kind: 'settled'; outcome: SubmissionOutcome };

export type PublishResult =
  | Settled
  /** A media host or the media store failed transiently: try again after the delay; the verdicts so far go with it. */
  | { kind: 'retry'; reason: string; delayMs: number; checks: CheckVerdict[] };

const settled = (outcome: SubmissionOutcome): Settled => ({ kind: 'settled', outcome });
/** Judgings of one claim whose write found new records like its previews, before the attempt gives up and is tried again later. */
const JUDGINGS_BEFORE_WRITE = 3;

/** The wait before the next attempt after a transient fault in this one: the first delay, doubled with every attempt. */
const retryDelay = (settings: PublishSettings, attempts: number): number => settings.retryDelayMs * 2 ** (attempts - 1);

function needsReview(checks: CheckVerdict[], prefix = ''): SubmissionOutcome {
  // The checks that found something; skipped and pending ones only say why they did not run.
  const reason = checks.filter((check) => check.outcome === 'fail' || check.outcome === 'error').map((check) => `${check.name}: ${check.detail}`).join(' ');
  return { status: 'needs_review', checks, recordIds: [], duplicateOf: null, reason: `${prefix}${reason}` };
}

/**
 * The checks of an approved submission, each one that found something (failed, or could not run)
 * marked as overridden by the approval, except those named in `standing`: what the approval
 * could not get past. A skipped or pending check found nothing to override.
 */
function overridden(checks: CheckVerdict[], approval: ReviewDecision, standing: readonly string[] = []): CheckVerdict[] {
  const override = { by: approval.by, note: approval.note, at: approval.at };
  return checks.map((check) => ((check.outcome === 'fail' || check.outcome === 'error') && !standing.includes(check.name) ? { ...check, override } : check));
}

/**
 * An approved submission that still cannot be published: a record needs its previews and a
 * source. It goes back to review, naming only what stands in the way; the checks the approval
 * got past show it.
 */
function approvedButUnpublishable(checks: CheckVerdict[], approval: ReviewDecision, standing: readonly CheckVerdict['name'][]): SubmissionOutcome {
  const blocking = checks.filter((check) => standing.includes(check.name));
  const reason = `Approved by ${approval.by}, but the work cannot be published: ${blocking.map((check) => `${check.name}: ${check.detail}`).join(' ')}`;
  return { status: 'needs_review', checks: overridden(checks, approval, standing), recordIds: [], duplicateOf: null, reason };
}

/** Decides, and when it may, publishes one claimed submission. */
export async function publish(ports: PublishPorts, settings: PublishSettings, record: SubmissionRecord): Promise<PublishResult> {
  if (record.attempts > settings.maxAttempts) return settled(await settleAfterStops(ports.store, record));
  const { submission } = record;
  const approval = pendingApproval(record);
  const identity = checkSourceIdentity(submission, ports.sources);
  const date = checkDate(submission, identity.canonicalUrl, settings.now());
  const hosts = checkPreviewHosts(submission.media, identity.source, settings.uploadHosts, ports.sources, approval?.by);

  const sameSource = identity.canonicalUrl ? await findSameSource(ports.store, identity.canonicalUrl, record.submissionId) : undefined;
  if (sameSource?.duplicateOf) {
    // A second record for the same source URL is impossible (ids derive from it), approved or not.
    const images: CheckVerdict = { name: 'images', outcome: 'skipped', detail: 'Not fetched: the work is already archived.' };
    const checks = [identity.verdict, date, checkPreviewOwnership(hosts, identity.source, undefined, false, 'because the work is already archived'), sameSource.verdict, images];
    return settled({ status: 'duplicate', checks, recordIds: [], duplicateOf: sameSource.duplicateOf, reason: sameSource.verdict.detail });
  }

  // A withdrawn work comes back only by a maintainer's decision; its previews are not fetched before it.
  const withdrawn = identity.canonicalUrl ? await findWithdrawnWork(ports.store, identity.canonicalUrl) : undefined;
  if (withdrawn && !approval) {
    const notFetched = 'because the work was withdrawn from the archive and a maintainer decides first';
    const images: CheckVerdict = { name: 'images', outcome: 'skipped', detail: `Not fetched, ${notFetched}.` };
    return settled(needsReview([identity.verdict, date, checkPreviewOwnership(hosts, identity.source, undefined, false, notFetched), withdrawn, images]));
  }

  const decided = [identity.verdict, date, hosts.verdict].filter((check) => check.outcome !== 'pass');
  if (decided.length && !approval) {
    const failed = decided.map((check) => check.name).join(', ');
    const checks: CheckVerdict[] = [
      identity.verdict,
      date,
      hosts.verdict,
      { name: 'duplicates', outcome: 'skipped', detail: `No published record has this source URL; the previews were not compared, because the submission already fails ${failed}.` },
      { name: 'images', outcome: 'skipped', detail: `Not fetched, because the submission already fails ${failed}.` },
    ];
    return settled(needsReview(checks));
  }

  // From here on previews are fetched: only from allowed hosts, unless a maintainer approved the work.
  const images = await checkImages(ports.previews, submission.media);
  settings.signal?.throwIfAborted();
  if (images.transient) {
    if (record.attempts < settings.maxAttempts) {
      const checks = [identity.verdict, date, checkPreviewOwnership(hosts, identity.source, undefined, true), checkDuplicates(undefined, true).verdict, images.verdict];
      return { kind: 'retry', reason: `${RETRYING}${images.verdict.detail}`, delayMs: retryDelay(settings, record.attempts), checks };
    }
    images.verdict = { ...images.verdict, detail: `${images.verdict.detail} (gave up after ${record.attempts} attempts)` };
  }
  const loaded = images.missing.length === 0;
  const soFar: VerdictsSoFar = { identity, date, hosts, withdrawn, images: images.verdict, previews: loaded ? images.previews : undefined, approval };
  // Judged once before the previews are stored, so a duplicate stores none, and again below, one claim at a time, before writing.
  const judged = await judgeAgainstPublished(ports, record, soFar);
  if (judged.kind === 'settled') return judged;
  if (!loaded || !identity.canonicalUrl || !identity.source) {
    const standing: CheckVerdict['name'][] = [...(loaded ? [] : ['images' as const]), ...(identity.canonicalUrl && identity.source ? [] : ['source-identity' as const])];
    // Only an approval gets this far with either missing (judgeAgainstPublished sends the rest to review).
    return settled(approval ? approvedButUnpublishable(judged.checks, approval, standing) : needsReview(judged.checks));
  }
  const media = await storePreviews(ports.media, images.previews);
  if (media instanceof MediaStoreError) return mediaNotStored(media, record, settings, judged.checks);
  const unwritten: Omit<CanonicalRecord, 'updated'> = {
    // Trimmed as acceptance trims it (cleanWorkText), for a submission queued before it did.
    id: recordId({ canonicalSourceUrl: identity.canonicalUrl, kind: 'gallery', format: submission.format, model: submission.model.trim() }),
    kind: 'gallery',
    source: identity.source,
    sourceUrl: identity.canonicalUrl,
    date: submission.date,
    model: submission.model.trim(),
    author: submission.author.trim(),
    format: submission.format,
    title: submission.title,
    notes: submission.notes,
    ...(submission.prompt === undefined ? {} : { prompt: submission.prompt }),
    promptCategory: INGEST_PROMPT_CATEGORY,
    mediaStatus: 'local-media',
    media,
    submissionId: record.submissionId,
  };
  // The claims of this process decide one at a time from here: each judges again against what is
  // published now, so two claims of one work, or of one preview, checked side by side do not both
  // publish. A publisher in another process is held off by the store's transaction
  // (writePublication): for the same work under any label, and for a preview like one of these
  // written after this judging read the published ones, which sends it back to be judged again.
  const previews = images.previews;
  return ports.oneAtATime(async () => {
    for (let judging = 1; ; judging += 1) {
      settings.signal?.throwIfAborted();
      const now = await judgeAgainstPublished(ports, record, soFar);
      if (now.kind === 'settled') return now;
      settings.signal?.throwIfAborted();
      const recheck = { judgedAt: ports.catalog.changeNumber, resemblesAny: (records: readonly StoredRecord[]) => ports.catalog.lookupAmong(records, previews, record.submissionId).length > 0 };
      const updated = compilationDay(settings.now());
      const gallery: CanonicalRecord = { ...unwritten, updated };
      const written = await writePublication(ports.store, gallery, recheck);
      if (written.kind === 'previews-changed') {
        if (judging < JUDGINGS_BEFORE_WRITE) continue;
        const reason = `works were published by another publisher each of the ${judging} times this submission was about to be written, so its previews could not be compared with all of them.`;
        if (record.attempts < settings.maxAttempts) return { kind: 'retry', reason: `${RETRYING}${reason}`, delayMs: retryDelay(settings, record.attempts), checks: now.checks };
        return settled(needsReview(now.checks, `Not published: ${reason} `));
      }
      if (written.kind === 'duplicate') {
        const verdict: CheckVerdict = { name: 'duplicates', outcome: 'fail', detail: `${gallery.sourceUrl} was archived as ${written.of.id} while this submission was checked.` };
        const checks = now.checks.map((check) => (check.name === 'duplicates' ? verdict : check));
        return settled({ status: 'duplicate', checks, recordIds: [], duplicateOf: written.of.id, reason: verdict.detail });
      }
      await ports.store.setCatalogUpdated(updated);
      ports.catalog.remember(written.plan.put);
      const recordIds = written.plan.put.map((entry) => entry.id);
      return settled({ status: 'published', checks: approval ? overridden(now.checks, approval) : now.checks, recordIds, duplicateOf: null, reason: null });
    }
  });
}

/** The verdicts a submission has before it is judged against the published works. */
interface VerdictsSoFar {
  identity: ReturnType<typeof checkSourceIdentity>;
  date: CheckVerdict;
  hosts: ReturnType<typeof checkPreviewHosts>;
  withdrawn: CheckVerdict | undefined;
  images: CheckVerdict;
  /** The previews, when every one was loaded. */
  previews: readonly LoadedPreview[] | undefined;
  approval: ReviewDecision | undefined;
}

/**
 * Judges a submission against what is published at this moment: a record of the same work, and
 * the published previews (byte-identical, a perceptual copy, or only similar). Settled when that
 * makes it a duplicate, or sends it to review; otherwise its five checks, for publishing.
 */
async function judgeAgainstPublished(ports: PublishPorts, record: SubmissionRecord, so: VerdictsSoFar): Promise<Settled | { kind: 'publishable'; checks: CheckVerdict[] }> {
  const sameSource = so.identity.canonicalUrl ? await findSameSource(ports.store, so.identity.canonicalUrl, record.submissionId) : undefined;
  let matches;
  if (so.previews) {
    await ports.catalog.refresh();
    matches = ports.catalog.lookup(so.previews, record.submissionId);
  }
  const ownership = checkPreviewOwnership(so.hosts, so.identity.source, matches);
  const duplicates = sameSource ?? checkDuplicates(matches);
  // An approved withdrawn work: the withdrawal stays in its checks, overridden by the approval.
  const duplicatesVerdict = so.withdrawn && duplicates.verdict.outcome === 'pass' ? so.withdrawn : duplicates.verdict;
  const checks: CheckVerdict[] = [so.identity.verdict, so.date, ownership, duplicatesVerdict, so.images];
  if (duplicates.duplicateOf) return settled({ status: 'duplicate', checks, recordIds: [], duplicateOf: duplicates.duplicateOf, reason: duplicates.verdict.detail });
  const failing = checks.filter((check) => check.outcome !== 'pass');
  if (failing.length && !so.approval) return settled(needsReview(checks));
  return { kind: 'publishable', checks };
}

/** Stores the previews; a media store that cannot write now is returned rather than thrown, for the caller to retry. */
async function storePreviews(store: MediaStore, previews: readonly LoadedPreview[]): Promise<StoredMedia[] | MediaStoreError> {
  const media: StoredMedia[] = [];
  try {
    // Content-addressed files can be written by any number of publishers at once.
    for (const preview of previews) media.push(await store.store(preview));
  } catch (error) {
    if (error instanceof MediaStoreError) return error;
    throw error;
  }
  return media;
}

/**
 * A submission that may be published but whose previews could not be stored (the archive's
 * fault, which an operator can mend): back to the queue while attempts remain, then to
 * needs_review naming the fault, with its checks as they stood.
 */
function mediaNotStored(error: MediaStoreError, record: SubmissionRecord, settings: PublishSettings, checks: CheckVerdict[]): PublishResult {
  if (record.attempts < settings.maxAttempts) return { kind: 'retry', reason: `${RETRYING}${error.message}`, delayMs: retryDelay(settings, record.attempts), checks };
  return settled({ status: 'needs_review', checks, recordIds: [], duplicateOf: null, reason: `Not published: ${error.message} (gave up after ${record.attempts} attempts).` });
}

/** How the reason of a submission sent back to the queue after a transient fault begins. */
const RETRYING = 'Retrying: ';

/**
 * A submission whose last allowed attempt stopped (crash or timeout). Records are written before
 * the status, so the attempt may have published it and stopped just after: then it is published,
 * with the records that attempt wrote (all five checks had passed, or nothing would have been
 * written). Otherwise a maintainer should look at it. Nothing is checked again, since checking is
 * what kept stopping. An attempt that ended in a retry leaves its reason and checks; a stopped one
 * leaves nothing, so when the reason is a retry's, the earlier attempts did not all stop: the
 * reason says the last one stopped and what the one before it found, and its checks stay.
 */
async function settleAfterStops(store: RecordStore, record: SubmissionRecord): Promise<SubmissionOutcome> {
  const allowed = record.attempts - 1;
  const written = (await store.findByModel(record.submission.model.trim())).filter((entry) => entry.submissionId === record.submissionId);
  if (written.length > 0) {
    const detail = `Passed in attempt ${allowed} or earlier, which wrote the records before the publisher stopped.`;
    return { status: 'published', checks: CHECK_NAMES.map((name) => ({ name, outcome: 'pass', detail })), recordIds: written.map((entry) => entry.id), duplicateOf: null, reason: null };
  }
  if (record.reason?.startsWith(RETRYING)) {
    const earlier = record.reason.slice(RETRYING.length);
    const reason = `The publisher stopped while checking this submission (crash or timeout) in its last allowed attempt (${allowed}); the attempt before it was retried: ${earlier}`;
    return { status: 'needs_review', checks: record.checks, recordIds: [], duplicateOf: null, reason };
  }
  return { status: 'needs_review', checks: [], recordIds: [], duplicateOf: null, reason: stoppedReason(allowed) };
}
