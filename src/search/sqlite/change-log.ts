/**
 * The search change log (table `search_changes`): every write to the search tables logs the sort
 * keys it touched, so each process can bring its row sets and vocabularies up to date by reading
 * the keys logged since it last looked, instead of dropping them.
 */
import type { SqliteDatabase } from '../../store/sqlite/database.ts';

/** A write of more rows than this logs "everything may have changed" rather than each key. */
const LOGGED_KEYS_PER_WRITE = 256;
/** Changes the log keeps; a process further behind rebuilds its row sets. */
const CHANGE_LOG_KEPT = 16384;

export class SearchChangeLog {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = {
      logChange: db.prepare<[number | null]>('INSERT INTO search_changes (sort_key) VALUES (?)'),
      pruneChanges: db.prepare<[number]>('DELETE FROM search_changes WHERE seq <= ?'),
      lastChange: db.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM search_changes').pluck(),
      changesAfter: db.prepare<[number, number], { seq: number; sort_key: number | null }>('SELECT seq, sort_key FROM search_changes WHERE seq > ? ORDER BY seq LIMIT ?'),
    };
  }

  /** Logs the sort keys a write touched (undefined: any key may have changed); in the write's transaction. */
  log(keys: readonly number[] | undefined): void {
    if (keys?.length === 0) return;
    const logged = keys === undefined || keys.length > LOGGED_KEYS_PER_WRITE ? [null] : keys;
    let seq = 0;
    for (const key of logged) seq = Number(this.statements.logChange.run(key).lastInsertRowid);
    if (seq % 1024 < logged.length) this.statements.pruneChanges.run(seq - CHANGE_LOG_KEPT);
  }

  /** The position of the last logged change. */
  last(): number {
    return this.statements.lastChange.get() ?? 0;
  }

  /**
   * The sort keys the changes after `seen` up to `last` touched; undefined when any key may have
   * changed (nothing seen yet, a bulk write, more than `most` changes, or a log pruned past `seen`).
   */
  keysBetween(seen: number, last: number, most: number): number[] | undefined {
    const pending = last - seen;
    if (seen < 0 || pending <= 0 || pending > most) return undefined;
    const changes = this.statements.changesAfter.all(seen, pending);
    // The log is contiguous unless pruned past what this process saw.
    if (changes.length !== pending || changes[0]?.seq !== seen + 1) return undefined;
    const keys = new Set<number>();
    for (const change of changes) {
      if (change.sort_key === null) return undefined;
      keys.add(change.sort_key);
    }
    return [...keys];
  }
}
