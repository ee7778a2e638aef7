import PQueue from 'p-queue';
import type { ClaimedSubmission, RecordStore, SubmissionQueue } from '../src/domain/ports.ts';
import type { CanonicalRecord, StoredMedia } from '../src/domain/record.ts';
import { recordId } from '../src/domain/ids.ts';
import { CHECK_NAMES, stoppedReason } from '../src/domain/submission.ts';
import type { CheckVerdict, SubmissionOutcome, SubmissionRecord } from '../src/domain/submission.ts';
import type { Logger } from '../src/logger.ts';
import { storePreview } from '../src/media/media-files.ts';
import { checkDate } from './checks/date.ts';
import { checkDuplicates } from './checks/duplicates.ts';
import { checkImages } from './checks/images.ts';
import { checkPreviewOwnership } from './checks/preview-ownership.ts';
import { checkSourceIdentity } from './checks/source-identity.ts';
import { PublishedPreviews } from './published-previews.ts';
import type { PreviewLoader } from './previews.ts';

export interface PublisherSettings {
  /** Names this publisher in leases. */
  owner: string;
  concurrency: number;
  leaseMs: number;
  maxAttempts: number;
  pollMs: number;
  /** First delay before retrying after a transient fault; doubles with every attempt. */
  retryDelayMs: number;
  uploadHosts: readonly string[];
  mediaDir: string;
  now?: () => Date;
}

export interface PublisherDependencies {
  store: RecordStore;
  submissions: SubmissionQueue;
  previews: PreviewLoader;
  logger: Logger;
  /** Told how each attempt ended (for the outcome counts in /metrics). */
  observe?: (outcome: PublisherOutcome) => void;
}

/** How one attempt at a submission ended: its final status, back to the queue, or stopped. */
export type PublisherOutcome = 'published' | 'duplicate' | 'needs_review' | 'retried' | 'lease_lost' | 'failed';

/** The promptCategory of records that come through ingest, which carries none. */
export const INGEST_PROMPT_CATEGORY = 'uncategorized';

/**
 * The publisher: claims queued submissions with a lease, runs the five checks and publishes the
 * works that pass in both languages. Delivery is at least once and publishing is idempotent
 * (deterministic ids, upserts), so a crash at any point loses and duplicates nothing.
 */
export class Publisher {
  private readonly queue: PQueue;
  private readonly published: PublishedPreviews;
  private running = false;
  /** Publishing of one model label runs one at a time, so two first works cannot both become its timeline record. */
  private readonly modelLocks = new Map<string, Promise<unknown>>();
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;

  constructor(
    private readonly deps: PublisherDependencies,
    private readonly settings: PublisherSettings,
  ) {
    this.queue = new PQueue({ concurrency: settings.concurrency });
    this.published = new PublishedPreviews(deps.store);
  }

  /** Starts claiming submissions until stop(). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Claims at once instead of waiting for the next poll (new submissions arrived). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Stops claiming and waits for the submissions in hand; unfinished leases expire and return them to the queue. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await this.queue.onIdle();
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (this.queue.size + this.queue.pending >= this.settings.concurrency) {
        await this.queue.onSizeLessThan(1);
        await this.sleep(5);
        continue;
      }
      let claimed: ClaimedSubmission | undefined;
      const claimedFrom = performance.now();
      try {
        // One claim beyond the allowed attempts, which only looks for records (settleAfterStops); if that lapses too, the queue gives up.
        claimed = await this.deps.submissions.claimNext(this.settings.owner, this.settings.leaseMs, this.settings.maxAttempts + 1);
      } catch (error) {
        this.deps.logger.error('claiming a submission failed', { error });
      }
      if (!claimed) {
        await this.sleep(this.settings.pollMs);
        continue;
      }
      const submission = claimed;
      void this.queue.add(() => this.process(submission, claimedFrom));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }

  /**
   * Checks and settles one claimed submission, renewing its lease meanwhile. The attempt stops
   * (writes nothing more, records no outcome) once the lease is lost: a renewal that finds
   * another claim holding the submission, or no renewal succeeding before the lease's end.
   * `claimedFrom` is when the claim was asked for, where this process starts counting the lease.
   */
  async process(record: ClaimedSubmission, claimedFrom = performance.now()): Promise<void> {
    const { logger } = this.deps;
    const lease = this.holdLease(record, claimedFrom);
    try {
      const settled = await this.settle(record, lease.signal);
      if (settled === 'retry') {
        this.deps.observe?.('retried');
        return;
      }
      lease.signal.throwIfAborted();
      const recorded = await this.deps.submissions.complete(record.submissionId, record.claimToken, settled);
      if (!recorded) logger.warn('lease lost before the outcome was recorded', { submissionId: record.submissionId });
      logger.info('submission settled', { submissionId: record.submissionId, status: settled.status, recordIds: settled.recordIds });
      this.deps.observe?.(recorded ? settled.status : 'lease_lost');
    } catch (error) {
      if (lease.signal.aborted && error === lease.signal.reason) {
        logger.warn('lease lost; this attempt stopped', { submissionId: record.submissionId, reason: (error as Error).message });
        this.deps.observe?.('lease_lost');
      } else {
        // Unexpected: leave the lease to expire so the submission is tried again, up to maxAttempts.
        logger.error('publishing failed', { submissionId: record.submissionId, error });
        this.deps.observe?.('failed');
      }
    } finally {
      lease.release();
    }
  }

