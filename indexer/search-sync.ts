/**
 * The index sync: keeps a search index that is not written with the store (Meilisearch) current
 * by following the store's change feed. Works with any RecordStore and any SearchIndex. The
 * guarantee: every committed change reaches the index, in order, at least once.
 *
 * - Reads: each batch first reads the store's change number (the head), then the changed records
 *   and the removals after the checkpoint and at most the head. Change numbers are handed out in
 *   commit order, so everything up to the head is committed and visible to the two reads that
 *   follow; a transaction committing between them carries numbers above the head and is left for
 *   the next batch. Without the head, a transaction committing between the two reads (an edit and
 *   a removal together) could put its removal in the batch and its edit after the checkpoint.
 * - Position: a checkpoint in the store (`search-sync`), never beyond the head, advanced only after
 *   the index confirmed the batch; a crash replays at most one batch, and replays are harmless
 *   (upsert and remove by id are idempotent).
 * - Order: both lists are merged by change number, so for each id only its latest event counts
 *   (re-published after a removal: upsert; removed after an edit: remove).
 * - Several followers: each pass ends only with a head read that finds nothing new, made after
 *   the pass's last write. A follower that wrote an older version over a newer one (read before
 *   the record changed, written after another follower indexed the change) therefore reads the
 *   newer change in its own next batch and writes it again: passes converge on the store's
 *   state. The shared checkpoint may step back when passes overlap, which only replays.
 * - Drift: a periodic reconcile compares the index with the store record by record (each index
 *   entry keeps the change number of its version; see version-digest.ts) and repairs exactly the
 *   records that differ.
 * - Mapping: the version of the mapping from records to documents (SearchIndex.mappingVersion) is
 *   stored beside the checkpoint; a start that finds it absent or older writes every record again
 *   in the background (checkMapping) and then stores it. A lower version never replaces a higher.
 * - Removals every follower has read are pruned from the store (pruneRemovals), one reconcile
 *   period after the checkpoint passed them.
 */
import type { RecordRemoval, RecordStore, SearchIndex } from '../src/domain/ports.ts';
import { LANGS } from '../src/domain/record.ts';
import type { StoredRecord } from '../src/domain/record.ts';
import { errorSummary } from '../src/logger.ts';
import type { Logger } from '../src/logger.ts';
import { addDifferences, differingBuckets, digestOf, versionsIn } from './version-digest.ts';
import type { VersionDifferences } from './version-digest.ts';

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
 * Merges one read of both lists (each at most `limit` long, read after the same change number
 * and bounded by `head`). A full list may go on beyond its last entry, so the batch reaches only
 * as far as the shorter of the full lists, and never beyond the head; within that, the latest
 * event of each id wins.
 */
