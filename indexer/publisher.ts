import PQueue from 'p-queue';
import { publish } from '../src/domain/ingest/publish.ts';
import type { ClaimedSubmission, RecordStore, SubmissionQueue } from '../src/domain/ports.ts';
import type { MediaStore, PreviewLoader } from '../src/domain/previews.ts';
import type { SourceTable } from '../src/domain/sources.ts';
import type { SubmissionOutcome } from '../src/domain/submission.ts';
import { errorSummary } from '../src/logger.ts';
import type { Logger } from '../src/logger.ts';
import { PublishedPreviews } from './published-previews.ts';

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
  now?: () => Date;
}

export interface PublisherDependencies {
  store: RecordStore;
  submissions: SubmissionQueue;
  previews: PreviewLoader;
  media: MediaStore;
  /** The source table as the store holds it; read afresh for every submission. */
  sources: () => Promise<SourceTable>;
  logger: Logger;
  /** Told how each attempt ended (for the outcome counts in /metrics). */
  observe?: (outcome: PublisherOutcome) => void;
}

/** How one attempt at a submission ended: its final status, back to the queue, or stopped. */
export type PublisherOutcome = 'published' | 'duplicate' | 'needs_review' | 'retried' | 'lease_lost' | 'failed';

/** The promptCategory of records that come through ingest, which carries none. */
export const INGEST_PROMPT_CATEGORY = 'uncategorized';

/** The longest wait between claims while claiming keeps failing (the store refuses writes, or cannot be reached). */
export const CLAIM_BACKOFF_CAP_MS = 30_000;

/**
 * The publisher: claims queued submissions with a lease, renews it while the publish command
 * (src/domain/ingest/publish.ts) checks and publishes each one, and records the outcome or a
 * retry under its claim. Delivery is at least once and publishing is idempotent (deterministic
 * ids, upserts), so a crash at any point loses and duplicates nothing.
 */
export class Publisher {
  private readonly queue: PQueue;
  /** The last step of publishing (judged again against what is published, then written), one claim at a time: see publish.ts. */
  private readonly decisions: PQueue;
  private readonly published: PublishedPreviews;
  private running = false;
  private loop: Promise<void> | undefined;
  private sweep: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  /** Claims that failed in a row; while above zero the loop backs off and new submissions do not wake it. */
  private claimFailures = 0;

  constructor(
    private readonly deps: PublisherDependencies,
    private readonly settings: PublisherSettings,
  ) {
    this.queue = new PQueue({ concurrency: settings.concurrency });
    this.decisions = new PQueue({ concurrency: 1 });
    this.published = new PublishedPreviews(deps.store);
  }

  /** Starts claiming submissions until stop(). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
    this.sweep = this.removeUnfinishedWrites();
  }

  /** Removes the temporary files of preview writes a stopped process left, beside the claiming. */
  private async removeUnfinishedWrites(): Promise<void> {
    try {
      const removed = await this.deps.media.removeUnfinishedWrites();
      if (removed.length) this.deps.logger.info('removed the temporary files of preview writes that stopped', { files: removed.length, paths: removed.slice(0, 10) });
    } catch (error) {
      this.deps.logger.warn('could not look for the temporary files of preview writes that stopped', { reason: errorSummary(error) });
    }
  }

  /** Claims at once instead of waiting for the next poll (new submissions arrived), unless backing off after failed claims. */
  wake(): void {
    if (this.claimFailures === 0) this.wakeUp?.();
  }

  /** Stops claiming and waits for the submissions in hand; unfinished leases expire and return them to the queue. */
  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    await this.sweep;
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
        this.claimSucceeded();
      } catch (error) {
        await this.sleep(this.claimFailed(error));
        continue;
      }
      if (!claimed) {
        await this.sleep(this.settings.pollMs);
        continue;
      }
      const submission = claimed;
      void this.queue.add(() => this.process(submission, claimedFrom));
    }
  }

  /**
   * Counts a failed claim and returns how long to wait before the next: the poll interval doubled
   * with every failure in a row, up to CLAIM_BACKOFF_CAP_MS. One line per failure, so one per
   * step; only the first carries the stack.
   */
  private claimFailed(error: unknown): number {
    this.claimFailures += 1;
    const retryInMs = Math.min(CLAIM_BACKOFF_CAP_MS, this.settings.pollMs * 2 ** this.claimFailures);
    if (this.claimFailures === 1) this.deps.logger.error('claiming a submission failed', { error, retryInMs });
    else this.deps.logger.warn('claiming a submission failed again', { failures: this.claimFailures, retryInMs, reason: errorSummary(error) });
    return retryInMs;
  }

  /** Ends a run of failed claims, saying so once. */
  private claimSucceeded(): void {
    if (this.claimFailures > 0) this.deps.logger.info('claiming submissions again', { failures: this.claimFailures });
    this.claimFailures = 0;
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

  /** The publish command under this publisher's settings and ports; a lost lease stops it (the signal aborts). */
  private async settle(record: ClaimedSubmission, signal: AbortSignal): Promise<SubmissionOutcome | 'retry'> {
    const { store, previews, media } = this.deps;
    const result = await publish(
      { store, previews, media, sources: await this.deps.sources(), catalog: this.published, oneAtATime: (task) => this.decisions.add(task, { throwOnTimeout: true }) },
      { uploadHosts: this.settings.uploadHosts, maxAttempts: this.settings.maxAttempts, retryDelayMs: this.settings.retryDelayMs, now: this.settings.now ?? (() => new Date()), signal },
      record,
    );
    if (result.kind === 'settled') return result.outcome;
    this.deps.logger.warn('submission retried later', { submissionId: record.submissionId, reason: result.reason, delayMs: result.delayMs });
    await this.deps.submissions.retryLater(record.submissionId, record.claimToken, result.reason, result.delayMs, result.checks);
    return 'retry';
  }
}