  /** Renews the claim's lease every third of its length; the signal aborts when the lease is lost. */
  private holdLease(record: ClaimedSubmission, claimedFrom: number): { signal: AbortSignal; release(): void } {
    const { leaseMs } = this.settings;
    const controller = new AbortController();
    let heldUntil = claimedFrom + leaseMs;
    let renewing = false;
    const heartbeat = setInterval(() => {
      if (performance.now() >= heldUntil) controller.abort(new Error('no renewal succeeded before the lease ended'));
      if (renewing || controller.signal.aborted) return;
      renewing = true;
      const sentAt = performance.now();
      this.deps.submissions
        .renewLease(record.submissionId, record.claimToken, leaseMs)
        .then(
          (held) => {
            if (held) heldUntil = sentAt + leaseMs;
            else controller.abort(new Error('another claim holds the submission'));
          },
          (error: unknown) => this.deps.logger.warn('renewing a lease failed; retrying', { submissionId: record.submissionId, error }),
        )
        .finally(() => (renewing = false));
    }, Math.max(50, Math.floor(leaseMs / 3)));
    return { signal: controller.signal, release: () => clearInterval(heartbeat) };
  }

  private async settle(record: ClaimedSubmission, signal: AbortSignal): Promise<SubmissionOutcome | 'retry'> {
    if (record.attempts > this.settings.maxAttempts) return this.settleAfterStops(record);
    const { submission } = record;
    const now = this.settings.now?.() ?? new Date();
    const identity = checkSourceIdentity(submission);
    const date = checkDate(submission, identity.canonicalUrl, now);
    const images = await checkImages(this.deps.previews, submission.media);
    signal.throwIfAborted();
    if (images.transient) {
      if (record.attempts < this.settings.maxAttempts) {
        const delay = this.settings.retryDelayMs * 2 ** (record.attempts - 1);
        await this.deps.submissions.retryLater(record.submissionId, record.claimToken, `Retrying: ${images.verdict.detail}`, delay);
        return 'retry';
      }
      images.verdict = { ...images.verdict, detail: `${images.verdict.detail} (gave up after ${record.attempts} attempts)` };
    }
    await this.published.refresh();
    const lookups = this.published.lookup(images.previews, record.submissionId);
    const ownership = checkPreviewOwnership(submission.media, identity.source, this.settings.uploadHosts, identity.source ? lookups.foreign(identity.source) : []);
    const duplicates = await checkDuplicates(this.deps.store, identity.canonicalUrl, record.submissionId, lookups, images.verdict.outcome === 'pass');
    const checks: CheckVerdict[] = [identity.verdict, date, ownership, duplicates.verdict, images.verdict];

    if (duplicates.duplicateOf) {
      return { status: 'duplicate', checks, recordIds: [], duplicateOf: duplicates.duplicateOf, reason: duplicates.verdict.detail };
    }
    const failing = checks.filter((check) => check.outcome !== 'pass');
    if (failing.length || !identity.canonicalUrl || !identity.source) {
      return { status: 'needs_review', checks, recordIds: [], duplicateOf: null, reason: failing.map((check) => `${check.name}: ${check.detail}`).join(' ') };
    }
    const { canonicalUrl, source } = identity;
    // Content-addressed files can be written by any number of publishers at once; only the records wait per model.
    const media = await this.storeMedia(images.previews);
    const recordIds = await this.oneAtATimePerModel(submission.model, () => {
      // Another claim may be publishing this work by now; its checks decide.
      signal.throwIfAborted();
      return this.publish(record, canonicalUrl, source, media, now);
    });
    return { status: 'published', checks, recordIds, duplicateOf: null, reason: null };
  }

