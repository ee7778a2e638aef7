import type { AnyBulkWriteOperation, ClientSession, Timestamp } from 'mongodb';
import { CHANGES_READ_IN_WRITE, NO_WORK_RECORDS, workRecordsOf } from '../../domain/ports.ts';
import type { CatalogState, FatePage, FatePosition, RecordChanges, RecordFate, RecordRemoval, RecordRetirement, RecordStore, RecordVersion, RecordWithdrawal, SharedWorks, SourceStore, StreamOptions, WorkReading, WorkRecords } from '../../domain/ports.ts';
import { workKey } from '../../domain/sources.ts';
import { facetValueKey } from '../../domain/search-query.ts';
import type { SourceDefinition } from '../../domain/sources.ts';
import { CATALOG_VERSION } from '../../domain/record.ts';
import type { CanonicalRecord, Kind, StoredRecord } from '../../domain/record.ts';
import { DEFAULT_WITHDRAWAL_REASON } from '../../domain/record-fates.ts';
import { allocatedChangeNumbers, inBatches } from './change-feed.ts';
import { fromRecordDocument, fromRecordFateDocument, fromWithdrawnFateDocument, toRecordDocument } from './documents.ts';
import type { RecordDocument } from './documents.ts';
import type { MongoArchiveDatabase } from './mongo-database.ts';
import { newChangeStamp } from '../change-stamp.ts';

/** Records written per transaction: well inside MongoDB's transaction size and time limits. */
export const RECORDS_PER_TRANSACTION = 1000;

/**
 * Canonical records in MongoDB. Every write takes its change numbers from the catalog counter in
 * the same transaction (see change-feed.ts for why that keeps the feed safe to follow).
 * A write of more than RECORDS_PER_TRANSACTION records is atomic per batch of that size.
 */
export class MongoRecordStore implements RecordStore, SourceStore {
  /**
   * The latest operation time of a catalog-state read. Feed reads begin no earlier (causal
   * consistency), so every change up to the change number that read returned is visible to them,
   * even when a failover put a primary with an older majority snapshot in between.
   */
  private feedTime: Timestamp | undefined;

  constructor(private readonly database: MongoArchiveDatabase) {}

  private noteFeedTime(time: Timestamp | undefined): void {
    if (time && (!this.feedTime || time.greaterThan(this.feedTime))) this.feedTime = time;
  }

  /** Reads made after the latest catalog-state read (see feedTime). */
  private async afterFeedTime<T>(reads: (session: ClientSession) => Promise<T>): Promise<T> {
    const { result, operationTime } = await this.database.causalReads(this.feedTime, reads);
    this.noteFeedTime(operationTime);
    return result;
  }

  private get collections() {
    return this.database.collections;
  }

  /** Reads leave out `_id` and stop at the operation bound. */
  private get read() {
    return { projection: { _id: 0 }, ...this.database.bounded } as const;
  }

  /** Increments the change counter by `count` inside the session's transaction; returns the numbers taken. */
  private async takeChangeNumbers(session: ClientSession, count: number, totalDelta: number): Promise<number[]> {
    const counter = await this.collections.catalogCounter.findOneAndUpdate(
      { _id: 'catalog' },
      { $inc: { changeNumber: count, total: totalDelta }, $set: { changeStamp: newChangeStamp() } },
      { upsert: true, returnDocument: 'after', session },
    );
    if (!counter) throw new Error('the catalog counter was not returned after its update');
    return allocatedChangeNumbers(counter.changeNumber, count);
  }

  async putRecords(records: readonly CanonicalRecord[]): Promise<void> {
    for (const batch of inBatches(records, RECORDS_PER_TRANSACTION)) {
      await this.database.transaction(async (session) => this.putInSession(session, batch));
    }
  }

