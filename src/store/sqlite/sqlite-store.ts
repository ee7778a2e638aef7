import { CATALOG_VERSION } from '../../domain/record.ts';
import type { CanonicalRecord, Kind, StoredRecord } from '../../domain/record.ts';
import { DEFAULT_WITHDRAWAL_REASON } from '../../domain/record-fates.ts';
import { CHANGES_READ_IN_WRITE, NO_WORK_RECORDS, workRecordsOf } from '../../domain/ports.ts';
import type { CatalogState, FatePage, FatePosition, RecordChanges, RecordFate, RecordRemoval, RecordRetirement, RecordStore, RecordVersion, RecordWithdrawal, SharedWork, SharedWorks, SourceStore, StreamOptions, WorkReading, WorkRecords } from '../../domain/ports.ts';
import { workKey } from '../../domain/sources.ts';
import { facetValueKey } from '../../domain/search-query.ts';
import type { SourceDefinition } from '../../domain/sources.ts';
import type { IndexRow } from '../../search/sqlite/index-row.ts';
import type { SqliteDatabase } from './database.ts';
import { prepareRecord } from './prepared-record.ts';
import type { PreparedRecord, PreparedRecordWriter } from './prepared-record.ts';
import { newChangeStamp } from '../change-stamp.ts';
import { DatabaseFileWatch } from './database-file.ts';

/** Writes that must happen in the same transaction as a record write (the embedded search index). */
export interface SameTransactionIndex {
  /** Writes the rows of records (see IndexRow), each with its change number. */
  upsertInTransaction(rows: readonly IndexRow[]): void;
  removeInTransaction(ids: readonly string[]): void;
  /** Puts the index in its best shape for reading after a bulk write (a catalog import). */
  settleAfterBulkWrite(): void;
}

/** A bulk write settles the index when it wrote at least 1 / BULK_SHARE_TO_SETTLE of the records (see finishBulkWrite). */
const BULK_SHARE_TO_SETTLE = 4;

interface RecordRow {
  doc: string;
  seq: number;
}

/** The stored record of a row: its parsed JSON given its change number (set on it, not copied into a new object, which cost as much again as the parse). */
function toStored(row: RecordRow): StoredRecord {
  const record = JSON.parse(row.doc) as StoredRecord;
  record.seq = row.seq;
  return record;
}

interface FateRow {
  id: string;
  moved_to: string | null;
  reason: string;
  at: string;
  source_url: string;
  title: string;
}

function toWithdrawal(row: FateRow): RecordWithdrawal {
  return { id: row.id, status: 'withdrawn', reason: row.reason, at: row.at, sourceUrl: row.source_url, title: JSON.parse(row.title) as { zh: string; en: string } };
}

/**
 * The works with more than one record of one kind (RecordStore.sharedWorks), as rows: the keys
 * held by more than one record are found by a scan of the work_key index alone (covering: one
 * index entry per record, no row read), and only those keys' rows are read and grouped by kind.
 */
const SHARED_WORKS = `SELECT kind, work_key, json_group_array(id) AS ids FROM records
  WHERE work_key IN (SELECT work_key FROM records GROUP BY work_key HAVING count(*) > 1)
  GROUP BY work_key, kind HAVING count(*) > 1`;

interface SharedWorkRow {
  kind: Kind;
  work_key: string;
  ids: string;
}

function toSharedWork(row: SharedWorkRow): SharedWork {
  // An aggregate takes its rows in no order SQLite promises: the ids are put in id order here.
  return { kind: row.kind, workKey: row.work_key, ids: (JSON.parse(row.ids) as string[]).sort() };
}

function toFate(row: FateRow): RecordFate {
  if (row.moved_to) return { id: row.id, status: 'moved', movedTo: row.moved_to, reason: row.reason, at: row.at };
  return toWithdrawal(row);
}

/**
 * The embedded record store: one SQLite file, canonical records as JSON beside their key columns,
 * what became of retired ids, and the source table.
 */
