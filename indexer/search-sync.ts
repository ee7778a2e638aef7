/**
 * The index sync: keeps a search index that is not written with the store (Meilisearch) current
 * by following the store's change feed. Works with any RecordStore and any SearchIndex.
 *
 * - Position: a checkpoint in the store (`search-sync`), advanced only after the index confirmed
 *   the batch; a crash replays at most one batch, and replays are harmless (upsert and remove
 *   by id are idempotent).
 * - Order: changes and removals are read as two lists after the checkpoint and merged by change
 *   number, so for each id only its latest event counts (re-published after a removal: upsert;
 *   removed after an edit: remove).
 * - Several followers: each pass ends only with a read of the feed that comes back empty, made
 *   after the pass's last write. A follower that wrote an older version over a newer one (read
 *   before the record changed, written after another follower indexed the change) therefore
 *   reads the newer change in its own next batch and writes it again: passes converge on the
 *   store's state. The shared checkpoint may step back when passes overlap, which only replays.
 * - Drift: a periodic reconcile compares the catalog's size with the index's count once the feed
 *   is drained, and repairs a difference with a full resync pass.
 */
import type { RecordRemoval, RecordStore, SearchIndex } from '../src/domain/ports.ts';
import type { CanonicalRecord, StoredRecord } from '../src/domain/record.ts';
import type { Logger } from '../src/logger.ts';

/** The name of the sync's checkpoint in the store. */
export const SEARCH_SYNC_CHECKPOINT = 'search-sync';

/** What one batch of the feed asks of the index, and how far it reaches. */
export interface FeedBatch {
  upserts: StoredRecord[];
  removals: string[];
  /** The change number the checkpoint may move to once the batch is in the index. */
  through: number;
}

/**
 * Merges one read of both lists (each at most `limit` long, read after the same change number).
 * A full list may go on beyond its last entry, so the batch reaches only as far as the shorter
 * of the full lists; within that, the latest event of each id wins. Undefined when both are empty.
 */
export function mergeFeed(changes: readonly StoredRecord[], removals: readonly RecordRemoval[], limit: number): FeedBatch | undefined {
  if (changes.length === 0 && removals.length === 0) return undefined;
  const reach = (list: readonly { seq: number }[]): number => (list.length >= limit ? (list.at(-1)?.seq ?? Infinity) : Infinity);
  const seen = [...changes.map((change) => change.seq), ...removals.map((removal) => removal.seq)];
  const through = Math.min(reach(changes), reach(removals), Math.max(...seen));
  const latest = new Map<string, { seq: number; record?: StoredRecord }>();
  const consider = (id: string, seq: number, record?: StoredRecord): void => {
    if (seq > through) return;
    const known = latest.get(id);
    if (!known || known.seq < seq) latest.set(id, record ? { seq, record } : { seq });
  };
  for (const change of changes) consider(change.id, change.seq, change);
  for (const removal of removals) consider(removal.id, removal.seq);
  const upserts: StoredRecord[] = [];
  const removed: string[] = [];
  for (const [id, event] of latest) {
    if (event.record) upserts.push(event.record);
    else removed.push(id);
  }
  return { upserts, removals: removed, through };
}

function canonical(record: StoredRecord): CanonicalRecord {
  const { seq: _seq, ...rest } = record;
  return rest;
}

/** Applies one batch to the index: removals and upserts touch different ids, so order is free. */
async function applyBatch(index: SearchIndex, batch: FeedBatch): Promise<void> {
  await index.remove(batch.removals);
  await index.upsert(batch.upserts.map(canonical));
}

/** What a sync pass did. */
export interface SyncReport {
  upserted: number;
  removed: number;
  checkpoint: number;
}

/**
 * Applies every change after `from` to the index without touching the checkpoint (used after a
 * rebuild swap, to replay what happened while the fresh index was filled). Returns the change
 * number reached.
 */
export async function replayFeed(store: RecordStore, index: SearchIndex, from: number, batchSize = 500): Promise<SyncReport> {
  const report: SyncReport = { upserted: 0, removed: 0, checkpoint: from };
  for (;;) {
    const batch = mergeFeed(await store.changesSince(report.checkpoint, batchSize), await store.removalsSince(report.checkpoint, batchSize), batchSize);
    if (!batch) return report;
    await applyBatch(index, batch);
    report.upserted += batch.upserts.length;
    report.removed += batch.removals.length;
    report.checkpoint = batch.through;
  }
}

/** Follows the feed from the stored checkpoint until it is drained, advancing the checkpoint after each batch. */
export async function syncOnce(store: RecordStore, index: SearchIndex, batchSize = 500, checkpoint = SEARCH_SYNC_CHECKPOINT): Promise<SyncReport> {
  const start = await store.readCheckpoint(checkpoint);
  const report: SyncReport = { upserted: 0, removed: 0, checkpoint: start };
  for (;;) {
    const batch = mergeFeed(await store.changesSince(report.checkpoint, batchSize), await store.removalsSince(report.checkpoint, batchSize), batchSize);
    if (!batch) return report;
    await applyBatch(index, batch);
    await store.writeCheckpoint(checkpoint, batch.through);
    report.upserted += batch.upserts.length;
    report.removed += batch.removals.length;
    report.checkpoint = batch.through;
  }
}

