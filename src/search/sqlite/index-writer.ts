/**
 * Writes records into the search tables: one sort key per record (date descending, then id; see
 * sort-key.ts) that is its rowid in each language's FTS5 table, and a change-log entry for every
 * key a write touches.
 */
import type { IndexRecord } from '../../domain/ports.ts';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import { SEARCH_COLUMNS, SEARCH_KEY_COLUMNS, SEARCH_TABLE } from '../../store/sqlite/schema.ts';
import type { SearchChangeLog } from './change-log.ts';
import { keyColumns, textColumnValues } from './index-row.ts';
import { dayNumber, keyBetween, spreadKeys } from './sort-key.ts';

/**
 * The records of one write, the last of each id only, in the order their sort keys ascend (date
 * descending, then id). FTS5 flushes its pending terms to a new segment whenever a row's id is
 * below the previous one's, so rows written in key order build a bulk import's index in a few
 * large segments instead of thousands of one-row ones.
 */
function inSortKeyOrder(records: readonly IndexRecord[]): IndexRecord[] {
  const lastOfEachId = [...new Map(records.map((record) => [record.id, record])).values()];
  return lastOfEachId.sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.date > b.date ? -1 : 1));
}

/** Writes the search tables; every method runs inside the caller's transaction. */
export class SearchIndexWriter {
  private readonly statements;
  private readonly table: { insert: Statement; remove: Statement; move: Statement };
  /** Writes made through this writer, so this connection's caches know to look at the change log. */
  writes = 0;

  constructor(
    db: SqliteDatabase,
    private readonly changeLog: SearchChangeLog,
  ) {
    this.statements = {
      keyOf: db.prepare<[string], { sort_key: number; day: number }>('SELECT sort_key, day FROM search_keys WHERE id = ?'),
      previousInDay: db.prepare<[number, string], { sort_key: number }>('SELECT sort_key FROM search_keys WHERE day = ? AND id < ? ORDER BY id DESC LIMIT 1'),
      nextInDay: db.prepare<[number, string], { sort_key: number }>('SELECT sort_key FROM search_keys WHERE day = ? AND id > ? ORDER BY id ASC LIMIT 1'),
      dayRows: db.prepare<[number], { sort_key: number; id: string }>('SELECT sort_key, id FROM search_keys WHERE day = ? ORDER BY id'),
      insertKey: db.prepare(`INSERT INTO search_keys (sort_key, id, day, seq, ${SEARCH_KEY_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ${SEARCH_KEY_COLUMNS.map(() => '?').join(', ')})`),
      updateKey: db.prepare(`UPDATE search_keys SET seq = ?, ${SEARCH_KEY_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE sort_key = ?`),
      moveKey: db.prepare('UPDATE search_keys SET sort_key = ? WHERE sort_key = ?'),
      deleteKey: db.prepare('DELETE FROM search_keys WHERE sort_key = ?'),
    };
    const columns = SEARCH_COLUMNS.join(', ');
    this.table = {
      insert: db.prepare(`INSERT INTO ${SEARCH_TABLE} (rowid, ${columns}) VALUES (?, ${SEARCH_COLUMNS.map(() => '?').join(', ')})`),
      remove: db.prepare(`DELETE FROM ${SEARCH_TABLE} WHERE rowid = ?`),
      move: db.prepare(`UPDATE ${SEARCH_TABLE} SET rowid = ? WHERE rowid = ?`),
    };
  }

  upsert(records: readonly IndexRecord[]): void {
    const changed: number[] = [];
    let renumbered = false;
    for (const record of inSortKeyOrder(records)) {
      const day = dayNumber(record.date);
      const existing = this.statements.keyOf.get(record.id);
      let key: number;
      if (existing && existing.day === day) {
        key = existing.sort_key;
        this.statements.updateKey.run(record.seq ?? null, ...keyColumns(record), key);
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
      this.table.insert.run(key, ...textColumnValues(record));
    }
    this.logChanges(renumbered ? undefined : changed);
  }

  remove(ids: readonly string[]): void {
    const changed: number[] = [];
    for (const id of ids) {
      const existing = this.statements.keyOf.get(id);
      if (existing) {
        this.removeKey(existing.sort_key);
        changed.push(existing.sort_key);
      }
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
  }

  /** A new sort key for a record, and whether the day's other keys had to move to make room. */
  private allocateKey(day: number, record: IndexRecord): { key: number; renumbered: boolean } {
    const { id } = record;
    const previous = this.statements.previousInDay.get(day, id)?.sort_key;
    const next = this.statements.nextInDay.get(day, id)?.sort_key;
    let key = keyBetween(day, previous, next);
    const renumbered = key === undefined;
    if (key === undefined) {
      this.renumberDay(day);
      key = keyBetween(day, this.statements.previousInDay.get(day, id)?.sort_key, this.statements.nextInDay.get(day, id)?.sort_key);
      if (key === undefined) throw new Error(`no sort key left for day ${day}`);
    }
    this.statements.insertKey.run(key, id, day, record.seq ?? null, ...keyColumns(record));
    return { key, renumbered };
  }

  /** Spreads a day's keys evenly again; rare, when repeated inserts between two neighbours used up the gap. */
  private renumberDay(day: number): void {
    const rows = this.statements.dayRows.all(day);
    const keys = spreadKeys(day, rows.length + 1);
    const move = (from: number, to: number): void => {
      // FTS5 takes a new rowid only as an SQL integer, so bind BigInts rather than doubles.
      this.statements.moveKey.run(BigInt(to), BigInt(from));
      this.table.move.run(BigInt(to), BigInt(from));
    };
    // Park every row on a negative key first so no new key collides with an old one.
    for (const row of rows) move(row.sort_key, -row.sort_key - 1);
    rows.forEach((row, i) => move(-row.sort_key - 1, keys[i] ?? 0));
  }
}
