import type { SourceStore } from './ports.ts';
import { BUILT_IN_SOURCE_TABLE, SourceTable } from './sources.ts';

/** How long the read side uses a source table before reading it from the store again. */
export const SOURCE_TABLE_MAX_AGE_MS = 30_000;

/**
 * The source table for the read side (labels of sources added with `npm run sources`): read from
 * the store once, then again in the background whenever it is older than 30 seconds.
 */
export class SourceTableCache {
  /** The built-in table until the first read succeeds. */
  private table: SourceTable = BUILT_IN_SOURCE_TABLE;
  private readAt = -Infinity;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly store: SourceStore,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The table as last read (waiting for the first read); starts a new read when it is older than SOURCE_TABLE_MAX_AGE_MS. */
  async current(): Promise<SourceTable> {
    if (this.readAt === -Infinity) await this.refresh();
    else if (this.clock() - this.readAt > SOURCE_TABLE_MAX_AGE_MS && !this.reading) void this.refresh();
    return this.table;
  }

  /** Reads the table now (a failed read keeps the last one). */
  async refresh(): Promise<void> {
    this.reading ??= (async () => {
      try {
        this.table = new SourceTable(await this.store.listSources());
        this.readAt = this.clock();
      } catch {
        // The store is unreachable: labels stay as they were; the next request tries again.
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