/** The result of comparing the catalog with the index. */
export type ReconcileOutcome =
  | { kind: 'in-step'; total: number }
  | { kind: 'moving' }
  | { kind: 'repaired'; total: number; indexedBefore: number }
  | { kind: 'still-drifting'; total: number; indexed: number };

/**
 * Every record upserted again, and every removed id that the store no longer holds removed
 * again. Slow (reads the whole catalog) and only run when counts disagree.
 */
export async function resyncAll(store: RecordStore, index: SearchIndex, batchSize = 500): Promise<void> {
  let batch: CanonicalRecord[] = [];
  for await (const record of store.streamRecords(batchSize)) {
    batch.push(canonical(record));
    if (batch.length >= batchSize) {
      await index.upsert(batch);
      batch = [];
    }
  }
  await index.upsert(batch);
  for (let after = 0; ; ) {
    const removals = await store.removalsSince(after, batchSize);
    if (removals.length === 0) break;
    const ids = [...new Set(removals.map((removal) => removal.id))];
    const present = new Set((await store.getRecords(ids)).map((record) => record.id));
    await index.remove(ids.filter((id) => !present.has(id)));
    after = removals.at(-1)?.seq ?? after;
    if (removals.length < batchSize) break;
  }
}

/**
 * Compares the catalog's size with the index's count, only when the feed is drained and nothing
 * moved while counting (otherwise `moving`), and repairs a difference with a full resync.
 */
export async function reconcile(store: RecordStore, index: SearchIndex, batchSize = 500, checkpoint = SEARCH_SYNC_CHECKPOINT): Promise<ReconcileOutcome> {
  const before = await store.catalogState();
  const position = await store.readCheckpoint(checkpoint);
  const drained = (await store.changesSince(position, 1)).length === 0 && (await store.removalsSince(position, 1)).length === 0;
  const indexed = await index.count();
  const after = await store.catalogState();
  if (!drained || after.changeNumber !== before.changeNumber) return { kind: 'moving' };
  if (indexed === before.total) return { kind: 'in-step', total: before.total };
  await resyncAll(store, index, batchSize);
  // Anything that changed while the catalog was read is written again after it, so no version read early is left last.
  await replayFeed(store, index, before.changeNumber, batchSize);
  const indexedAfter = await index.count();
  const total = (await store.catalogState()).total;
  return indexedAfter === total ? { kind: 'repaired', total, indexedBefore: indexed } : { kind: 'still-drifting', total, indexed: indexedAfter };
}

/** How often the follower looks at the feed and compares counts. */
export interface SearchSyncOptions {
  /** The follower's checkpoint name; one per index the store is followed into. */
  checkpoint: string;
  pollMs: number;
  reconcileEveryMs: number;
  batchSize: number;
  /** Waits after a failed pass before the next one. */
  retryDelayMs: number;
}

export const DEFAULT_SEARCH_SYNC_OPTIONS: SearchSyncOptions = { checkpoint: SEARCH_SYNC_CHECKPOINT, pollMs: 1000, reconcileEveryMs: 10 * 60_000, batchSize: 500, retryDelayMs: 5000 };

/** A running follower. */
export interface SearchSyncFollower {
  /** Finishes the pass under way and stops. */
  stop(): Promise<void>;
}

/** Starts following the store's change feed into the index until stopped. */
export function startSearchSync(store: RecordStore, index: SearchIndex, logger: Logger, options: Partial<SearchSyncOptions> = {}): SearchSyncFollower {
  const settings = { ...DEFAULT_SEARCH_SYNC_OPTIONS, ...options };
  let stopped = false;
  let wake: (() => void) | undefined;
  let lastReconcile = Date.now();
  const pause = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = async (): Promise<void> => {
    while (!stopped) {
      let delay = settings.pollMs;
      try {
        const report = await syncOnce(store, index, settings.batchSize, settings.checkpoint);
        if (report.upserted + report.removed > 0) logger.info('search index synced', { ...report });
        if (Date.now() - lastReconcile >= settings.reconcileEveryMs) {
          const outcome = await reconcile(store, index, settings.batchSize, settings.checkpoint);
          if (outcome.kind !== 'moving') lastReconcile = Date.now();
          if (outcome.kind === 'repaired') logger.warn('search index drifted from the store and was resynced', { ...outcome });
          if (outcome.kind === 'still-drifting') logger.error('search index still differs from the store after a resync; rebuild it with npm run reindex', { ...outcome });
        }
      } catch (error) {
        logger.error('search index sync failed; retrying', { error });
        delay = settings.retryDelayMs;
      }
      if (!stopped) await pause(delay);
    }
  };
  const running = loop();
  return {
    stop: async () => {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
