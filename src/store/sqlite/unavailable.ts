/** Whether an error means the SQLite file stayed locked by another writer past the busy timeout. */
export function isSqliteUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}
