import { accessSync, constants, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Config } from './config.ts';

type DataFolder = Pick<Config, 'dataDir' | 'databaseFile' | 'mediaDir'>;

/**
 * Throws unless the embedded archive the configuration names exists: a command pointed at a
 * mistyped or unset ARCHIVE_DATA_DIR would otherwise make a new, empty archive there and report on
 * it (no records, no submissions) or write to it (a token the server never sees). MongoDB stores
 * are not checked: their database is named, not found on disk.
 */
export function requireArchive(config: Pick<Config, 'store' | 'dataDir' | 'databaseFile'>): void {
  if (config.store.kind !== 'embedded' || existsSync(config.databaseFile)) return;
  throw new Error(`no archive database at ${config.databaseFile}; check ARCHIVE_DATA_DIR (now ${config.dataDir}). npm start creates one, npm run catalog -- import fills a new one.`);
}

/**
 * Throws when the data folder holds what an archive leaves beside its database (the database's
 * write-ahead log, stored previews) but not the database itself: the database was removed or
 * moved, and making a new one there (the demo loaded into it, an import) would bury the rest. A
 * server whose archive.sqlite was deleted under it started again this way on the demo, its 277
 * records, submissions and tokens gone without a word.
 */
export function refuseFolderWithoutItsDatabase(config: Pick<Config, 'store' | 'dataDir' | 'databaseFile' | 'mediaDir'>): void {
  if (config.store.kind !== 'embedded' || existsSync(config.databaseFile)) return;
  const name = basename(config.databaseFile);
  const left = [...(existsSync(`${config.databaseFile}-wal`) ? [`${name}-wal`] : []), ...(holdsEntries(config.mediaDir) ? [`stored media (${config.mediaDir})`] : [])];
  if (left.length === 0) return;
  throw new Error(`ARCHIVE_DATA_DIR=${config.dataDir} holds ${left.join(' and ')} but no ${name}: the archive's database was removed or moved. Put it back, or restore a backup (docs/operations.md); to start a new archive there, empty the folder first.`);
}

/** Whether a folder exists and holds anything. */
function holdsEntries(folder: string): boolean {
  try {
    return readdirSync(folder).length > 0;
  } catch {
    return false;
  }
}

/**
 * Creates the data folder (ARCHIVE_DATA_DIR) when missing and checks that this process may write
 * it and what it holds, so a path that is a file or a read-only folder stops the start with a
 * message naming the variable, not an error from inside SQLite.
 */
export function ensureWritableDataFolder(folder: DataFolder): void {
  try {
    makeFolder(folder.dataDir);
  } catch (error) {
    throw new Error(cannotCreate(folder.dataDir, error), { cause: error });
  }
  for (const path of [folder.dataDir, folder.databaseFile, folder.mediaDir]) {
    if (!existsSync(path)) continue;
    try {
      accessSync(path, constants.W_OK);
    } catch (error) {
      throw new Error(notWritable(path, folder.dataDir, codeOf(error)), { cause: error });
    }
  }
}

/**
 * Creates a folder and the folders above it that are missing. Node's own `recursive: true` loops
 * for ever, in one synchronous call that not even SIGTERM interrupts, where a parent exists but
 * refuses a new entry with ENOENT (anything under /proc); this gives that error back instead. A
 * file in the way is EEXIST.
 */
export function makeFolder(path: string): void {
  const parent = dirname(path);
  if (parent !== path && !existsSync(parent)) makeFolder(parent);
  try {
    mkdirSync(path);
  } catch (error) {
    if (codeOf(error) === 'EEXIST' && statSync(path).isDirectory()) return;
    throw error;
  }
}

/**
 * The error to report for one thrown while opening the database: SQLite's "cannot open" and
 * "read-only" errors name the file and the variable, and its "full" and I/O errors say the disk
 * may be full (a start on a full disk said only "disk I/O error": SQLite could not size its
 * shared-memory file, SQLITE_IOERR_SHMSIZE); any other is returned as it is.
 */
export function dataFolderError(error: unknown, folder: DataFolder): unknown {
  const code = codeOf(error);
  if (code.startsWith('SQLITE_FULL') || code.startsWith('SQLITE_IOERR')) return new Error(diskFull(folder.databaseFile, folder.dataDir, code), { cause: error });
  if (!code.startsWith('SQLITE_READONLY') && !code.startsWith('SQLITE_CANTOPEN')) return error;
  return new Error(notWritable(folder.databaseFile, folder.dataDir, code), { cause: error });
}

function diskFull(path: string, dataDir: string, code: string): string {
  return `${path} in ARCHIVE_DATA_DIR=${dataDir} cannot be opened or written (${code}): its disk is probably full, or failing. Free space on that disk (df ${dataDir}), then start again.`;
}

function cannotCreate(dataDir: string, error: unknown): string {
  const code = codeOf(error);
  if (code === 'EEXIST' || code === 'ENOTDIR') return `ARCHIVE_DATA_DIR=${dataDir} is not a folder (a file is in the way): set ARCHIVE_DATA_DIR to a folder, or to a path where one can be created.`;
  return `ARCHIVE_DATA_DIR=${dataDir} cannot be created (${code}): create it and let the user running the archive write to it, or set ARCHIVE_DATA_DIR to another folder.`;
}

function notWritable(path: string, dataDir: string, code: string): string {
  const where = path === dataDir ? `ARCHIVE_DATA_DIR=${dataDir}` : `${path} in ARCHIVE_DATA_DIR=${dataDir}`;
  return `${where} cannot be written (${code}): let the user running the archive write to the folder and its files, or set ARCHIVE_DATA_DIR to a writable folder.`;
}

function codeOf(error: unknown): string {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return typeof code === 'string' ? code : 'unknown error';
}
