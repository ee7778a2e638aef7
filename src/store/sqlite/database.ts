import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type SqliteDatabase = Database.Database;

/** One schema step of a component; applied once, in order, inside a transaction. */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/**
 * Opens the archive database file with the settings every connection needs: WAL (readers never
 * wait for the writer), synchronous=FULL (a committed write survives power loss), a busy timeout
 * so concurrent processes queue instead of failing.
 */
export function openDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -65536');
  db.pragma('temp_store = MEMORY');
  return db;
}

/** Applies the component's migrations that this database has not seen yet. */
export function migrate(db: SqliteDatabase, component: string, migrations: readonly Migration[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (component TEXT NOT NULL, version INTEGER NOT NULL, description TEXT NOT NULL, applied_at TEXT NOT NULL, PRIMARY KEY (component, version))');
  const applied = db.prepare('SELECT coalesce(max(version), 0) AS version FROM schema_migrations WHERE component = ?');
  const record = db.prepare('INSERT INTO schema_migrations (component, version, description, applied_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    const current = (applied.get(component) as { version: number }).version;
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      record.run(component, migration.version, migration.description, new Date().toISOString());
    }
  }).immediate();
}
