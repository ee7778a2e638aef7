import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { makeFolder } from '../../data-folder.ts';

export type SqliteDatabase = Database.Database;

/**
 * Opens the archive database file with the settings every connection needs: WAL (readers never
 * wait for the writer), synchronous=FULL (a committed write survives power loss), a busy timeout
 * so concurrent processes queue instead of failing.
 */
export function openDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') makeFolder(dirname(file));
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -65536');
  db.pragma('temp_store = MEMORY');
  return db;
}