  /**
   * A submission whose publisher stopped (crash or timeout) in every allowed attempt. Records are
   * written before the status, so an attempt may have published it and stopped just after: then
   * it is published, with the records that attempt wrote (all five checks had passed, or nothing
   * would have been written). Otherwise a maintainer should look at it. Nothing is checked again,
   * since checking is what kept stopping.
   */
  private async settleAfterStops(record: SubmissionRecord): Promise<SubmissionOutcome> {
    const stops = record.attempts - 1;
    const written = (await this.deps.store.findByModel(record.submission.model)).filter((entry) => entry.submissionId === record.submissionId);
    if (written.length > 0) {
      const detail = `Passed in attempt ${stops} or earlier, which wrote the records before the publisher stopped.`;
      return { status: 'published', checks: CHECK_NAMES.map((name) => ({ name, outcome: 'pass', detail })), recordIds: written.map((entry) => entry.id), duplicateOf: null, reason: null };
    }
    return { status: 'needs_review', checks: [], recordIds: [], duplicateOf: null, reason: stoppedReason(stops) };
  }

  private async oneAtATimePerModel<T>(model: string, work: () => Promise<T>): Promise<T> {
    const previous = this.modelLocks.get(model) ?? Promise.resolve();
    const current = previous.then(work, work);
    const settled = current.catch(() => undefined);
    this.modelLocks.set(model, settled);
    try {
      return await current;
    } finally {
      if (this.modelLocks.get(model) === settled) this.modelLocks.delete(model);
    }
  }

  /** Stores the previews content-addressed, each with its WebP thumbnail. */
  private async storeMedia(previews: Awaited<ReturnType<typeof checkImages>>['previews']): Promise<StoredMedia[]> {
    const media: StoredMedia[] = [];
    for (const preview of previews) {
      const extension = preview.format === 'jpeg' ? 'jpg' : preview.format === 'png' || preview.format === 'webp' || preview.format === 'gif' ? preview.format : undefined;
      const stored = await storePreview(this.settings.mediaDir, preview.bytes, extension ?? 'png', extension === undefined);
      media.push({ ...stored, blockhash: preview.blockhash });
    }
    return media;
  }

  /**
   * Writes the gallery record and, when the work is the earliest archived work of its model label,
   * its timeline record; a timeline record that an earlier ingested work supersedes is removed.
   */
  private async publish(record: SubmissionRecord, canonicalUrl: string, source: string, media: StoredMedia[], now: Date): Promise<string[]> {
    const { submission } = record;
    const updated = now.toISOString().slice(0, 10);
    const base = {
      source,
      sourceUrl: canonicalUrl,
      date: submission.date,
      model: submission.model,
      author: submission.author.trim(),
      format: submission.format,
      title: submission.title,
      notes: submission.notes,
      ...(submission.prompt === undefined ? {} : { prompt: submission.prompt }),
      promptCategory: INGEST_PROMPT_CATEGORY,
      mediaStatus: 'local-media' as const,
      media,
      updated,
      submissionId: record.submissionId,
    };
    const gallery: CanonicalRecord = { id: recordId({ canonicalSourceUrl: canonicalUrl, kind: 'gallery', format: submission.format, model: submission.model }), kind: 'gallery', ...base };
    const records = [gallery];
    // The timeline record belongs to the model's earliest work by (date, id); with crashes and retries
    // works arrive in any order, so the rule is decided against every gallery record of the model.
    const ofModel = await this.deps.store.findByModel(submission.model);
    const earliest = ofModel.every((other) => other.kind !== 'gallery' || other.id === gallery.id || other.date > submission.date || (other.date === submission.date && other.id > gallery.id));
    let superseded: string[] = [];
    if (earliest) {
      const timelineId = recordId({ canonicalSourceUrl: canonicalUrl, kind: 'timeline', format: submission.format, model: submission.model });
      records.push({ ...gallery, id: timelineId, kind: 'timeline' });
      // Imported (editorial) timeline records stay; ingested ones give way to the earlier work.
      superseded = ofModel.filter((other) => other.kind === 'timeline' && other.submissionId && other.id !== timelineId).map((other) => other.id);
    }
    // One transaction, so a crash cannot leave the model with two timeline records.
    await this.deps.store.replaceRecords(records, superseded);
    await this.deps.store.setCatalogUpdated(updated);
    this.published.remember(records);
    return records.map((entry) => entry.id);
  }
}
