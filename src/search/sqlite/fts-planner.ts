/**
 * Answers a search with FTS5 counting every time: the path taken while row sets are being
 * rebuilt after a bulk write (see SearchCaches), and the reference the row sets are tested
 * against. A search is an FTS5 expression (text, filter tokens, exclusions) and a range of rowids
 * (dates, a cursor's position); facets group the hits' `search_keys` rows. Counts are cached
 * until the search tables change.
 */
import type { Lang } from '../../domain/record.ts';
import type { FacetName, SearchHits, SearchQuery } from '../../domain/search-query.ts';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import { SEARCH_TABLE } from '../../store/sqlite/schema.ts';
import { countFacets, FACET_COLUMN } from './facet-counts.ts';
import type { FacetLabels } from './facet-counts.ts';
import { afterPosition } from './query-plan.ts';
import type { SearchPlan } from './query-plan.ts';
import { KeyIds } from './key-ids.ts';
import { inverseDocumentFrequency, scoreRows } from './relevance.ts';
import type { TermEvidence } from './relevance.ts';
import { currentModes, frozenValues, readFrozen, walkTiers, WEIGHTED_MATCHES, weightsOf } from './relevance-walk.ts';
import type { Frozen, TierKind, TierView, WalkRow } from './relevance-walk.ts';
import type { SearchCaches } from './search-caches.ts';
import { dateOfKey, intersectRanges } from './sort-key.ts';
import type { KeyRange } from './sort-key.ts';
import type { StatementCache } from './statement-cache.ts';
import { METADATA_COLUMNS, TEXT_COLUMNS, titleColumn } from './term-expansion.ts';
import type { TermExpansion, TermMatch } from './term-expansion.ts';
import { quote } from './text.ts';

/** Rows an FTS5 expression (undefined: every row) matches within a range of rowids. */
interface Where {
  match: string | undefined;
  range: KeyRange;
}

/** An expression every row matches: each carries one of the kind tokens. */
const EVERY_ROW = '{facets} : ("kind0gallery" OR "kind0timeline")';

function both(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return `(${a}) AND (${b})`;
}

function without(a: string | undefined, b: string): string {
  return `(${a ?? EVERY_ROW}) NOT (${b})`;
}