export class SqliteRecordStore implements RecordStore, SourceStore, PreparedRecordWriter {
  private readonly statements;
  /** Reads a page's records in one read transaction (made once: wrapping a function anew for every page cost a third of a record's read). */
  private readonly readRecords: (ids: readonly string[]) => StoredRecord[];
  private cachedState: { dataVersion: number; localWrites: number; state: CatalogState } | undefined;
  private localWrites = 0;
  private readonly file: DatabaseFileWatch;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly index?: SameTransactionIndex,
  ) {
    this.file = new DatabaseFileWatch(db.name);
    this.statements = {
      get: db.prepare<[string], RecordRow>('SELECT doc, seq FROM records WHERE id = ?'),
      upsert: db.prepare('INSERT INTO records (id, kind, source, format, date, source_url, model, work_key, model_key, seq, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, source = excluded.source, format = excluded.format, date = excluded.date, source_url = excluded.source_url, model = excluded.model, work_key = excluded.work_key, model_key = excluded.model_key, seq = excluded.seq, doc = excluded.doc'),
      // A model label's records whatever the case or width it was written in (facetValueKey), as the model filter finds them.
      byModel: db.prepare<[string], RecordRow>('SELECT doc, seq FROM records WHERE model_key = ? ORDER BY date, id'),
      byWorkKey: db.prepare<[string], RecordRow>('SELECT doc, seq FROM records WHERE work_key = ? ORDER BY kind, id'),
      remove: db.prepare('DELETE FROM records WHERE id = ?'),
      page: db.prepare<[string, number], RecordRow & { id: string }>('SELECT id, doc, seq FROM records WHERE id > ? ORDER BY id LIMIT ?'),
      pageFrom: db.prepare<[string, number], RecordRow & { id: string }>('SELECT id, doc, seq FROM records WHERE id >= ? ORDER BY id LIMIT ?'),
      firstId: db.prepare<[], string>('SELECT id FROM records ORDER BY id LIMIT 1').pluck(),
      idAfter: db.prepare<[string, number], string>('SELECT id FROM records WHERE id > ? ORDER BY id LIMIT 1 OFFSET ?').pluck(),
      versions: db.prepare<[string, number], { id: string; seq: number }>('SELECT id, seq FROM records WHERE id > ? ORDER BY id LIMIT ?'),
      changes: db.prepare<[number, number, number], RecordRow>('SELECT doc, seq FROM records WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?'),
      latest: db.prepare<[string, number], RecordRow>('SELECT doc, seq FROM records WHERE kind = ? ORDER BY seq DESC LIMIT ?'),
      removals: db.prepare<[number, number, number], RecordRemoval>('SELECT id, seq FROM removals WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?'),
      pruneRemovals: db.prepare<[number]>('DELETE FROM removals WHERE seq <= ?'),
      lowestCheckpoint: db.prepare<[], number | null>("SELECT min(CAST(value AS INTEGER)) FROM meta WHERE key LIKE 'checkpoint:%'").pluck(),
      deleteMeta: db.prepare<[string]>('DELETE FROM meta WHERE key = ?'),
      raiseMeta: db.prepare<[string, string]>(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = CASE WHEN CAST(excluded.value AS INTEGER) > CAST(value AS INTEGER) THEN excluded.value ELSE value END',
      ),
      recordRemoval: db.prepare('INSERT INTO removals (seq, id) VALUES (?, ?)'),
      readMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      writeMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      count: db.prepare<[], { total: number }>('SELECT count(*) AS total FROM records'),
      dataVersion: db.prepare<[], { data_version: number }>('PRAGMA data_version'),
      fate: db.prepare<[string], FateRow>('SELECT * FROM record_fates WHERE id = ?'),
      writeFate: db.prepare('INSERT INTO record_fates (id, moved_to, reason, at, source_url, title, work_key) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET moved_to = excluded.moved_to, reason = excluded.reason, at = excluded.at, source_url = excluded.source_url, title = excluded.title, work_key = excluded.work_key'),
      withdrawalsOfWork: db.prepare<[string], FateRow>('SELECT * FROM record_fates WHERE work_key = ? AND moved_to IS NULL ORDER BY at DESC, id'),
      forgetFate: db.prepare('DELETE FROM record_fates WHERE id = ?'),
      // `at` is an ISO instant, so every instant of a day and after sorts at or after the day's YYYY-MM-DD.
      fatesSince: db.prepare<[string, number], FateRow>('SELECT * FROM record_fates WHERE at >= ? ORDER BY at, id LIMIT ?'),
      fatesAfter: db.prepare<[string, string, string, number], FateRow>('SELECT * FROM record_fates WHERE at >= ? AND (at, id) > (?, ?) ORDER BY at, id LIMIT ?'),
      countFatesSince: db.prepare<[string], number>('SELECT count(*) FROM record_fates WHERE at >= ?').pluck(),
      anyFate: db.prepare<[], number>('SELECT EXISTS (SELECT 1 FROM record_fates)').pluck(),
      sharedWorks: db.prepare<[number], SharedWorkRow>(`${SHARED_WORKS} ORDER BY work_key, kind LIMIT ?`),
      countSharedWorks: db.prepare<[], number>(`SELECT count(*) FROM (${SHARED_WORKS})`).pluck(),
      sources: db.prepare<[], { definition: string }>('SELECT definition FROM sources ORDER BY key'),
      putSource: db.prepare('INSERT INTO sources (key, definition) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET definition = excluded.definition'),
      removeSource: db.prepare('DELETE FROM sources WHERE key = ?'),
    };
    const readPage = db.transaction((ids: readonly string[]) => {
      const found: StoredRecord[] = [];
      for (const id of ids) {
        const row = this.statements.get.get(id);
        if (row) found.push(toStored(row));
      }
      return found;
    });
    this.readRecords = (ids) => readPage.deferred(ids);
  }

  async putRecords(records: readonly CanonicalRecord[]): Promise<void> {
    this.putRecordsNow(records);
  }

  /** Synchronous write, for callers that already hold a transaction. */
  putRecordsNow(records: readonly CanonicalRecord[]): void {
    this.putPreparedRecords(records.map((record) => prepareRecord(record, this.indexesRecords)));
  }

  get indexesRecords(): boolean {
    return this.index !== undefined;
  }

  putPreparedRecords(records: readonly PreparedRecord[]): void {
    if (records.length === 0) return;
    this.file.check();
    this.db.transaction(() => {
      let changeNumber = this.readChangeNumber();
      const written: IndexRow[] = [];
      // A catalog that never retired an id has no fates to forget.
      const forgetFates = this.statements.anyFate.get() === 1;
      for (const { doc, columns, index } of records) {
        changeNumber += 1;
        this.statements.upsert.run(...columns, changeNumber, doc);
        if (index) written.push({ ...index, seq: changeNumber });
        if (forgetFates) this.statements.forgetFate.run(columns[0]);
      }
      this.writeChangeNumber(changeNumber);
      if (this.index && written.length !== records.length) throw new Error('prepared records lack their search-index rows');
      this.index?.upsertInTransaction(written);
    }).immediate();
    this.localWrites += 1;
  }

  /**
   * Settles the index after a bulk write that wrote at least a quarter of the records the store now
   * holds: settling rewrites the whole index, which pays when much of it is new (a first import, a
   * catalog replaced), not for a small import into a large catalog, whose few new segments FTS5
   * merges as it goes.
   */
  finishBulkWrite(written: number): void {
    if (!this.index || written * BULK_SHARE_TO_SETTLE < (this.statements.count.get()?.total ?? 0)) return;
    this.index.settleAfterBulkWrite();
  }

  async deleteRecords(ids: readonly string[], reason = DEFAULT_WITHDRAWAL_REASON): Promise<void> {
    this.retireRecordsNow(ids.map((id) => ({ id, reason })));
  }

  async replaceRecords(put: readonly CanonicalRecord[], retire: readonly RecordRetirement[]): Promise<void> {
    this.db
      .transaction(() => {
        this.putRecordsNow(put);
        this.retireRecordsNow(retire);
      })
      .immediate();
  }

  /** Removes records, keeping for each id where it went (or that it was withdrawn), in the change feed too. */
  private retireRecordsNow(retire: readonly RecordRetirement[]): void {
    if (retire.length === 0) return;
    this.file.check();
    const at = new Date().toISOString();
    this.db.transaction(() => {
      let changeNumber = this.readChangeNumber();
      for (const { id, movedTo, reason } of retire) {
        const row = this.statements.get.get(id);
        if (!row) continue;
        const record = toStored(row);
        this.statements.remove.run(id);
        changeNumber += 1;
        this.statements.recordRemoval.run(changeNumber, id);
        this.statements.writeFate.run(id, movedTo ?? null, reason, at, record.sourceUrl, JSON.stringify(record.title), workKey(record.sourceUrl));
      }
      this.writeChangeNumber(changeNumber);
      this.index?.removeInTransaction(retire.map((entry) => entry.id));
    }).immediate();
    this.localWrites += 1;
  }

  async recordFate(id: string): Promise<RecordFate | undefined> {
    const row = this.statements.fate.get(id);
    return row ? toFate(row) : undefined;
  }

  async fatesSince(day: string, after: FatePosition | undefined, limit: number): Promise<FatePage> {
    // One read transaction: the page and its total come from the same state of the table.
    return this.db.transaction(() => {
      const rows = after ? this.statements.fatesAfter.all(day, after.at, after.id, limit) : this.statements.fatesSince.all(day, limit);
      return { total: this.statements.countFatesSince.get(day) ?? 0, fates: rows.map(toFate) };
    })();
  }

  async findWithdrawals(key: string): Promise<RecordWithdrawal[]> {
    return this.statements.withdrawalsOfWork.all(key).map(toWithdrawal);
  }

  async listSources(): Promise<SourceDefinition[]> {
    return this.statements.sources.all().map((row) => JSON.parse(row.definition) as SourceDefinition);
  }

  async putSource(source: SourceDefinition): Promise<void> {
    this.changeSourcesNow(() => this.statements.putSource.run(source.key, JSON.stringify(source)).changes > 0);
  }

  async removeSource(key: string): Promise<boolean> {
    return this.changeSourcesNow(() => this.statements.removeSource.run(key).changes > 0);
  }

  /** Runs a change of the source table that takes a change number when it changed something (see SourceStore). */
  private changeSourcesNow(change: () => boolean): boolean {
    const changed = this.db
      .transaction(() => {
        if (!change()) return false;
        this.writeChangeNumber(this.readChangeNumber() + 1);
        return true;
      })
      .immediate();
    this.localWrites += 1;
    return changed;
  }

  async getRecord(id: string): Promise<StoredRecord | undefined> {
    const row = this.statements.get.get(id);
    return row ? toStored(row) : undefined;
  }

  /**
   * The records of ids, in one read transaction: a page shows them as of one state of the store,
   * and SQLite takes its read lock and looks at the write-ahead log once for the page instead of
   * once for each record.
   */
  async getRecords(ids: readonly string[]): Promise<StoredRecord[]> {
    return this.readRecords(ids);
  }

  async *streamRecords({ from, batchSize = 500 }: StreamOptions = {}): AsyncIterable<StoredRecord> {
    let after = '';
    for (let first = from !== undefined; ; first = false) {
      const rows = first ? this.statements.pageFrom.all(from ?? '', batchSize) : this.statements.page.all(after, batchSize);
      for (const row of rows) yield toStored(row);
      const last = rows.at(-1);
      if (!last || rows.length < batchSize) return;
      after = last.id;
    }
  }

  async pageStarts(pageSize: number): Promise<string[]> {
    const starts: string[] = [];
    // The id index covers these reads: each step skips pageSize − 1 index entries, no row is read.
    for (let id = this.statements.firstId.get(); id !== undefined; id = this.statements.idAfter.get(id, pageSize - 1)) starts.push(id);
    return starts;
  }

  async findByModel(model: string): Promise<StoredRecord[]> {
    return this.statements.byModel.all(facetValueKey(model)).map(toStored);
  }

  async changeModelRecords(model: string, decide: (ofModel: StoredRecord[], work: WorkRecords) => RecordChanges, reading?: WorkReading): Promise<RecordChanges> {
    // BEGIN IMMEDIATE takes the database's write lock before the reading: a writer in another
    // process, of any label, waits for this commit (busy timeout) and then reads what it wrote.
    return this.db
      .transaction(() => {
        const changes = decide(this.statements.byModel.all(facetValueKey(model)).map(toStored), reading ? this.workRecords(reading) : NO_WORK_RECORDS);
        this.putRecordsNow(changes.put);
        this.retireRecordsNow(changes.retire);
        return changes;
      })
      .immediate();
  }

  private workRecords({ workKey: key, changedAfter }: WorkReading): WorkRecords {
    const changed = changedAfter === undefined ? undefined : this.statements.changes.all(changedAfter, Number.MAX_SAFE_INTEGER, CHANGES_READ_IN_WRITE + 1).map(toStored);
    return workRecordsOf(this.statements.byWorkKey.all(key).map(toStored), changed);
  }

  async findByWorkKey(key: string): Promise<StoredRecord[]> {
    return this.statements.byWorkKey.all(key).map(toStored);
  }

  async sharedWorks(limit: number): Promise<SharedWorks> {
    // One read transaction: the works and their total come from the same state of the table.
    return this.db.transaction(() => ({
      total: this.statements.countSharedWorks.get() ?? 0,
      works: limit > 0 ? this.statements.sharedWorks.all(limit).map(toSharedWork) : [],
    }))();
  }

  async latestRecords(kind: Kind, limit: number): Promise<StoredRecord[]> {
    return this.statements.latest.all(kind, limit).map(toStored);
  }

  async *streamVersions(batchSize = 1000): AsyncIterable<RecordVersion> {
    let after = '';
    for (;;) {
      const rows = this.statements.versions.all(after, batchSize);
      yield* rows;
      const last = rows.at(-1);
      if (!last || rows.length < batchSize) return;
      after = last.id;
    }
  }

  async changesSince(changeNumber: number, limit: number, upTo = Number.MAX_SAFE_INTEGER): Promise<StoredRecord[]> {
    return this.statements.changes.all(changeNumber, upTo, limit).map(toStored);
  }

  async removalsSince(changeNumber: number, limit: number, upTo = Number.MAX_SAFE_INTEGER): Promise<RecordRemoval[]> {
    return this.statements.removals.all(changeNumber, upTo, limit);
  }

  async pruneRemovals(through: number): Promise<number> {
    return this.db
      .transaction(() => {
        const lowest = this.statements.lowestCheckpoint.get() ?? through;
        return this.statements.pruneRemovals.run(Math.min(through, lowest)).changes;
      })
      .immediate();
  }

  async readCheckpoint(name: string): Promise<number> {
    return Number(this.statements.readMeta.get(`checkpoint:${name}`)?.value ?? 0);
  }

  async writeCheckpoint(name: string, changeNumber: number): Promise<void> {
    this.statements.writeMeta.run(`checkpoint:${name}`, String(changeNumber));
    this.localWrites += 1;
  }

  async readMappingVersion(checkpoint: string): Promise<number> {
    return Number(this.statements.readMeta.get(`mapping:${checkpoint}`)?.value ?? 0);
  }

  async raiseMappingVersion(checkpoint: string, version: number): Promise<void> {
    // Not under `checkpoint:`, so the lowest checkpoint (pruneRemovals) never counts it.
    this.statements.raiseMeta.run(`mapping:${checkpoint}`, String(version));
    this.localWrites += 1;
  }

  async deleteCheckpoint(name: string): Promise<void> {
    this.statements.deleteMeta.run(`checkpoint:${name}`);
    this.localWrites += 1;
  }

  /** The catalog's change number as the meta table holds it (0 before the first change). */
  private readChangeNumber(): number {
    return Number(this.statements.readMeta.get('change_number')?.value ?? 0);
  }

  /** Writes the catalog's change number, and a new mark with it (CatalogState.changeStamp); inside the write's transaction. */
  private writeChangeNumber(changeNumber: number): void {
    this.statements.writeMeta.run('change_number', String(changeNumber));
    this.statements.writeMeta.run('change_stamp', newChangeStamp());
  }

  /** The catalog state, re-read only when this or another connection has written since the last call. */
  async catalogState(): Promise<CatalogState> {
    return this.catalogStateNow();
  }

  /** Synchronous form of catalogState, cheap enough for every request. */
  catalogStateNow(): CatalogState {
    const dataVersion = this.statements.dataVersion.get()?.data_version ?? 0;
    const cached = this.cachedState;
    if (cached && cached.dataVersion === dataVersion && cached.localWrites === this.localWrites) return cached.state;
    const state: CatalogState = {
      version: CATALOG_VERSION,
      updated: this.statements.readMeta.get('catalog_updated')?.value ?? null,
      changeNumber: this.readChangeNumber(),
      changeStamp: this.statements.readMeta.get('change_stamp')?.value ?? '',
      total: this.statements.count.get()?.total ?? 0,
    };
    this.cachedState = { dataVersion, localWrites: this.localWrites, state };
    return state;
  }

  async setCatalogUpdated(date: string): Promise<void> {
    this.db
      .transaction(() => {
        const held = this.statements.readMeta.get('catalog_updated')?.value;
        if (held !== undefined && held >= date) return;
        this.statements.writeMeta.run('catalog_updated', date);
        this.writeChangeNumber(this.readChangeNumber() + 1);
      })
      .immediate();
    this.localWrites += 1;
  }

  async ping(): Promise<void> {
    this.file.check();
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
