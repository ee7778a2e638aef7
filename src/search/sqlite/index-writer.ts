/**
 * Writes records into the search tables: one sort key per record (date descending, then id; see
 * sort-key.ts) that is its rowid in the FTS5 table, and a change-log entry for every key a write
 * touches. The FTS5 table keeps no copy of the texts: a row that moves to another key is written
 * again from its record (`records.doc`, written in the same transaction by the store).
 */
import type { IndexRecord } from '../../domain/ports.ts';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import { docOfIdSql, SEARCH_COLUMNS, SEARCH_KEY_COLUMNS, SEARCH_TABLE } from '../../store/sqlite/schema.ts';
import type { SearchChangeLog } from './change-log.ts';
import { indexRow, textColumnsOfDoc } from './index-row.ts';
import type { IndexRow } from './index-row.ts';
import { dayNumber, dayOfKey, keyBetween, spreadKeys } from './sort-key.ts';

/**
 * The records of one write, the last of each id only, in the order their sort keys ascend (date
 * descending, then id). FTS5 flushes its pending terms to a new segment whenever a row's id is
 * below the previous one's, so rows written in key order build a bulk import's index in a few
 * large segments instead of thousands of one-row ones.
 */
function inSortKeyOrder(records: readonly IndexRow[]): IndexRow[] {
  const lastOfEachId = [...new Map(records.map((record) => [record.id, record])).values()];
  return lastOfEachId.sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.date > b.date ? -1 : 1));
}

/**
 * One day's sort keys in id order, as read at the start of a write and added to as it allocates.
 * Rows come in key order, so a bulk write adds at the end and a day is read once per write.
 */
class DayKeys {
  private readonly ids: string[];
  private readonly keys: number[];

  constructor(
    readonly day: number,
    rows: readonly { sort_key: number; id: string }[],
  ) {
    this.ids = rows.map((row) => row.id);
    this.keys = rows.map((row) => row.sort_key);
  }

  /** The keys of the ids just before and after `id` (ids are ASCII, so JavaScript orders them as SQLite does). */
  neighbours(id: string): { previous: number | undefined; next: number | undefined } {
    const at = this.position(id);
    return { previous: this.keys[at - 1], next: this.keys[at] };
  }

  add(id: string, key: number): void {
    const at = this.position(id);
    this.ids.splice(at, 0, id);
    this.keys.splice(at, 0, key);
  }

  /** Where `id` goes: the number of ids below it. */
  private position(id: string): number {
    const last = this.ids.length - 1;
    if (last < 0 || (this.ids[last] as string) < id) return last + 1;
    let low = 0;
    let high = last;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.ids[middle] as string) < id) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Writes the search tables; every method runs inside the caller's transaction. */
export class SearchIndexWriter {
  private readonly statements;
  private readonly table: { insert: Statement; remove: Statement; optimize: Statement };
  /** Writes made through this writer, so this connection's caches know to look at the change log. */
  writes = 0;
  /** The keys of the day the current write is allocating in (rows come day by day, in key order). */
  private day: DayKeys | undefined;

  constructor(
    db: SqliteDatabase,
    private readonly changeLog: SearchChangeLog,
  ) {
    this.statements = {
      keyOf: db.prepare<[string], { sort_key: number; day: number }>('SELECT sort_key, day FROM search_keys WHERE id = ?'),
      dayRows: db.prepare<[number], { sort_key: number; id: string }>('SELECT sort_key, id FROM search_keys WHERE day = ? ORDER BY id'),
      insertKey: db.prepare(`INSERT INTO search_keys (sort_key, id, day, seq, ${SEARCH_KEY_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ${SEARCH_KEY_COLUMNS.map(() => '?').join(', ')})`),
      updateKey: db.prepare(`UPDATE search_keys SET seq = ?, ${SEARCH_KEY_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE sort_key = ?`),
      moveKey: db.prepare('UPDATE search_keys SET sort_key = ? WHERE sort_key = ?'),
      deleteKey: db.prepare('DELETE FROM search_keys WHERE sort_key = ?'),
      docOf: db.prepare<[{ id: string }], string | null>(docOfIdSql('@id')).pluck(),
      keepDoc: db.prepare('INSERT INTO search_docs (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc'),
      forgetDoc: db.prepare('DELETE FROM search_docs WHERE id = ?'),
      anyDoc: db.prepare<[], number>('SELECT EXISTS (SELECT 1 FROM search_docs)').pluck(),
    };
    const columns = SEARCH_COLUMNS.join(', ');
    this.table = {
      insert: db.prepare(`INSERT INTO ${SEARCH_TABLE} (rowid, ${columns}) VALUES (?, ${SEARCH_COLUMNS.map(() => '?').join(', ')})`),
      remove: db.prepare(`DELETE FROM ${SEARCH_TABLE} WHERE rowid = ?`),
      optimize: db.prepare(`INSERT INTO ${SEARCH_TABLE} (${SEARCH_TABLE}) VALUES ('optimize')`),
    };
  }