export class FtsPlanner {
  private readonly fixed;
  private readonly keyIds: KeyIds;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly caches: SearchCaches,
    private readonly expansion: TermExpansion,
    private readonly statements: StatementCache,
    private readonly labels: FacetLabels,
  ) {
    this.keyIds = new KeyIds(db);
    this.fixed = {
      countKeys: db.prepare<[], { total: number }>('SELECT count(*) AS total FROM search_keys'),
    };
  }

  /** The filters (one facet's left out when named) as an FTS5 expression over the facet tokens. */
  private filterExpression(plan: SearchPlan, leaveOut?: FacetName): string | undefined {
    const clauses: string[] = [];
    for (const [name, tokens] of plan.filters) if (name !== leaveOut) clauses.push(`(${tokens.map(quote).join(' OR ') || '"0"'})`);
    if (plan.since) clauses.push(`(${plan.since.map(quote).join(' OR ') || '"0"'})`);
    return clauses.length ? `{facets} : (${clauses.join(' AND ')})` : undefined;
  }

  /** The hits of a tier's match: the text, the filters, without excluded rows. */
  private hitsExpression(plan: SearchPlan, match: TermMatch, leaveOut?: FacetName): string | undefined {
    const groups = plan.parsed?.groups ?? [];
    const text = groups.length ? this.expansion.textExpression(groups, plan.lang, match) : undefined;
    const expression = both(text, this.filterExpression(plan, leaveOut));
    const excluded = plan.parsed?.excluded ?? [];
    return excluded.length ? without(expression, this.expansion.excludedExpression(excluded, plan.lang)) : expression;
  }

  search(plan: SearchPlan, query: SearchQuery): SearchHits {
    const all: Where = { match: this.hitsExpression(plan, 'typo'), range: plan.dates };
    const result: SearchHits = { total: this.count(plan.lang, all), ids: [] };
    const page = plan.dateOrder ? this.datePage(plan, query, all) : this.relevancePage(plan, query, all);
    result.ids = page.ids;
    if (page.next) result.next = page.next;
    if (query.facets?.length) {
      result.facets = countFacets(query.facets, (name) =>
        this.facetCounts(plan.lang, name, plan.filters.has(name) ? { match: this.hitsExpression(plan, 'typo', name), range: plan.dates } : all),
      );
    }
    return result;
  }

  private datePage(plan: SearchPlan, query: SearchQuery, all: Where): Pick<SearchHits, 'ids' | 'next'> {
    const direction = plan.dateOrder === 'oldest' ? 'DESC' : 'ASC';
    const from = query.after ? { ...all, range: intersectRanges(all.range, afterPosition(this.db, query.after, plan.dateOrder ?? 'newest')) } : all;
    const keys = this.keysByKey(plan.lang, from, direction, query.after ? 0 : query.offset, query.limit + 1);
    const shown = keys.slice(0, query.limit);
    const ids = this.keyIds.idsOf(shown);
    const last = shown.at(-1);
    return { ids, ...(keys.length > query.limit && last !== undefined ? { next: { date: dateOfKey(last), id: ids.at(-1) ?? '' } } : {}) };
  }

  /** A page in relevance order (relevance-walk.ts), the tiers as expressions. */
  private relevancePage(plan: SearchPlan, query: SearchQuery, all: Where): Pick<SearchHits, 'ids' | 'next'> {
    const { lang } = plan;
    const groups = plan.parsed?.groups ?? [];
    const text = new Map(WEIGHTED_MATCHES.map((match) => [match, this.expansion.textExpression(groups, lang, match)]));
    const exact = this.hitsExpression(plan, 'exact') ?? EVERY_ROW;
    const prefixed = this.hitsExpression(plan, 'prefix') ?? EVERY_ROW;
    const expanded = all.match ?? EVERY_ROW;
    const parts: { kind: TierKind; expression: string; match: TermMatch }[] = [];
    const boost = plan.boost ? `(${exact}) AND ({facets} : ${quote(plan.boost)})` : undefined;
    if (boost && this.count(lang, { match: boost, range: plan.dates }) > 0) parts.push({ kind: 'boost', expression: boost, match: 'exact' }, { kind: 'exact', expression: `(${exact}) NOT ({facets} : ${quote(plan.boost ?? '')})`, match: 'exact' });
    else parts.push({ kind: 'exact', expression: exact, match: 'exact' });
    if (text.get('prefix') !== text.get('exact')) parts.push({ kind: 'prefix', expression: `(${prefixed}) NOT (${exact})`, match: 'prefix' });
    if (text.get('typo') !== text.get('prefix')) parts.push({ kind: 'typo', expression: `(${expanded}) NOT (${prefixed})`, match: 'typo' });
    const tiers: TierView[] = parts.map(({ kind, expression, match }) => {
      const tier: Where = { match: expression, range: plan.dates };
      return {
        kind,
        size: this.count(lang, tier),
        ranked: (weights) => {
          const idf = weightsOf(weights, match, groups.length);
          const evidence = groups.map((group, i): TermEvidence<number> => {
            const groupExpression = this.expansion.groupExpression(group, lang, match);
            const inTitle = new Set(this.keys(lang, { ...tier, match: `(${expression}) AND (${titleColumn(lang)} : ${groupExpression})` }));
            const inMetadata = new Set(this.keys(lang, { ...tier, match: `(${expression}) AND (${METADATA_COLUMNS} : ${groupExpression})` }));
            return { idf: idf[i] ?? 0, inTitle: (key) => inTitle.has(key), inMetadata: (key) => inMetadata.has(key) };
          });
          return scoreRows(this.keys(lang, tier), evidence).map(({ row, score }) => ({ key: row, score }));
        },
        part: (title, fromKey, skip, limit) => {
          // Title holders: the words as this tier matches them, in the title.
          const titleOnly = this.expansion.textExpression(groups, lang, match, titleColumn(lang));
          const rows: Where = { match: title ? `(${expression}) AND (${titleOnly})` : `(${expression}) NOT (${titleOnly})`, range: intersectRanges(plan.dates, { min: fromKey, max: Infinity }) };
          return { size: this.count(lang, rows), keys: this.keysByKey(lang, rows, 'ASC', skip, limit) };
        },
      };
    });
    const rows = this.fixed.countKeys.get()?.total ?? 0;
    const frozen: Frozen = readFrozen(query.after?.frozen, groups.length) ?? {
      modes: currentModes(tiers),
      weights: WEIGHTED_MATCHES.flatMap((match) => groups.map((group) => inverseDocumentFrequency(rows, this.count(lang, { match: `${TEXT_COLUMNS} : ${this.expansion.groupExpression(group, lang, match)}`, range: { min: -Infinity, max: Infinity } })))),
    };
    const start = query.after ? { position: query.after, fromKey: afterPosition(this.db, query.after, 'newest').min } : { offset: query.offset };
    return this.pageOf(walkTiers(tiers, frozen, start, query.limit + 1), query.limit, frozenValues(frozen));
  }

  private pageOf(rows: readonly WalkRow[], limit: number, frozen: number[]): Pick<SearchHits, 'ids' | 'next'> {
    const shown = rows.slice(0, limit);
    const ids = this.keyIds.idsOf(shown.map((row) => row.key));
    const last = shown.at(-1);
    return { ids, ...(rows.length > limit && last ? { next: { date: dateOfKey(last.key), id: ids.at(-1) ?? '', rank: last.rank, frozen } } : {}) };
  }

  /** SQL conditions and parameters of a range of rowids on a column. */
  private rangeSql(column: string, range: KeyRange): { sql: string; parameters: bigint[] } {
    const conditions: string[] = [];
    const parameters: bigint[] = [];
    // FTS5 applies a rowid constraint only to an SQL integer, so keys are bound as BigInts.
    if (range.min > -Infinity) {
      conditions.push(`${column} >= ?`);
      parameters.push(BigInt(Math.ceil(range.min)));
    }
    if (range.max < Infinity) {
      conditions.push(`${column} <= ?`);
      parameters.push(BigInt(Math.floor(range.max)));
    }
    return { sql: conditions.map((condition) => ` AND ${condition}`).join(''), parameters };
  }

  /** The SELECT of rowids a Where matches, with its parameters. */
  private rowsSql(lang: Lang, where: Where): { sql: string; parameters: (string | bigint)[] } {
    const table = SEARCH_TABLE;
    if (where.match === undefined) {
      const range = this.rangeSql('sort_key', where.range);
      return { sql: `SELECT sort_key AS rowid FROM search_keys WHERE 1${range.sql}`, parameters: range.parameters };
    }
    const range = this.rangeSql('rowid', where.range);
    return { sql: `SELECT rowid FROM ${table} WHERE ${table} MATCH ?${range.sql}`, parameters: [where.match, ...range.parameters] };
  }

  private count(lang: Lang, where: Where): number {
    const cacheKey = `${lang}\u0000${where.range.min}\u0000${where.range.max}\u0000${where.match ?? ''}`;
    const cached = this.caches.counts.get(cacheKey);
    if (cached !== undefined) return cached;
    const rows = this.rowsSql(lang, where);
    const total = this.statements.get(`SELECT count(*) FROM (${rows.sql})`).pluck().get(...rows.parameters) as number;
    if (this.caches.counts.size > 50000) this.caches.counts.clear();
    this.caches.counts.set(cacheKey, total);
    return total;
  }

  /** Sort keys of every row matching, ascending. */
  private keys(lang: Lang, where: Where): number[] {
    const rows = this.rowsSql(lang, where);
    return this.statements.get(`${rows.sql} ORDER BY rowid`).pluck().all(...rows.parameters) as number[];
  }

  /** Keys of one page of hits, ordered by key (date descending then id) or its reverse. */
  private keysByKey(lang: Lang, where: Where, direction: 'ASC' | 'DESC', offset: number, limit: number): number[] {
    const rows = this.rowsSql(lang, where);
    return this.statements.get(`${rows.sql} ORDER BY rowid ${direction} LIMIT ? OFFSET ?`).pluck().all(...rows.parameters, limit, offset) as number[];
  }

  /** The values of a facet over the hits, with their counts. */
  private facetCounts(lang: Lang, name: FacetName, where: Where): Record<string, number> {
    const column = FACET_COLUMN[name];
    const rows = this.rowsSql(lang, where);
    const counts = this.statements.get(`SELECT k.${column}, count(*) FROM (${rows.sql}) m JOIN search_keys k ON k.sort_key = m.rowid GROUP BY k.${column}`).raw().all(...rows.parameters) as [string, number][];
    return this.labels.present(name, counts);
  }
}
