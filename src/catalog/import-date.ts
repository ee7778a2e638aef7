/** The compilation date of the records a catalog import writes. */
import type { RecordStore } from '../domain/ports.ts';
import { compilationDay } from '../domain/record.ts';

/**
 * The earliest compilation date an import may give the records it writes. None into a new archive
 * (never compiled: no catalog date): a first load or a restore keeps the file's date, and so the
 * records as they were. Into an archive compiled before, the day of the import: a client that
 * synced on an earlier day asks for what was compiled since (`since`), and a record an import
 * changed today must be among it, whatever date the file was written with.
 */
export async function importDateFloor(store: RecordStore, now: Date): Promise<string | undefined> {
  return (await store.catalogState()).updated === null ? undefined : compilationDay(now);
}

/** A date, or the floor when the date is earlier (importDateFloor). */
export function notEarlierThan(date: string, floor: string | undefined): string {
  return floor !== undefined && floor > date ? floor : date;
}
