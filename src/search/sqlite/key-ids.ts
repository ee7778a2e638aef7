import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import { InListReader } from '../../store/sqlite/in-list.ts';

/** The record ids of sort keys, a page at a time. */
export class KeyIds {
  private readonly reader: InListReader<{ sort_key: number; id: string }>;

  constructor(db: SqliteDatabase) {
    this.reader = new InListReader(db, 'SELECT sort_key, id FROM search_keys WHERE sort_key IN (?)');
  }

  /** The id of each key, in the keys' order ('' for a key that is gone). */
  idsOf(keys: readonly number[]): string[] {
    if (keys.length === 0) return [];
    // Bound as SQL integers: a list of doubles makes SQLite compare every value as REAL, twice as slow.
    const byKey = new Map(this.reader.all(keys.map(BigInt)).map((row) => [row.sort_key, row.id]));
    return keys.map((key) => byKey.get(key) ?? '');
  }
}
