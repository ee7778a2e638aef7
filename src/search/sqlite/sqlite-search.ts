/**
 * The embedded search index: FTS5 tables in the store's own database file. This class wires the
 * parts together; each has one job:
 * - index-writer.ts writes records into the search tables, change-log.ts logs which rows changed;
 * - search-caches.ts keeps row sets, vocabularies and counts, current through the change log;
 * - term-expansion.ts turns query terms into alternatives (prefixes, typos) tier by tier;
 * - row-set-planner.ts answers from cached row sets, fts-planner.ts by counting with FTS5.
 */
import type { IndexRecord, RecordVersion, SearchIndex } from '../../domain/ports.ts';
import type { Lang } from '../../domain/record.ts';
import type { SearchHits, SearchQuery } from '../../domain/search-query.ts';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import type { SameTransactionIndex } from '../../store/sqlite/sqlite-store.ts';
import { SearchChangeLog } from './change-log.ts';
import { facetTokens } from './facets.ts';
import { FtsPlanner } from './fts-planner.ts';
import { SearchIndexWriter } from './index-writer.ts';
import { RowSetPlanner } from './row-set-planner.ts';
import { SearchCaches } from './search-caches.ts';
import type { RowSetMode } from './search-caches.ts';
import { StatementCache } from './statement-cache.ts';
import { TermExpansion } from './term-expansion.ts';
import { parseQuery } from './text.ts';

export type { RowSetMode } from './search-caches.ts';

export class SqliteSearchIndex implements SearchIndex, SameTransactionIndex {
  private readonly writer: SearchIndexWriter;
  private readonly caches: SearchCaches;
  private readonly statements: StatementCache;
  private readonly rowSetPlanner: RowSetPlanner;
  private readonly ftsPlanner: FtsPlanner;
  private readonly countKeys;
  private readonly versions;

  constructor(
    private readonly db: SqliteDatabase,
    rowSetMode: RowSetMode = 'auto',
  ) {
    const changeLog = new SearchChangeLog(db);
    this.writer = new SearchIndexWriter(db, changeLog);
    this.caches = new SearchCaches(db, changeLog, this.writer, rowSetMode);
    this.statements = new StatementCache(db);
    const expansion = new TermExpansion((lang) => this.caches.vocabulary(lang));
    this.rowSetPlanner = new RowSetPlanner(db, this.caches, expansion, this.statements);
    this.ftsPlanner = new FtsPlanner(db, this.caches, expansion, this.statements);
    this.countKeys = db.prepare<[], number>('SELECT count(*) FROM search_keys').pluck();
    this.versions = db.prepare<[string, number], RecordVersion>('SELECT id, seq FROM search_keys WHERE id > ? ORDER BY id LIMIT ?');
  }

  async upsert(records: readonly IndexRecord[]): Promise<void> {
    this.db.transaction(() => this.writer.upsert(records)).immediate();
  }

  async remove(ids: readonly string[]): Promise<void> {
    this.db.transaction(() => this.writer.remove(ids)).immediate();
  }

  upsertInTransaction(records: readonly IndexRecord[]): void {
    this.writer.upsert(records);
  }

  removeInTransaction(ids: readonly string[]): void {
    this.writer.remove(ids);
  }

  /** Loads the vocabularies ahead of the first query (see SearchCaches.warm). */
  warm(): void {
    this.caches.warm();
  }

  /** One search, read from one snapshot of the database so its total, sets and page agree. */
  async search(query: SearchQuery): Promise<SearchHits> {
    return this.db.transaction(() => this.searchSnapshot(query)).deferred();
  }

  private searchSnapshot(query: SearchQuery): SearchHits {
    this.caches.refresh();
    const { offset, limit } = query;
    const text = query.text?.trim();
    const facets = facetTokens(query.filters);
    if (!text && facets.length === 0) {
      const direction = query.order === 'oldest' ? 'DESC' : 'ASC';
      const rows = this.statements.get(`SELECT id FROM search_keys ORDER BY sort_key ${direction} LIMIT ? OFFSET ?`).pluck().all(limit, offset) as string[];
      return { total: this.countKeys.get() ?? 0, ids: rows };
    }
    const terms = text ? parseQuery(text) : [];
    if (text && terms.length === 0) return { total: 0, ids: [] };
    const universe = this.caches.currentUniverse();
    if (universe) return this.rowSetPlanner.search(universe, query, terms, facets);
    return this.ftsPlanner.search(query, terms, facets);
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
    if (this.db.open) this.db.close();
  }
}