export function mergeFeed(changes: readonly StoredRecord[], removals: readonly RecordRemoval[], limit: number, head: number): FeedBatch {
  const reach = (list: readonly { seq: number }[]): number => (list.length >= limit ? (list.at(-1)?.seq ?? Infinity) : Infinity);
  const through = Math.min(reach(changes), reach(removals), head);
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

/** The next batch after change number `after`: the head first, then both lists up to it. Undefined when nothing is newer. */
export async function readBatch(store: RecordStore, after: number, limit: number): Promise<FeedBatch | undefined> {
  const head = (await store.catalogState()).changeNumber;
  if (head <= after) return undefined;
  const changes = await store.changesSince(after, limit, head);
  const removals = await store.removalsSince(after, limit, head);
  return mergeFeed(changes, removals, limit, head);
}

/** Applies one batch to the index: removals and upserts touch different ids, so order is free. */
async function applyBatch(index: SearchIndex, batch: FeedBatch): Promise<void> {
  await index.remove(batch.removals);
  await index.upsert(batch.upserts);
}

/** What a sync pass did. */
export interface SyncReport {
  upserted: number;
  removed: number;
  checkpoint: number;
}

/**
 * Applies every change after `from` to the index, without a checkpoint when `checkpoint` is left
 * out (used after a rebuild swap, to replay what happened while the fresh index was filled) or
 * advancing it after each batch. Returns the change number reached.
 */
async function follow(store: RecordStore, index: SearchIndex, from: number, batchSize: number, checkpoint?: string): Promise<SyncReport> {
  const report: SyncReport = { upserted: 0, removed: 0, checkpoint: from };
  for (;;) {
    const batch = await readBatch(store, report.checkpoint, batchSize);
    if (!batch) return report;
    await applyBatch(index, batch);
    if (checkpoint) await store.writeCheckpoint(checkpoint, batch.through);
    report.upserted += batch.upserts.length;
    report.removed += batch.removals.length;
    report.checkpoint = batch.through;
  }
}

/** Applies every change after `from` to the index without touching any checkpoint. */
export async function replayFeed(store: RecordStore, index: SearchIndex, from: number, batchSize = 500): Promise<SyncReport> {
  return follow(store, index, from, batchSize);
}

/** Follows the feed from the stored checkpoint until it is drained, advancing the checkpoint after each batch. */
export async function syncOnce(store: RecordStore, index: SearchIndex, batchSize = 500, checkpoint = SEARCH_SYNC_CHECKPOINT): Promise<SyncReport> {
  return follow(store, index, await store.readCheckpoint(checkpoint), batchSize, checkpoint);
}

/** How many records of each kind of difference a reconcile found and repaired. */
export interface RepairCounts {
  missing: number;
  stale: number;
  extra: number;
}

/** The result of comparing the catalog with the index. */
export type ReconcileOutcome = { kind: 'in-step'; total: number } | { kind: 'moving' } | ({ kind: 'repaired'; total: number } & RepairCounts);

/** Writes the store's current version of `ids` into the index, in batches; ids the store no longer holds are skipped. */
async function rewrite(store: RecordStore, index: SearchIndex, ids: readonly string[], batchSize: number): Promise<void> {
  for (let start = 0; start < ids.length; start += batchSize) await index.upsert(await store.getRecords(ids.slice(start, start + batchSize)));
}

/**
 * Compares the index with the store record by record: every index entry's change number against
 * the store's, in both languages (version-digest.ts). Runs only once the feed is drained
 * (otherwise `moving`: the sync catches up first). Records missing from the index or held in
 * another version are written again, entries the store no longer holds are removed, and the feed
 * is then replayed from the change number read at the start, so a record that changed while the
 * comparison ran ends in its latest version whatever the comparison concluded about it.
 */
export async function reconcile(store: RecordStore, index: SearchIndex, batchSize = 500, checkpoint = SEARCH_SYNC_CHECKPOINT): Promise<ReconcileOutcome> {
  const before = await store.catalogState();
  if (before.changeNumber > (await store.readCheckpoint(checkpoint))) return { kind: 'moving' };
  const stored = await digestOf(store.streamVersions(batchSize));
  const buckets = new Set<number>();
  for (const lang of LANGS) for (const bucket of differingBuckets(stored, await digestOf(index.streamVersions(lang, batchSize)))) buckets.add(bucket);
  if (buckets.size === 0) return { kind: 'in-step', total: stored.count };
  const storeVersions = await versionsIn(store.streamVersions(batchSize), buckets);
  const differences: VersionDifferences = { missing: new Set(), stale: new Set(), extra: new Set() };
  for (const lang of LANGS) addDifferences(differences, storeVersions, await versionsIn(index.streamVersions(lang, batchSize), buckets));
  await rewrite(store, index, [...new Set([...differences.missing, ...differences.stale])], batchSize);
  await index.remove([...differences.extra]);
  await replayFeed(store, index, before.changeNumber, batchSize);
  return { kind: 'repaired', total: stored.count, missing: differences.missing.size, stale: differences.stale.size, extra: differences.extra.size };
}

/**
 * Set while the index sync fills the search index again from the store (its value: the change
 * number it must reach); /readyz answers 503 meanwhile. Deleted once the sync has passed it.
 */
export const SEARCH_REFILL_CHECKPOINT = 'search-refill';

/**
 * An index holding fewer documents than this share of the store's records, with the feed drained,
 * is filled again from the store at once (an index created empty by a start after it was deleted,
 * or emptied); a smaller difference is left to a reconcile.
 */
export const REFILL_BELOW = 0.5;

/** What an inspection of the index asks of the sync: nothing, a reconcile now, or (begun already) writing every record again. */
export type InspectionOutcome = 'in-step' | 'reconcile' | 'refill';

/**
 * Has an index kept apart from the store mend itself (SearchIndex.inspect: a missing index created,
 * one re-created with Meilisearch's defaults given its settings) and compares what it holds with
 * the store. A mended index holds nothing, or only what was written to it since it was lost, and
 * one far below the store's count (REFILL_BELOW, compared only while the feed is drained) was
 * emptied: either way the checkpoint goes back to 0, so the sync writes every record again, with
 * SEARCH_REFILL_CHECKPOINT set until it is done, and one warning says what happened. Another
 * difference in count asks for a reconcile. Counts are compared only when `compareCounts`. An
 * index far below the store before the sync has ever written (checkpoint 0: a first start) is
 * filled the same way, with SEARCH_REFILL_CHECKPOINT set, and a line saying so.
 */
export async function inspectIndex(store: RecordStore, index: SearchIndex, logger: Logger, checkpoint = SEARCH_SYNC_CHECKPOINT, compareCounts = true): Promise<InspectionOutcome> {
  if (!index.inspect) return 'in-step';
  const before = await store.catalogState();
  const reached = await store.readCheckpoint(checkpoint);
  const drained = compareCounts && reached >= before.changeNumber;
  const { restored, documents } = await index.inspect();
  const held = Math.min(...LANGS.map((lang) => documents[lang]));
  if (reached === 0 && before.total > 0 && held < before.total * REFILL_BELOW) {
    // Never synced (a first start, or a start that found no checkpoint): the sync fills the index from change number 0 anyway.
    logger.warn('search index is filled from the store for the first time (no checkpoint yet): searches answer 503 until it holds every record', { documents, records: before.total });
  } else if (restored.length > 0) {
    logger.warn('search index was missing or lacked its settings (deleted while the service ran?): restored it, and the sync writes every record to it again', {
      restored: restored.map(({ index: name, was }) => ({ index: name, was })),
      records: before.total,
    });
  } else if (drained && held < before.total * REFILL_BELOW) {
    logger.warn('search index holds far fewer documents than the store holds records (created empty, or emptied): the sync writes every record to it again', { documents, records: before.total });
  } else {
    return drained && LANGS.some((lang) => documents[lang] !== before.total) ? 'reconcile' : 'in-step';
  }
  if (before.changeNumber > 0) await store.writeCheckpoint(SEARCH_REFILL_CHECKPOINT, before.changeNumber);
  await store.writeCheckpoint(checkpoint, 0);
  return 'refill';
}

/** A rewrite of every document the index sync runs because they were written by an older mapping. */
export interface MappingUpgrade {
  /** The stored version (0: none) and the index's. */
  from: number;
  to: number;
  /** The change number at the start: done once the sync has passed it after writing every record again. */
  until: number;
  /** Whether every record has been written again (replayFeed from 0). */
  rewritten: boolean;
  started: number;
  /** Set when the sync's checkpoint was 0: it writes every record anyway, and nothing is logged. */
  quiet?: boolean;
}

/**
 * Compares the version of the document mapping stored beside the checkpoint with the index's
 * (SearchIndex.mappingVersion, documents.ts). Older or absent: the documents are to be written
 * again (returned, after one info line), except in a store without records, where the version is
 * just stored, and when the sync's checkpoint is 0 (a first fill or a refill writes every record
 * with the current mapping: returned as done, stored once the sync is through, without a line). The same or newer (stored by a process of a newer version): nothing to do.
 */
export async function checkMapping(store: RecordStore, index: SearchIndex, logger: Logger, checkpoint = SEARCH_SYNC_CHECKPOINT): Promise<MappingUpgrade | undefined> {
  const to = index.mappingVersion;
  if (to === undefined) return undefined;
  const from = await store.readMappingVersion(checkpoint);
  if (from >= to) return undefined;
  const catalog = await store.catalogState();
  if (catalog.total === 0) {
    await store.raiseMappingVersion(checkpoint, to);
    return undefined;
  }
  // The sync writes every record from change number 0 anyway (a first fill or a refill): stored once it is through, without a line.
  if ((await store.readCheckpoint(checkpoint)) === 0) return { from, to, until: catalog.changeNumber, rewritten: true, started: Date.now(), quiet: true };
  logger.info('search documents were written by an older mapping: the sync writes every record again, searches answer from the old documents meanwhile', { from, to, records: catalog.total });
  return { from, to, until: catalog.changeNumber, rewritten: false, started: Date.now() };
}

/** How often the follower looks at the feed and compares counts. */
export interface SearchSyncOptions {
  /** The follower's checkpoint name; one per index the store is followed into. */
  checkpoint: string;
  pollMs: number;
  reconcileEveryMs: number;
  /** How often an index kept apart from the store is inspected (inspectIndex); also at the start and after a failed pass. */
  inspectEveryMs: number;
  batchSize: number;
  /** Waits after a failed pass before the next one, doubled with every failure in a row up to SYNC_RETRY_CAP_MS. */
  retryDelayMs: number;
}

/** The longest wait between two failed passes in a row. */
export const SYNC_RETRY_CAP_MS = 30_000;

export const DEFAULT_SEARCH_SYNC_OPTIONS: SearchSyncOptions = { checkpoint: SEARCH_SYNC_CHECKPOINT, pollMs: 1000, reconcileEveryMs: 10 * 60_000, inspectEveryMs: 5000, batchSize: 500, retryDelayMs: 5000 };

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
  /** Inspected at the first pass, every inspectEveryMs, and at the pass after a failure. */
  let lastInspection = -Infinity;
  /**
   * When an inspection last asked for a refill or a reconcile. Counts act at most once per
   * reconcile period: a store whose count disagreed for good with what a refill writes would
   * otherwise be refilled every few seconds.
   */
  let lastRepair = -Infinity;
  /** The change number a refill must reach (SEARCH_REFILL_CHECKPOINT; read at the first pass, one left by a stopped refill too); 0 when none runs. */
  let refillUntil: number | undefined;
  /** Whether the mapping version was compared (checkMapping, at the first pass that succeeds that far), and the rewrite it asked for until done. */
  let mappingChecked = false;
  let upgrade: MappingUpgrade | undefined;
  /**
   * Removals are pruned once per reconcile period, up to the checkpoint of the period before:
   * every pass that was running then has read them.
   */
  let lastPrune = Date.now();
  let consumed: number | undefined;
  /** Failed passes in a row, and when the first of them failed. */
  let failures = 0;
  let failingSince = 0;
  const pause = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  /** Set when an index that could not be opened at start opens: the next pass runs at once, after an inspection. */
  let nudged = false;
  /**
   * True until an index that could not be opened at start (SearchIndex.opened) opens: every call
   * of it fails meanwhile (SearchIndexNotReady), which is no failure of the sync. It waits, with
   * one warning, and begins when the index opens.
   */
  let awaitingOpen = index.opened !== undefined;
  void index.opened?.then(() => {
    awaitingOpen = false;
    nudged = true;
    lastInspection = -Infinity;
    wake?.();
  });
  const untilWoken = (): Promise<void> =>
    new Promise((resolve) => {
      wake = resolve;
    });
  const loop = async (): Promise<void> => {
    // A promise settled already (an index opened before the sync started) has run its callback by then.
    await Promise.resolve();
    if (awaitingOpen && !stopped) {
      logger.warn('search index sync waits for the search index to open (Meilisearch could not be opened, see going on without search); it begins once it opens');
      await untilWoken();
      nudged = false;
    }
    while (!stopped) {
      let delay = settings.pollMs;
      try {
        refillUntil ??= await store.readCheckpoint(SEARCH_REFILL_CHECKPOINT);
        if (Date.now() - lastInspection >= settings.inspectEveryMs) {
          // A refill is this pass's sync; the reconcile then follows at once (a refill leaves what the store no longer holds).
          const outcome = await inspectIndex(store, index, logger, settings.checkpoint, Date.now() - lastRepair >= settings.reconcileEveryMs);
          if (outcome !== 'in-step') {
            lastReconcile = -Infinity;
            lastRepair = Date.now();
          }
          if (outcome === 'refill') refillUntil = await store.readCheckpoint(SEARCH_REFILL_CHECKPOINT);
          lastInspection = Date.now();
        }
        if (!mappingChecked) {
          upgrade = await checkMapping(store, index, logger, settings.checkpoint);
          mappingChecked = true;
        }
        // Every record again, from change number 0, without moving the shared checkpoint: the old
        // documents keep answering (and /readyz ready) until each is replaced. A refill does the same
        // through the checkpoint, which it has set to 0.
        if (upgrade && !upgrade.rewritten) {
          if ((await store.readCheckpoint(settings.checkpoint)) > 0) await replayFeed(store, index, 0, settings.batchSize);
          upgrade.rewritten = true;
        }
        const report = await syncOnce(store, index, settings.batchSize, settings.checkpoint);
        if (report.upserted + report.removed > 0) logger.info('search index synced', { ...report });
        if (refillUntil > 0 && report.checkpoint >= refillUntil) {
          await store.deleteCheckpoint(SEARCH_REFILL_CHECKPOINT);
          logger.info('search index filled again from the store', { through: refillUntil });
          refillUntil = 0;
        }
        if (upgrade && report.checkpoint >= upgrade.until) {
          await store.raiseMappingVersion(settings.checkpoint, upgrade.to);
          if (!upgrade.quiet)
            logger.info('search documents rewritten with the current mapping', { from: upgrade.from, to: upgrade.to, through: upgrade.until, seconds: Math.round((Date.now() - upgrade.started) / 1000) });
          upgrade = undefined;
        }
        if (Date.now() - lastReconcile >= settings.reconcileEveryMs) {
          const outcome = await reconcile(store, index, settings.batchSize, settings.checkpoint);
          if (outcome.kind !== 'moving') lastReconcile = Date.now();
          if (outcome.kind === 'repaired') logger.warn('search index differed from the store and was repaired', { ...outcome });
        }
        if (Date.now() - lastPrune >= settings.reconcileEveryMs) {
          if (consumed !== undefined) await store.pruneRemovals(consumed);
          consumed = report.checkpoint;
          lastPrune = Date.now();
        }
        if (failures > 0) logger.info('search index sync working again', { failures, ms: Date.now() - failingSince });
        failures = 0;
      } catch (error) {
        // The first failure in full; then one line per retry, without the stack, as the waits double (as the publisher's claims do).
        failures += 1;
        delay = Math.min(SYNC_RETRY_CAP_MS, settings.retryDelayMs * 2 ** (failures - 1));
        if (failures === 1) {
          failingSince = Date.now();
          logger.error('search index sync failed; retrying', { error, retryInMs: delay });
        } else logger.warn('search index sync failed again', { failures, retryInMs: delay, reason: errorSummary(error) });
        lastInspection = -Infinity;
      }
      if (!stopped && !nudged) await pause(delay);
      nudged = false;
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
