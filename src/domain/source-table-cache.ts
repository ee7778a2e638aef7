import type { RecordStore, SourceStore } from './ports.ts';
import { BUILT_IN_SOURCE_TABLE, SourceTable } from './sources.ts';

/**
 * The source table for the read side, the one truth of which source keys the filters take and
 * which labels every face shows. A change of the table takes a catalog change number (see
 * SourceStore), so the table is read again when a request sees a change number other than the one
 * it was last read at: a source added with `npm run sources` (from any process) is known to the
 * next request, and between changes no request reads it.
 */
export class SourceTableCache {
  /** The built-in table until the first read succeeds. */
  private table: SourceTable = BUILT_IN_SOURCE_TABLE;
  /** The change number the table was last read at; undefined before the first read. */
  private readAt: number | undefined;
  private reading: { at: number; done: Promise<void> } | undefined;

  constructor(
    private readonly sources: SourceStore,
    private readonly store: Pick<RecordStore, 'catalogState'>,
  ) {}

  /**
   * The table as it is at the catalog's change number `changeNumber` (read from the store when
   * the caller does not know it). A failed read keeps the table read last (the built-in one at
   * first): labels and filter values stay as they were, and the next request tries again.
   */
  async current(changeNumber?: number): Promise<SourceTable> {
    const at = changeNumber ?? (await this.store.catalogState()).changeNumber;
    if (at !== this.readAt) await this.read(at);
    return this.table;
  }

  private async read(at: number): Promise<void> {
    // Requests that arrive while a read for the same change number runs wait for that one.
    if (this.reading?.at !== at) {
      const done = this.readTable(at).finally(() => {
        if (this.reading?.done === done) this.reading = undefined;
      });
      this.reading = { at, done };
    }
    await this.reading?.done;
  }

  private async readTable(at: number): Promise<void> {
    try {
      const table = new SourceTable(await this.sources.listSources());
      // A read for a later change number may have finished first; it is kept.
      if (this.readAt === undefined || at >= this.readAt) {
        this.table = table;
        this.readAt = at;
      }
    } catch {
      // The store is unreachable: the last table stays; the next request tries again.
    }
  }
}
