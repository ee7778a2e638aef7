/**
 * The embedded search index: an FTS5 table in the store's own database file. This class wires the
 * parts together; each has one job:
 * - index-writer.ts writes records into the search tables, change-log.ts logs which rows changed;
 * - search-caches.ts keeps row sets, vocabularies and counts, current through the change log;
 * - query-plan.ts reads a query (text, filters, dates, cursor), term-expansion.ts turns its terms
 *   into alternatives (prefixes, typos) tier by tier;
 * - row-set-planner.ts answers from cached row sets, fts-planner.ts by counting with FTS5, both
 *   paging relevance through relevance-walk.ts and counting facets with facet-counts.ts;
 * - read-ahead.ts reads the densest terms' sets at start and in the background after, and
 *   read-ahead-copy.ts keeps them in the database for the processes that start next or beside it.
 */
import type { IndexRecord, RecordVersion, SearchIndex } from '../../domain/ports.ts';
import type { Lang } from '../../domain/record.ts';
import type { FacetName, SearchHits, SearchQuery } from '../../domain/search-query.ts';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import type { SameTransactionIndex } from '../../store/sqlite/sqlite-store.ts';
import { SearchChangeLog } from './change-log.ts';
import { FacetLabels, RowFacetColumns } from './facet-counts.ts';
import { FtsPlanner } from './fts-planner.ts';
import { SearchIndexWriter } from './index-writer.ts';
import type { IndexRow } from './index-row.ts';
import { planSearch } from './query-plan.ts';
import { ALONE, ReadAhead } from './read-ahead.ts';
import type { ReaderStripe } from './read-ahead.ts';
import { RowSetPlanner } from './row-set-planner.ts';
import { SearchCaches } from './search-caches.ts';
import type { RowSetMode } from './search-caches.ts';
import { StatementCache } from './statement-cache.ts';
import { TermExpansion } from './term-expansion.ts';
import { dateOfKey } from './sort-key.ts';

export type { RowSetMode } from './search-caches.ts';

/**
 * How long a starting process reads sets ahead before it reports ready: at a million records about
 * 160 of the densest terms' sets (of some 460 terms held by 1/64 to 1/2 of the rows, each read in
 * up to three places), at 100,000 nearly all of them; a few seconds of the start's budget of 15
 * (docs/operations.md). The rest is read in the background after (readAheadInBackground).
 */
const READ_AHEAD_MS = 4000;
/** How long one slice of the reading ahead that goes on after the start lasts (it reads at least one set). */
const READ_AHEAD_SLICE_MS = 20;

