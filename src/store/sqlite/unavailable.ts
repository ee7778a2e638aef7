import { StoreFileGone } from '../../domain/ports.ts';

/**
 * SQLite result codes that mean the storage cannot take the work now rather than a fault of the
 * code: better-sqlite3 puts the extended code on the error (SQLITE_IOERR_WRITE, SQLITE_BUSY_SNAPSHOT …),
 * so each family is matched by its prefix.
 *
 * - SQLITE_BUSY, SQLITE_LOCKED: another writer held the file past the busy timeout;
 * - SQLITE_FULL: the disk (or the file's page limit) is full;
 * - SQLITE_IOERR: the operating system failed a read, write or sync (a disk error, a full disk on some paths);
 * - SQLITE_READONLY: the file or its folder cannot be written (permissions, a read-only mount);
 * - SQLITE_CANTOPEN: the WAL, shared-memory or a temporary file cannot be opened (permissions, no file descriptors left).
 *
 * Everything else is a bug or needs a person and answers 500: SQLITE_CONSTRAINT, SQLITE_ERROR,
 * SQLITE_MISUSE, SQLITE_RANGE, and SQLITE_CORRUPT and SQLITE_NOTADB (waiting does not mend a damaged file).
 */
const CONTENTION = ['SQLITE_BUSY', 'SQLITE_LOCKED'] as const;
const WRITES_REFUSED = ['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_READONLY', 'SQLITE_CANTOPEN'] as const;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function inFamily(code: string | undefined, families: readonly string[]): boolean {
  return code !== undefined && families.some((family) => code === family || code.startsWith(`${family}_`));
}

/** Whether an error means the storage refuses writes for now: a full disk, an I/O error, a file or folder that cannot be written. */
export function isSqliteWriteRefusal(error: unknown): boolean {
  return inFamily(codeOf(error), WRITES_REFUSED);
}

/** Whether an error means the SQLite file cannot serve now (answered 503, tried again later): locked past the busy timeout, refusing writes, or gone from its path (StoreFileGone). */
export function isSqliteUnavailable(error: unknown): boolean {
  return inFamily(codeOf(error), CONTENTION) || isSqliteWriteRefusal(error) || error instanceof StoreFileGone;
}
