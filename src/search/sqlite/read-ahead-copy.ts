/**
 * The sets read ahead (read-ahead.ts) kept in the database (table `search_read_ahead`), each as
 * of a position of the search change log, for the processes that start next and for the other
 * workers starting beside this one. Reading a dense term's rows from FTS5 costs 10-30 ms at a
 * million records, and there are about 1,400 such sets, in every process at every start; a copy
 * is read back in a fraction of that.
 *
 * A set is made of row ordinals, which mean rows only in the universe they were counted in: the
 * one built from the search keys at that position (the same in every process that builds it
 * there). So only a process whose universe was built at the position and has followed no change
 * since (SearchCaches.pristineUniversePosition) reads the copy or adds to it; a write to the
 * search tables moves the position on and leaves the copy unused until a process built at the
 * new position replaces it. The arrays are kept in little-endian order, the machine's own; a
 * big-endian machine neither reads nor writes the copy.
 */
import Database from 'better-sqlite3';
import { endianness } from 'node:os';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import type { SearchChangeLog } from './change-log.ts';
import { RowSet } from './row-set.ts';

/** A set read ahead and the key it is kept under in the row-set cache. */
export interface KeyedRowSet {
  key: string;
  set: RowSet;
}

/** A set's key in the copy, and its place in the order sets were added (to look only at those added since). */
export interface CopiedKey {
  seq: number;
  key: string;
}

/** Whether this machine keeps 32-bit words in the copy's byte order. */
const LITTLE_ENDIAN = endianness() === 'LE';

type CopyRow = [form: string, count: number, members: Buffer];

/** The words of a blob, in memory of their own (a blob's bytes need not lie on a 4-byte boundary). */
function wordsOf(blob: Buffer): Uint32Array {
  const words = new Uint32Array(blob.byteLength >>> 2);
  new Uint8Array(words.buffer).set(blob.subarray(0, words.byteLength));
  return words;
}

export class ReadAheadCopy {
  private readonly statements: {
    keysSince: Statement<[number, number], [number, string]>;
    set: Statement<[number], CopyRow>;
    insert: Statement<[string, number, string, number, Buffer]>;
    dropOthers: Statement<[number]>;
  };

  constructor(
    private readonly db: SqliteDatabase,
    private readonly changeLog: SearchChangeLog,
  ) {
    this.statements = {
      keysSince: db.prepare<[number, number], [number, string]>('SELECT seq, key FROM search_read_ahead WHERE seq > ? AND at_change = ? ORDER BY seq').raw(),
      set: db.prepare<[number], CopyRow>('SELECT form, count, members FROM search_read_ahead WHERE seq = ?').raw(),
      insert: db.prepare<[string, number, string, number, Buffer]>('INSERT INTO search_read_ahead (key, at_change, form, count, members) VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING'),
      dropOthers: db.prepare<[number]>('DELETE FROM search_read_ahead WHERE at_change <> ?'),
    };
  }

  /** The keys of the sets copied at position atChange after seq (0: all of them), in the order they were added. */
  keysSince(seq: number, atChange: number): CopiedKey[] {
    if (!LITTLE_ENDIAN) return [];
    return this.statements.keysSince.all(seq, atChange).map(([rowSeq, key]) => ({ seq: rowSeq, key }));
  }

  /**
   * The set copied under seq, for a universe of `size` ordinals; undefined when it is gone or does
   * not fit that universe (a bitset longer than its words, a member past its last ordinal).
   */
  set(seq: number, size: number): RowSet | undefined {
    const row = this.statements.set.get(seq);
    if (!row) return undefined;
    const [form, count, members] = row;
    if (form !== 'bits' && form !== 'list') return undefined;
    const array = wordsOf(members);
    const fits = form === 'bits' ? array.length <= Math.ceil(size / 32) : array.length === count && (count === 0 || (array[count - 1] as number) < size);
    if (!fits) return undefined;
    return RowSet.restored({ form, array, count });
  }

  /**
   * Adds sets read at position atChange to the copy, after dropping any copied at another
   * position, unless the search tables changed since (the sets would be of rows that are no more),
   * or when called inside a transaction (the write lock would be held until it ends). A set
   * already copied is left as it is. Returns whether they were kept: a database that refuses the
   * write (busy past the timeout, full, read-only) leaves them to be read from FTS5 again.
   */
  keep(atChange: number, sets: readonly KeyedRowSet[]): boolean {
    if (sets.length === 0) return true;
    if (!LITTLE_ENDIAN || this.db.inTransaction || this.changeLog.last() !== atChange) return false;
    try {
      return this.db
        .transaction(() => {
          if (this.changeLog.last() !== atChange) return false;
          this.statements.dropOthers.run(atChange);
          for (const { key, set } of sets) {
            const { form, array, count } = set.stored();
            this.statements.insert.run(key, atChange, form, count, Buffer.from(array.buffer, array.byteOffset, array.byteLength));
          }
          return true;
        })
        .immediate();
    } catch (error) {
      if (error instanceof Database.SqliteError) return false;
      throw error;
    }
  }
}