  /**
   * Writes records given to the index alone (the SearchIndex port), not by the store: with no
   * record in `records` to make their texts from again, the index keeps their JSON (`search_docs`).
   */
  upsert(records: readonly IndexRecord[]): void {
    for (const record of new Map(records.map((record) => [record.id, record])).values()) {
      const { seq: _seq, ...canonical } = record;
      this.statements.keepDoc.run(record.id, JSON.stringify(canonical));
    }
    this.write(records.map((record) => indexRow(record, record.seq)));
  }

  /** Writes the rows of records the store writes in the same transaction (see IndexRow). */
  upsertRows(rows: readonly IndexRow[]): void {
    // The store's record is now what a row is made from; a kept copy (see upsert) would be stale.
    if (this.statements.anyDoc.get() === 1) for (const row of rows) this.statements.forgetDoc.run(row.id);
    this.write(rows);
  }

  private write(rows: readonly IndexRow[]): void {
    const changed: number[] = [];
    let renumbered = false;
    this.day = undefined;
    for (const record of inSortKeyOrder(rows)) {
      const day = dayNumber(record.date);
      const existing = this.statements.keyOf.get(record.id);
      let key: number;
      if (existing && existing.day === day) {
        key = existing.sort_key;
        this.statements.updateKey.run(record.seq ?? null, ...record.keys, key);
        this.table.remove.run(key);
      } else {
        if (existing) {
          this.removeKey(existing.sort_key);
          changed.push(existing.sort_key);
        }
        const allocated = this.allocateKey(day, record);
        key = allocated.key;
        renumbered ||= allocated.renumbered;
      }
      changed.push(key);
      this.table.insert.run(key, ...record.text);
    }
    this.logChanges(renumbered ? undefined : changed);
  }

  /**
   * Merges the search table's segments into one (FTS5 `optimize`), after a bulk write. FTS5 writes
   * each flush of its pending terms as a new segment and merges them only a few at a time, so a
   * large import leaves a term's rows spread over many segments, each read and merged at every
   * query: at a million records a word's rows read 30 % faster and a phrase's twice as fast from
   * one segment. Costs a rewrite of the whole index (about 1 s per 100,000 records); the rows do
   * not change, so no cache is told.
   */
  mergeSegments(): void {
    this.table.optimize.run();
  }

  remove(ids: readonly string[]): void {
    const changed: number[] = [];
    for (const id of ids) {
      const existing = this.statements.keyOf.get(id);
      if (existing) {
        this.removeKey(existing.sort_key);
        changed.push(existing.sort_key);
      }
      this.statements.forgetDoc.run(id);
    }
    this.logChanges(changed);
  }

  /** Logs the sort keys a write touched (undefined: any key may have changed), for every process's row sets. */
  private logChanges(keys: readonly number[] | undefined): void {
    this.writes += 1;
    this.changeLog.log(keys);
  }

  private removeKey(key: number): void {
    this.statements.deleteKey.run(key);
    this.table.remove.run(key);
    if (this.day?.day === dayOfKey(key)) this.day = undefined;
  }

  /**
   * A new sort key for a record, and whether the day's other keys had to move to make room. Its
   * neighbours are the day's ids just before and after it, which the day's keys (read once per
   * day and write, see DayKeys) give without a query per record.
   */
  private allocateKey(day: number, record: IndexRow): { key: number; renumbered: boolean } {
    const { id } = record;
    if (this.day?.day !== day) this.day = new DayKeys(day, this.statements.dayRows.all(day));
    let { previous, next } = this.day.neighbours(id);
    let key = keyBetween(day, previous, next);
    const renumbered = key === undefined;
    if (key === undefined) {
      this.renumberDay(day);
      this.day = new DayKeys(day, this.statements.dayRows.all(day));
      ({ previous, next } = this.day.neighbours(id));
      key = keyBetween(day, previous, next);
      if (key === undefined) throw new Error(`no sort key left for day ${day}`);
    }
    this.statements.insertKey.run(key, id, day, record.seq ?? null, ...record.keys);
    this.day.add(id, key);
    return { key, renumbered };
  }

  /**
   * Spreads a day's keys evenly again; rare, when repeated inserts between two neighbours used up
   * the gap. Each row's FTS5 entry is deleted and written again under its new key from its record.
   */
  private renumberDay(day: number): void {
    const rows = this.statements.dayRows.all(day);
    const keys = spreadKeys(day, rows.length + 1);
    const texts = rows.map((row) => {
      const doc = this.statements.docOf.get({ id: row.id });
      if (typeof doc !== 'string') throw new Error(`search index: no record ${row.id} to index again under a new sort key`);
      return textColumnsOfDoc(doc);
    });
    // FTS5 takes a new rowid only as an SQL integer, so keys are bound as BigInts rather than doubles.
    for (const row of rows) this.table.remove.run(BigInt(row.sort_key));
    // Park every key on a negative one first so no new key collides with an old one.
    for (const row of rows) this.statements.moveKey.run(BigInt(-row.sort_key - 1), BigInt(row.sort_key));
    rows.forEach((row, i) => {
      const key = BigInt(keys[i] ?? 0);
      this.statements.moveKey.run(key, BigInt(-row.sort_key - 1));
      this.table.insert.run(key, ...(texts[i] as string[]));
    });
  }
}
