/**
 * Answers a search with FTS5 counting every time: the path taken while row sets are being
 * rebuilt after a bulk write (see SearchCaches), and the reference the row sets are tested
 * against. Counts are cached until the search tables change.
 */
import type { Lang } from '../../domain/record.ts';
import type { SearchHits, SearchQuery } from '../../domain/search-query.ts';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import { searchTable } from '../../store/sqlite/schema.ts';
import { RANK_LIMIT, inverseDocumentFrequency, rankRows } from './relevance.ts';
import type { TermEvidence } from './relevance.ts';
import type { SearchCaches } from './search-caches.ts';
import type { StatementCache } from './statement-cache.ts';
import { METADATA_COLUMNS, TEXT_COLUMNS } from './term-expansion.ts';
import type { TermExpansion, TermMatch } from './term-expansion.ts';
import { quote } from './text.ts';
import type { QueryTerm } from './text.ts';

export class FtsPlanner {
  private readonly fixed;

  constructor(
    db: SqliteDatabase,
    private readonly caches: SearchCaches,
    private readonly expansion: TermExpansion,
    private readonly statements: StatementCache,
  ) {
    this.fixed = {
      idOfKey: db.prepare<[number], string>('SELECT id FROM search_keys WHERE sort_key = ?').pluck(),
      countKeys: db.prepare<[], { total: number }>('SELECT count(*) AS total FROM search_keys'),
    };
  }

  search(query: SearchQuery, terms: readonly QueryTerm[], facets: readonly string[]): SearchHits {
    const { lang, offset, limit } = query;
    const direction = query.order === 'oldest' ? 'DESC' : 'ASC';
    if (terms.length === 0) {
      const filters = `{facets} : (${facets.map(quote).join(' AND ')})`;
      return { total: this.countMatches(lang, filters), ids: this.idsByKey(lang, filters, direction, offset, limit) };
    }
    const { exact, prefixed, expanded } = this.expansion.tierExpressions(lang, terms, facets);
    if (query.order !== 'relevance') {
      return { total: this.countMatches(lang, expanded), ids: this.idsByKey(lang, expanded, direction, offset, limit) };
    }
    // Relevance: whole words as written first, then the last word as a prefix, then words with typos;
    // each tier is ranked on its own, so a typo never outranks what the reader actually typed.
    const tiers: { expression: string; match: TermMatch }[] = [{ expression: exact, match: 'exact' }];
    if (prefixed !== exact) tiers.push({ expression: `(${prefixed}) NOT (${exact})`, match: 'prefix' });
    if (expanded !== prefixed) tiers.push({ expression: `(${expanded}) NOT (${prefixed})`, match: 'typo' });
    const titleOnly = this.expansion.textExpression(terms, lang, 'prefix', '{title}');
    return this.pageThroughTiers(lang, terms, expanded, tiers, titleOnly, offset, limit);
  }

  /**
   * One page across disjoint tiers. Only the total is always counted in full; a tier is counted
   * in full only when the page starts beyond it, and is otherwise asked only whether it holds
   * more than RANK_LIMIT hits (a count that stops there), because counting is what costs.
   */
  private pageThroughTiers(lang: Lang, terms: readonly QueryTerm[], union: string, tiers: readonly { expression: string; match: TermMatch }[], titleOnly: string, offset: number, limit: number): SearchHits {
    const total = this.countMatches(lang, union);
    const ids: string[] = [];
    if (offset >= total) return { total, ids };
    let skip = offset;
    let before = 0;
    tiers.forEach(({ expression: tier, match }, index) => {
      if (ids.length >= limit) return;
      if (skip > 0) {
        const size = index === tiers.length - 1 ? total - before : this.countMatches(lang, tier);
        before += size;
        if (skip >= size) {
          skip -= size;
          return;
        }
      }
      if (!this.holdsMoreThan(lang, tier, RANK_LIMIT)) {
        const ranked = rankRows(this.keysMatching(lang, tier), this.termEvidence(lang, terms, match, tier));
        ids.push(...ranked.slice(skip, skip + limit - ids.length).map((key) => this.fixed.idOfKey.get(key) ?? ''));
      } else {
        // Too many hits to rank on every request: records whose title holds the words come first, newest first.
        const inTitle = `(${tier}) AND (${titleOnly})`;
        const rest = `(${tier}) NOT (${titleOnly})`;
        if (skip === 0) {
          ids.push(...this.idsByKey(lang, inTitle, 'ASC', 0, limit - ids.length));
          if (ids.length < limit) ids.push(...this.idsByKey(lang, rest, 'ASC', 0, limit - ids.length));
        } else {
          const inTitleTotal = this.countMatches(lang, inTitle);
          if (skip < inTitleTotal) ids.push(...this.idsByKey(lang, inTitle, 'ASC', skip, limit - ids.length));
          if (ids.length < limit) ids.push(...this.idsByKey(lang, rest, 'ASC', Math.max(0, skip - inTitleTotal), limit - ids.length));
        }
      }
      skip = 0;
    });
    return { total, ids };
  }