  private async putInSession(session: ClientSession, batch: readonly CanonicalRecord[]): Promise<void> {
    const ids = batch.map((record) => record.id);
    const existing = await this.collections.records.countDocuments({ id: { $in: ids } }, { session, ...this.database.bounded });
    const added = new Set(ids).size - existing;
    const changeNumbers = await this.takeChangeNumbers(session, batch.length, added);
    const writes: AnyBulkWriteOperation<RecordDocument>[] = batch.map((record, index) => ({
      replaceOne: { filter: { id: record.id }, replacement: toRecordDocument(record, changeNumbers[index] ?? 0), upsert: true },
    }));
    await this.collections.records.bulkWrite(writes, { ordered: true, session });
    // An id that had moved or been withdrawn is a record again.
    await this.collections.recordFates.deleteMany({ _id: { $in: ids } }, { session });
  }

  async deleteRecords(ids: readonly string[], reason = DEFAULT_WITHDRAWAL_REASON): Promise<void> {
    if (ids.length === 0) return;
    await this.database.transaction(async (session) => this.retireInSession(session, ids.map((id) => ({ id, reason }))));
  }

  async replaceRecords(put: readonly CanonicalRecord[], retire: readonly RecordRetirement[]): Promise<void> {
    if (put.length > RECORDS_PER_TRANSACTION) throw new Error(`replaceRecords takes at most ${RECORDS_PER_TRANSACTION} records`);
    await this.database.transaction(async (session) => {
      if (put.length) await this.putInSession(session, put);
      if (retire.length) await this.retireInSession(session, retire);
    });
  }

  /** Removes records, keeping for each id where it went (or that it was withdrawn), and their removals in the change feed. */
  private async retireInSession(session: ClientSession, retire: readonly RecordRetirement[]): Promise<void> {
    const ids = retire.map((entry) => entry.id);
    const present = await this.collections.records.find({ id: { $in: ids } }, { session, projection: { _id: 0, id: 1, sourceUrl: 1, title: 1 }, ...this.database.bounded }).toArray();
    const removed = ids.filter((id, index) => ids.indexOf(id) === index && present.some((record) => record.id === id));
    if (removed.length === 0) return;
    const at = new Date().toISOString();
    for (const id of removed) {
      const record = present.find((entry) => entry.id === id);
      const entry = retire.find((candidate) => candidate.id === id);
      if (!record || !entry) continue;
      const fate = { movedTo: entry.movedTo ?? null, reason: entry.reason, at, sourceUrl: record.sourceUrl, title: record.title, workKey: workKey(record.sourceUrl) };
      await this.collections.recordFates.replaceOne({ _id: id }, fate, { upsert: true, session });
    }
    const changeNumbers = await this.takeChangeNumbers(session, removed.length, -removed.length);
    await this.collections.records.deleteMany({ id: { $in: removed } }, { session });
    await this.collections.removals.insertMany(
      removed.map((id, index) => ({ id, seq: changeNumbers[index] ?? 0 })),
      { session },
    );
  }

  async getRecord(id: string): Promise<StoredRecord | undefined> {
    const document = await this.collections.records.findOne({ id }, this.read);
    return document ? fromRecordDocument(document) : undefined;
  }

