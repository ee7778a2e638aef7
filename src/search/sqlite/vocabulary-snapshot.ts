/**
 * The search table's vocabulary (each term and the number of rows holding it) kept in the database
 * as of a position of the search change log (table `search_vocabulary`). FTS5 counts a term's rows
 * only by reading its whole index (`fts5vocab`): at a million records that takes 6 s, once in each
 * process that starts. A process that finds a copy taken at the change log's current position
 * reads that instead (20 ms); one taken at any other position is not used, since a term a write
 * added since would look absent and searches for it would skip its rows.
 */
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import { SEARCH_TABLE } from '../../store/sqlite/schema.ts';
import type { SearchChangeLog } from './change-log.ts';

/** A term of the search table and the number of rows holding it, as `fts5vocab` names them. */
export interface VocabularyRow {
  term: string;
  doc: number;
}

/** A vocabulary as FTS5 counted it at a change-log position, in the form the copy holds: two JSON arrays, as SQLite made them. */
export interface VocabularyScan {
  atChange: number;
  terms: string;
  counts: string;
}

/** The vocabulary as read, and the change-log position it was read at. */
export interface VocabularyRead {
  rows: VocabularyRow[];
  atChange: number;
  /** When it was read from FTS5 rather than from the copy: what keep would write. */
  scan?: VocabularyScan;
}

export class VocabularySnapshot {
  private readonly statements: {
    copy: Statement<[number], [string, string]>;
    scan: Statement<[], [string, string]>;
    keep: Statement<[number, string, string]>;
  };

  constructor(
    private readonly db: SqliteDatabase,
    private readonly changeLog: SearchChangeLog,
  ) {
    this.statements = {
      copy: db.prepare<[number], [string, string]>('SELECT terms, rows FROM search_vocabulary WHERE at_change = ?').raw(),
      // Two JSON arrays: one value for SQLite to hand over instead of 91,000 rows (at a million records).
      scan: db.prepare<[], [string, string]>(`SELECT json_group_array(term), json_group_array(doc) FROM ${SEARCH_TABLE}_vocab`).raw(),
      keep: db.prepare<[number, string, string]>('INSERT INTO search_vocabulary (slot, at_change, terms, rows) VALUES (1, ?, ?, ?) ON CONFLICT (slot) DO UPDATE SET at_change = excluded.at_change, terms = excluded.terms, rows = excluded.rows'),
    };
  }

  /**
   * The vocabulary as of now: the copy when it was taken at the change log's current position,
   * else read from FTS5. The position is read first, so a write committed during the read can
   * only make the position look older than what was read, never newer.
   */
  read(): VocabularyRead {
    const atChange = this.changeLog.last();
    const copy = this.statements.copy.get(atChange);
    const [terms, counts] = copy ?? (this.statements.scan.get() as [string, string]);
    const docs = JSON.parse(counts) as number[];
    const rows = (JSON.parse(terms) as string[]).map((term, i) => ({ term, doc: docs[i] as number }));
    return { rows, atChange, ...(copy ? {} : { scan: { atChange, terms, counts } }) };
  }

  /**
   * Keeps a vocabulary read from FTS5 as the copy, its JSON as SQLite made it, unless the search
   * tables changed since it was read (it would then describe rows that are no more), or when
   * called inside a transaction. It takes the write lock for the moment of one row's write, and
   * not at all when a write came since.
   * Returns whether it was kept: a database that refuses the write (busy past the timeout, full,
   * read-only) leaves the next start to read FTS5 again, and nothing else changes.
   */
  keep(scan: VocabularyScan): boolean {
    // Inside a transaction the write would hold the write lock until that transaction ends.
    if (this.db.inTransaction || this.changeLog.last() !== scan.atChange) return false;
    try {
      return this.db
        .transaction(() => {
          if (this.changeLog.last() !== scan.atChange) return false;
          this.statements.keep.run(scan.atChange, scan.terms, scan.counts);
          return true;
        })
        .immediate();
    } catch (error) {
      if (error instanceof Database.SqliteError) return false;
      throw error;
    }
  }
}