  /** Sort keys of every row matching an expression, ascending. */
  private keysMatching(lang: Lang, expression: string): number[] {
    const table = searchTable(lang);
    return this.statements.get(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid`).pluck().all(expression) as number[];
  }

  /** The relevance evidence of each term for the rows of a tier. */
  private termEvidence(lang: Lang, terms: readonly QueryTerm[], match: TermMatch, tier: string): TermEvidence<number>[] {
    const rows = this.fixed.countKeys.get()?.total ?? 0;
    return terms.map((term) => {
      const expression = this.expansion.termExpression(term, lang, match);
      const inTitle = new Set(this.keysMatching(lang, `(${tier}) AND ({title} : ${expression})`));
      const inMetadata = new Set(this.keysMatching(lang, `(${tier}) AND (${METADATA_COLUMNS} : ${expression})`));
      return {
        idf: inverseDocumentFrequency(rows, this.countMatches(lang, `${TEXT_COLUMNS} : ${expression}`)),
        inTitle: (key) => inTitle.has(key),
        inMetadata: (key) => inMetadata.has(key),
      };
    });
  }

  /** Whether an expression matches more than limit rows, reading at most limit + 1 of them. */
  private holdsMoreThan(lang: Lang, expression: string, limit: number): boolean {
    const cacheKey = `${lang}\u0001${limit}\u0001${expression}`;
    const cached = this.caches.counts.get(cacheKey);
    if (cached !== undefined) return cached > limit;
    const table = searchTable(lang);
    const row = this.statements.get(`SELECT count(*) AS total FROM (SELECT rowid FROM ${table} WHERE ${table} MATCH ? LIMIT ?)`).get(expression, limit + 1) as { total: number };
    this.caches.counts.set(cacheKey, row.total);
    return row.total > limit;
  }

  private countMatches(lang: Lang, expression: string): number {
    const cacheKey = `${lang}\u0000${expression}`;
    const cached = this.caches.counts.get(cacheKey);
    if (cached !== undefined) return cached;
    const row = this.statements.get(`SELECT count(*) AS total FROM ${searchTable(lang)} WHERE ${searchTable(lang)} MATCH ?`).get(expression) as { total: number };
    if (this.caches.counts.size > 50000) this.caches.counts.clear();
    this.caches.counts.set(cacheKey, row.total);
    return row.total;
  }

  /** Ids of one page of hits, ordered by rowid (date descending then id) or its reverse. */
  private idsByKey(lang: Lang, expression: string, direction: 'ASC' | 'DESC', offset: number, limit: number): string[] {
    const table = searchTable(lang);
    const rows = this.statements.get(
      `SELECT k.id FROM (SELECT rowid AS r FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid ${direction} LIMIT ? OFFSET ?) m JOIN search_keys k ON k.sort_key = m.r ORDER BY k.sort_key ${direction}`,
    ).all(expression, limit, offset) as { id: string }[];
    return rows.map((row) => row.id);
  }
}