export class SqliteSearchIndex implements SearchIndex, SameTransactionIndex {
  private readonly writer: SearchIndexWriter;
  private readonly caches: SearchCaches;
  private readonly statements: StatementCache;
  private readonly rowSetPlanner: RowSetPlanner;
  private readonly ftsPlanner: FtsPlanner;
  private readonly countKeys;
  private readonly versions;
  private readonly readAhead: ReadAhead;
  private readonly facetColumns: RowFacetColumns;
  private facetTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: SqliteDatabase,
    rowSetMode: RowSetMode = 'auto',
    facetChunkRows?: number,
  ) {
    const changeLog = new SearchChangeLog(db);
    this.writer = new SearchIndexWriter(db, changeLog);
    this.caches = new SearchCaches(db, changeLog, this.writer, rowSetMode);
    this.statements = new StatementCache(db);
    const expansion = new TermExpansion(() => this.caches.vocabulary());
    const labels = new FacetLabels(db);
    this.facetColumns = new RowFacetColumns(db, labels, facetChunkRows);
    this.rowSetPlanner = new RowSetPlanner(db, this.caches, expansion, this.statements, this.facetColumns);
    this.readAhead = new ReadAhead(db, this.caches, this.rowSetPlanner, changeLog);
    this.ftsPlanner = new FtsPlanner(db, this.caches, expansion, this.statements, labels);
    this.countKeys = db.prepare<[], number>('SELECT count(*) FROM search_keys').pluck();
    this.versions = db.prepare<[string, number], RecordVersion>('SELECT id, seq FROM search_keys WHERE id > ? ORDER BY id LIMIT ?');
  }

  async upsert(records: readonly IndexRecord[]): Promise<void> {
    this.db.transaction(() => this.writer.upsert(records)).immediate();
  }

  async remove(ids: readonly string[]): Promise<void> {
    this.db.transaction(() => this.writer.remove(ids)).immediate();
  }

  upsertInTransaction(rows: readonly IndexRow[]): void {
    this.writer.upsertRows(rows);
  }

  removeInTransaction(ids: readonly string[]): void {
    this.writer.remove(ids);
  }

  /**
   * After a bulk write: the search table's segments merged into one (see
   * SearchIndexWriter.mergeSegments), then its vocabulary read and kept for the processes that
   * start next (vocabulary-snapshot.ts).
   */
  settleAfterBulkWrite(): void {
    this.db.transaction(() => this.writer.mergeSegments()).immediate();
    this.caches.renewVocabularyCopy();
  }

  /**
   * Loads the vocabulary and the rows' keys ahead of the first query (see SearchCaches.warm), then
   * takes the sets read ahead that the database holds a copy of and reads more for up to
   * readAheadMs (read-ahead.ts), this process's stripe of them first, all in one snapshot; then
   * keeps a vocabulary read from FTS5 and the sets read, for the processes that start next or
   * beside it. Returns the number of sets taken and read; readAheadMore and readAheadInBackground
   * go on with the rest.
   */
  warm(readAheadMs = READ_AHEAD_MS, stripe: ReaderStripe = ALONE): number {
    const readAhead = this.db
      .transaction(() => {
        this.caches.warm();
        return this.readAhead.start(readAheadMs, stripe);
      })
      .deferred();
    // Once the snapshot is closed: a write from inside it would hold the write lock while reading ahead.
    this.caches.keepVocabulary();
    this.readAhead.keepCopies();
    return readAhead;
  }

  /**
   * Takes the sets the copy holds of those left, then reads ahead the next for up to sliceMs (at
   * least one, when any is left) and copies them; returns how many it took and read.
   */
  readAheadMore(sliceMs: number): number {
    const done = this.readAhead.more(sliceMs);
    this.readAhead.keepCopies();
    return done;
  }

  /** The sets warm left to read ahead. */
  get readAheadLeft(): number {
    return this.readAhead.left;
  }

  /**
   * Goes on reading ahead after the start, READ_AHEAD_SLICE_MS at a time between other work
   * (ReadAhead.inBackground), then reads the facet columns the same way, so that the first
   * facet counts (every page of the website's list asks some) need not read them: about 0.1 s a
   * column at 100,000 records, a second at a million.
   */
  readAheadInBackground(done?: () => void): void {
    this.readAhead.inBackground(READ_AHEAD_SLICE_MS, () => this.readFacetsAheadInBackground(done));
  }

  /** Reads facet columns no count has read for up to sliceMs (a chunk at least, when any is left); returns whether any is left. */
  readFacetsAhead(sliceMs: number): boolean {
    const universe = this.caches.currentUniverse();
    return universe ? this.facetColumns.readAhead(universe, sliceMs) : false;
  }

  private readFacetsAheadInBackground(done?: () => void): void {
    const slice = (): void => {
      this.facetTimer = undefined;
      if (!this.db.open) return;
      if (this.readFacetsAhead(READ_AHEAD_SLICE_MS)) {
        this.facetTimer = setTimeout(slice, 0);
        this.facetTimer.unref();
        return;
      }
      done?.();
    };
    slice();
  }

  /** The facets whose values are read for the rows as they are now (none without row sets). */
  facetColumnsRead(): FacetName[] {
    const universe = this.caches.currentUniverse();
    return universe ? this.facetColumns.columnsRead(universe) : [];
  }

  /** The row sets kept now: how many, the bytes they take and the bound on those. */
  rowSetUse(): { sets: number; bytes: number; maxBytes: number } {
    const { rowSets } = this.caches;
    return { sets: rowSets.size, bytes: rowSets.bytes, maxBytes: rowSets.maxBytes };
  }

  /** One search, read from one snapshot of the database so its total, sets and page agree. */
  async search(query: SearchQuery): Promise<SearchHits> {
    return this.db.transaction(() => this.searchSnapshot(query)).deferred();
  }

  private searchSnapshot(query: SearchQuery): SearchHits {
    this.caches.refresh();
    const plain = !query.text?.trim() && !query.after && !query.facets?.length && Object.values(query.filters).every((value) => value === undefined);
    if (plain) {
      // Every record in key order: no index needed beyond the sort keys.
      const direction = query.order === 'oldest' ? 'DESC' : 'ASC';
      const rows = this.statements.get(`SELECT sort_key, id FROM search_keys ORDER BY sort_key ${direction} LIMIT ? OFFSET ?`).raw().all(query.limit + 1, query.offset) as [number, string][];
      const shown = rows.slice(0, query.limit);
      const last = shown.at(-1);
      return { total: this.countKeys.get() ?? 0, ids: shown.map(([, id]) => id), ...(rows.length > query.limit && last ? { next: { date: dateOfKey(last[0]), id: last[1] } } : {}) };
    }
    const plan = planSearch(this.db, query);
    if (!plan) return { total: 0, ids: [], ...(query.facets?.length ? { facets: Object.fromEntries(query.facets.map((name) => [name, {}])) } : {}) };
    const universe = this.caches.currentUniverse();
    if (universe) return this.rowSetPlanner.search(universe, plan, query);
    return this.ftsPlanner.search(plan, query);
  }

  /** Both languages are written in one transaction, so they hold the same versions. */
  async *streamVersions(_lang: Lang, batchSize = 1000): AsyncIterable<RecordVersion> {
    let after = '';
    for (;;) {
      const rows = this.versions.all(after, batchSize);
      yield* rows;
      const last = rows.at(-1);
      if (!last || rows.length < batchSize) return;
      after = last.id;
    }
  }

  async count(): Promise<number> {
    return this.countKeys.get() ?? 0;
  }

  async ping(): Promise<void> {
    this.countKeys.get();
  }

  async close(): Promise<void> {
    this.readAhead.stop();
    clearTimeout(this.facetTimer);
    if (this.db.open) this.db.close();
  }
}
