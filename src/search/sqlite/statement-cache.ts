import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';

/** Prepared statements by their SQL, for queries whose text varies (the table of a language, a sort direction). */
export class StatementCache {
  private readonly prepared = new Map<string, Statement>();

  constructor(private readonly db: SqliteDatabase) {}

  get(sql: string): Statement {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (this.prepared.size > 200) this.prepared.clear();
      this.prepared.set(sql, statement);
    }
    return statement;
  }
}
