import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './database.ts';

/** Values bound to one IN list; longer lists are read in chunks of this many. */
const CHUNK = 64;

/**
 * Reads rows for a list of keys with one statement per chunk (`… IN (?, ?, …)`) instead of one per
 * key: a page of results costs one statement instead of twenty. `sql` holds `(?)` where the list goes.
 */
export class InListReader<Row> {
  private readonly statements = new Map<number, Statement<unknown[], Row>>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly sql: string,
  ) {}

  all(keys: readonly (string | number | bigint)[]): Row[] {
    const rows: Row[] = [];
    for (let start = 0; start < keys.length; start += CHUNK) {
      const chunk = keys.slice(start, start + CHUNK);
      let statement = this.statements.get(chunk.length);
      if (!statement) {
        statement = this.db.prepare<unknown[], Row>(this.sql.replace('(?)', `(${chunk.map(() => '?').join(', ')})`));
        this.statements.set(chunk.length, statement);
      }
      for (const row of statement.all(...chunk)) rows.push(row);
    }
    return rows;
  }
}