  async getRecords(ids: readonly string[]): Promise<StoredRecord[]> {
    if (ids.length === 0) return [];
    const documents = await this.collections.records.find({ id: { $in: [...ids] } }, this.read).toArray();
    const byId = new Map(documents.map((document) => [document.id, fromRecordDocument(document)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async *streamRecords({ from, batchSize = 500 }: StreamOptions = {}): AsyncIterable<StoredRecord> {
    let after = '';
    for (let first = from !== undefined; ; first = false) {
      const id = first ? { $gte: from ?? '' } : { $gt: after };
      const documents = await this.collections.records.find({ id }, this.read).sort({ id: 1 }).limit(batchSize).toArray();
      for (const document of documents) yield fromRecordDocument(document);
      const last = documents.at(-1);
      if (!last || documents.length < batchSize) return;
      after = last.id;
    }
  }

  async pageStarts(pageSize: number): Promise<string[]> {
    const starts: string[] = [];
    // Covered by the id index (only id is projected): each step skips pageSize − 1 index keys, no document is read.
    const idAfter = async (after: string | undefined, skip: number): Promise<string | undefined> =>
      (await this.collections.records.find(after === undefined ? {} : { id: { $gt: after } }, { projection: { _id: 0, id: 1 }, ...this.database.bounded }).sort({ id: 1 }).skip(skip).limit(1).next())?.id;
    for (let id = await idAfter(undefined, 0); id !== undefined; id = await idAfter(id, pageSize - 1)) starts.push(id);
    return starts;
  }

  async latestRecords(kind: Kind, limit: number): Promise<StoredRecord[]> {
    const documents = await this.collections.records.find({ kind }, this.read).sort({ seq: -1 }).limit(limit).toArray();
    return documents.map(fromRecordDocument);
  }

  async *streamVersions(batchSize = 1000): AsyncIterable<RecordVersion> {
    let after = '';
    for (;;) {
      const versions = await this.collections.records.find({ id: { $gt: after } }, { projection: { _id: 0, id: 1, seq: 1 }, ...this.database.bounded }).sort({ id: 1 }).limit(batchSize).toArray();
      yield* versions.map((version) => ({ id: version.id, seq: version.seq }));
      const last = versions.at(-1);
      if (!last || versions.length < batchSize) return;
      after = last.id;
    }
  }

  async changesSince(changeNumber: number, limit: number, upTo?: number): Promise<StoredRecord[]> {
    const seq = upTo === undefined ? { $gt: changeNumber } : { $gt: changeNumber, $lte: upTo };
    const documents = await this.afterFeedTime((session) => this.collections.records.find({ seq }, { ...this.read, session }).sort({ seq: 1 }).limit(limit).toArray());
    return documents.map(fromRecordDocument);
  }

  async removalsSince(changeNumber: number, limit: number, upTo?: number): Promise<RecordRemoval[]> {
    const seq = upTo === undefined ? { $gt: changeNumber } : { $gt: changeNumber, $lte: upTo };
    return this.afterFeedTime((session) => this.collections.removals.find({ seq }, { projection: { _id: 0, id: 1, seq: 1 }, ...this.database.bounded, session }).sort({ seq: 1 }).limit(limit).toArray());
  }

  async readCheckpoint(name: string): Promise<number> {
    return (await this.collections.checkpoints.findOne({ _id: name }, this.database.bounded))?.changeNumber ?? 0;
  }

  async writeCheckpoint(name: string, changeNumber: number): Promise<void> {
    await this.collections.checkpoints.updateOne({ _id: name }, { $set: { changeNumber } }, { upsert: true });
  }

  async readMappingVersion(checkpoint: string): Promise<number> {
    return (await this.collections.checkpoints.findOne({ _id: checkpoint }, this.database.bounded))?.mappingVersion ?? 0;
  }

  async raiseMappingVersion(checkpoint: string, version: number): Promise<void> {
    // In the checkpoint's document; one created here starts at 0, the position readCheckpoint reports without it.
    await this.collections.checkpoints.updateOne({ _id: checkpoint }, { $max: { mappingVersion: version }, $setOnInsert: { changeNumber: 0 } }, { upsert: true });
  }

  async deleteCheckpoint(name: string): Promise<void> {
    await this.collections.checkpoints.deleteOne({ _id: name });
  }

  async pruneRemovals(through: number): Promise<number> {
    const lowest = await this.collections.checkpoints.find({}, this.database.bounded).sort({ changeNumber: 1 }).limit(1).next();
    const result = await this.collections.removals.deleteMany({ seq: { $lte: Math.min(through, lowest?.changeNumber ?? through) } });
    return result.deletedCount;
  }

  async catalogState(): Promise<CatalogState> {
    const { result, operationTime } = await this.database.causalReads(undefined, async (session) => {
      const counter = await this.collections.catalogCounter.findOne({ _id: 'catalog' }, { ...this.database.bounded, session });
      const date = await this.collections.catalogDate.findOne({ _id: 'catalog-updated' }, { ...this.database.bounded, session });
      return { counter, date };
    });
    this.noteFeedTime(operationTime);
    const { counter, date } = result;
    return { version: CATALOG_VERSION, updated: date?.updated ?? null, changeNumber: counter?.changeNumber ?? 0, changeStamp: counter?.changeStamp ?? '', total: counter?.total ?? 0 };
  }

  async findByModel(model: string): Promise<StoredRecord[]> {
    return (await this.collections.records.find({ modelKey: facetValueKey(model) }, this.read).sort({ date: 1, id: 1 }).toArray()).map(fromRecordDocument);
  }

  async changeModelRecords(model: string, decide: (ofModel: StoredRecord[], work: WorkRecords) => RecordChanges, reading?: WorkReading): Promise<RecordChanges> {
    // One slot per label as the rule groups labels (case and width aside), so writers of `Case-Q` and `case-q` conflict too.
    const slot = facetValueKey(model);
    await this.collections.timelineSlots.updateOne({ _id: slot }, { $setOnInsert: { decisions: 0 } }, { upsert: true });
    return this.database.transaction(async (session) => {
      // Written first, in the transaction: a decision on this label committed by another writer
      // after this transaction's snapshot makes this write conflict (TransientTransactionError),
      // and the transaction runs again, reading the records that writer committed. (Record writes
      // also conflict on the catalog counter; the slot makes the rule independent of that.)
      await this.collections.timelineSlots.updateOne({ _id: slot }, { $inc: { decisions: 1 }, $set: { decidedAt: new Date().toISOString() } }, { session });
      // A label's records whatever the case or width it was written in, as the model filter finds them.
      const ofModel = (await this.collections.records.find({ modelKey: slot }, { ...this.read, session }).sort({ date: 1, id: 1 }).toArray()).map(fromRecordDocument);
      // A record of the work under another label, or any record, committed after this snapshot is
      // not seen here; but its transaction took a change number, so this one conflicts on the
      // catalog counter when it writes, and runs again on a reading that holds it.
      const changes = decide(ofModel, reading ? await this.workRecords(session, reading) : NO_WORK_RECORDS);
      if (changes.put.length > RECORDS_PER_TRANSACTION) throw new Error(`changeModelRecords writes at most ${RECORDS_PER_TRANSACTION} records`);
      if (changes.put.length) await this.putInSession(session, changes.put);
      if (changes.retire.length) await this.retireInSession(session, changes.retire);
      return changes;
    });
  }

  private async workRecords(session: ClientSession, { workKey: key, changedAfter }: WorkReading): Promise<WorkRecords> {
    const ofWork = await this.recordsOfWork(key, session);
    const changed = changedAfter === undefined ? undefined : (await this.collections.records.find({ seq: { $gt: changedAfter } }, { ...this.read, session }).sort({ seq: 1 }).limit(CHANGES_READ_IN_WRITE + 1).toArray()).map(fromRecordDocument);
    return workRecordsOf(ofWork, changed);
  }

  async findByWorkKey(key: string): Promise<StoredRecord[]> {
    return this.recordsOfWork(key);
  }

  async sharedWorks(limit: number): Promise<SharedWorks> {
    // Reads every record's work key and kind (a collection scan: the work_key index holds no
    // kind), the server keeping a count per work and kind, on disk past its memory bound.
    const [counted] = await this.collections.records
      .aggregate<{ total: { count: number }[]; works: { _id: { workKey: string; kind: Kind } }[] }>(
        [
          { $group: { _id: { workKey: '$workKey', kind: '$kind' }, records: { $sum: 1 } } },
          { $match: { records: { $gt: 1 } } },
          { $sort: { '_id.workKey': 1, '_id.kind': 1 } },
          // $limit takes no 0: a count alone (limit 0) reads one work, left out below.
          { $facet: { total: [{ $count: 'count' }], works: [{ $limit: Math.max(limit, 1) }] } },
        ],
        { allowDiskUse: true, ...this.database.bounded },
      )
      .toArray();
    const listed = (counted?.works ?? []).slice(0, limit).map((work) => work._id);
    // Their ids, by the work_key index.
    const ids = new Map(listed.map(({ workKey: key, kind }) => [`${kind} ${key}`, [] as string[]]));
    if (listed.length) {
      const records = this.collections.records.find({ workKey: { $in: listed.map((work) => work.workKey) } }, { projection: { _id: 0, id: 1, kind: 1, workKey: 1 }, ...this.database.bounded }).sort({ id: 1 });
      for await (const record of records) ids.get(`${record.kind} ${record.workKey}`)?.push(record.id);
    }
    return { total: counted?.total[0]?.count ?? 0, works: listed.map(({ workKey: key, kind }) => ({ kind, workKey: key, ids: ids.get(`${kind} ${key}`) ?? [] })) };
  }

  /** The records of a work (this work key), in a transaction's session when given. */
  private async recordsOfWork(key: string, session?: ClientSession): Promise<StoredRecord[]> {
    return (await this.collections.records.find({ workKey: key }, session ? { ...this.read, session } : this.read).sort({ kind: 1, id: 1 }).toArray()).map(fromRecordDocument);
  }

  async recordFate(id: string): Promise<RecordFate | undefined> {
    const document = await this.collections.recordFates.findOne({ _id: id }, this.database.bounded);
    return document ? fromRecordFateDocument(document) : undefined;
  }

  async findWithdrawals(key: string): Promise<RecordWithdrawal[]> {
    // movedTo: null matches the withdrawn fates (movedTo stored as null); the work_key index finds them.
    const documents = await this.collections.recordFates.find({ workKey: key, movedTo: null }, this.database.bounded).sort({ at: -1, _id: 1 }).toArray();
    return documents.map(fromWithdrawnFateDocument);
  }

  async fatesSince(day: string, after: FatePosition | undefined, limit: number): Promise<FatePage> {
    // `at` is an ISO instant, so every instant of the day and after sorts at or after its YYYY-MM-DD; the at_id index serves both reads.
    const since = { at: { $gte: day } };
    const filter = after ? { ...since, $or: [{ at: { $gt: after.at } }, { at: after.at, _id: { $gt: after.id } }] } : since;
    const documents = await this.collections.recordFates.find(filter, this.database.bounded).sort({ at: 1, _id: 1 }).limit(limit).toArray();
    const total = await this.collections.recordFates.countDocuments(since, this.database.bounded);
    return { total, fates: documents.map(fromRecordFateDocument) };
  }

  async listSources(): Promise<SourceDefinition[]> {
    return (await this.collections.sources.find({}, this.database.bounded).sort({ _id: 1 }).toArray()).map((document) => document.definition);
  }

  async putSource(source: SourceDefinition): Promise<void> {
    await this.database.transaction(async (session) => {
      await this.collections.sources.replaceOne({ _id: source.key }, { definition: source }, { upsert: true, session });
      await this.takeChangeNumbers(session, 1, 0);
    });
  }

  async removeSource(key: string): Promise<boolean> {
    return this.database.transaction(async (session) => {
      if ((await this.collections.sources.deleteOne({ _id: key }, { session })).deletedCount === 0) return false;
      await this.takeChangeNumbers(session, 1, 0);
      return true;
    });
  }

  async setCatalogUpdated(date: string): Promise<void> {
    await this.database.transaction(async (session) => {
      const held = await this.collections.catalogDate.findOne({ _id: 'catalog-updated' }, { session });
      if (held && held.updated >= date) return;
      await this.collections.catalogDate.updateOne({ _id: 'catalog-updated' }, { $set: { updated: date } }, { upsert: true, session });
      await this.takeChangeNumbers(session, 1, 0);
    });
  }

  async ping(): Promise<void> {
    await this.database.ping();
  }

  async close(): Promise<void> {
    await this.database.close();
  }
}
