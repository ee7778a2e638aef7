/**
 * Answers a search from row sets (row-sets.ts): each alternative's rows are read from FTS5 once
 * and cached as a bitset, so a search is a few AND / OR / AND-NOT passes over them, totals are
 * population counts and tiers are set differences. Gives the same answers as FtsPlanner.
 */
import type { Lang } from '../../domain/record.ts';
import type { SearchHits, SearchQuery } from '../../domain/search-query.ts';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import { searchTable } from '../../store/sqlite/schema.ts';
import { RANK_LIMIT, inverseDocumentFrequency, rankRows } from './relevance.ts';
import type { TermEvidence } from './relevance.ts';
import { holdsPhrase, phraseTokens } from './row-match.ts';
import type { CoveredRowSet, RowSet, RowUniverse } from './row-sets.ts';
import type { SearchCaches } from './search-caches.ts';
import type { StatementCache } from './statement-cache.ts';
import { METADATA_COLUMNS, TEXT_COLUMNS, ftsAlternative } from './term-expansion.ts';
import type { Alternative, TermExpansion, TermMatch } from './term-expansion.ts';
import type { QueryTerm } from './text.ts';

/**
 * Testing one appended row against an expression (an FTS5 lookup, about 40 µs) costs about what
 * reading 128 of its rows does (about 0.3 µs each): a cached set further behind is read again.
 */
const ROWS_READ_PER_LOOKUP = 128;

export class RowSetPlanner {
  private readonly idOfKey;

  constructor(
    db: SqliteDatabase,
    private readonly caches: SearchCaches,
    private readonly expansion: TermExpansion,
    private readonly statements: StatementCache,
  ) {
    this.idOfKey = db.prepare<[number], string>('SELECT id FROM search_keys WHERE sort_key = ?').pluck();
  }

  /**
   * The rows matching one FTS5 expression (a term in its columns, or a facet token), read once and
   * cached; rows appended since are each tested against the expression, unless reading the set
   * again costs less, and rows killed since are taken out, so every set holds live rows only.
   */
  private rowSet(universe: RowUniverse, lang: Lang, columns: string, alternative: Alternative): RowSet {
    const expression = `${columns} : ${ftsAlternative(alternative)}`;
    const cacheKey = `${lang}\u0000${expression}`;
    const cached = this.caches.rowSets.get(cacheKey);
    if (cached?.covered === universe.size && cached.kills === universe.kills) return cached.set;
    let set: RowSet | undefined;
    if (cached) {
      const added = cached.covered === universe.size ? [] : this.appendedMatches(universe, lang, columns, alternative, expression, cached);
      if (added) set = universe.live(added.length > 0 ? cached.set.with(added, universe.words) : cached.set);
    }
    set ??= universe.setOf(this.statements.get(`SELECT rowid FROM ${searchTable(lang)} WHERE ${searchTable(lang)} MATCH ?`).pluck().all(expression) as number[]);
    this.caches.rowSets.set(cacheKey, { set, covered: universe.size, kills: universe.kills });
    return set;
  }

  /**
   * The live rows appended since a cached set was read that match its expression: tested in
   * JavaScript where the row's text allows (row-match.ts), otherwise by FTS5 lookups; undefined
   * when the lookups would cost more than reading the set again.
   */
  private appendedMatches(universe: RowUniverse, lang: Lang, columns: string, alternative: Alternative, expression: string, cached: CoveredRowSet): number[] | undefined {
    const tokens = phraseTokens(alternative.tokens.join(' '));
    const phrase = tokens && { columns: columns.slice(1, -1).split(' '), tokens, prefix: alternative.prefix };
    const table = searchTable(lang);
    let lookupsLeft = 1 + cached.set.count() / ROWS_READ_PER_LOOKUP;
    const added: number[] = [];
    for (let ordinal = cached.covered; ordinal < universe.size; ordinal += 1) {
      if (!universe.isLive(ordinal)) continue;
      const key = universe.keyAt(ordinal);
      const row = phrase && this.caches.appendedRow(lang, key)?.tokens;
      if (phrase && row) {
        if (holdsPhrase(row, phrase)) added.push(ordinal);
        continue;
      }
      lookupsLeft -= 1;
      if (lookupsLeft < 0) return undefined;
      // FTS5 applies a rowid constraint only to an SQL integer, so keys are bound as BigInts.
      if (this.statements.get(`SELECT 1 FROM ${table} WHERE ${table} MATCH ? AND rowid = ?`).get(expression, BigInt(key)) !== undefined) added.push(ordinal);
    }
    return added;
  }

  /** Rows holding every term (each as the tier matches it) in the given columns and every facet. */
  private termsSet(universe: RowUniverse, lang: Lang, terms: readonly QueryTerm[], match: TermMatch, facets: readonly string[], columns = TEXT_COLUMNS): RowSet {
    const termSet = (term: QueryTerm): RowSet => {
      const [first, ...others] = this.expansion.alternatives(term, lang, match).map((alternative) => this.rowSet(universe, lang, columns, alternative));
      return others.reduce((union, set) => union.or(set), first ?? universe.none());
    };
    const sets = [...terms.map(termSet), ...facets.map((token) => this.rowSet(universe, lang, '{facets}', { tokens: [token], prefix: false }))].sort((a, b) => a.count() - b.count());
    return sets.slice(1).reduce((result, set) => result.and(set), sets[0] ?? universe.all());
  }

  private idsOf(universe: RowUniverse, ordinals: readonly number[]): string[] {
    return ordinals.map((ordinal) => this.idOfKey.get(universe.keyAt(ordinal)) ?? '');
  }

  search(universe: RowUniverse, query: SearchQuery, terms: readonly QueryTerm[], facets: readonly string[]): SearchHits {
    const { lang, offset, limit } = query;
    const ascending = query.order !== 'oldest';
    if (query.order !== 'relevance' || terms.length === 0) {
      const hits = this.termsSet(universe, lang, terms, 'typo', facets);
      return { total: hits.count(), ids: this.idsOf(universe, universe.page(hits, offset, limit, ascending)) };
    }
    // Relevance: the same three disjoint tiers as FtsPlanner, each a set.
    const expressions = this.expansion.tierExpressions(lang, terms, facets);
    const exact = this.termsSet(universe, lang, terms, 'exact', facets);
    const prefixed = expressions.prefixed === expressions.exact ? exact : this.termsSet(universe, lang, terms, 'prefix', facets);
    const expanded = expressions.expanded === expressions.prefixed ? prefixed : this.termsSet(universe, lang, terms, 'typo', facets);
    const tiers: { set: RowSet; match: TermMatch }[] = [{ set: exact, match: 'exact' }];
    if (prefixed !== exact) tiers.push({ set: prefixed.andNot(exact), match: 'prefix' });
    if (expanded !== prefixed) tiers.push({ set: expanded.andNot(prefixed), match: 'typo' });
    const total = expanded.count();
    const ids: string[] = [];
    let skip = offset;
    for (const tier of tiers) {
      if (ids.length >= limit || skip >= total) break;
      const size = tier.set.count();
      if (skip >= size) {
        skip -= size;
        continue;
      }
      if (size <= RANK_LIMIT) {
        const evidence = terms.map((term): TermEvidence<number> => {
          const inTitle = this.termsSet(universe, lang, [term], tier.match, [], '{title}');
          const inMetadata = this.termsSet(universe, lang, [term], tier.match, [], METADATA_COLUMNS);
          return {
            idf: inverseDocumentFrequency(universe.rows, this.termsSet(universe, lang, [term], tier.match, []).count()),
            inTitle: (ordinal) => inTitle.has(ordinal),
            inMetadata: (ordinal) => inMetadata.has(ordinal),
          };
        });
        const ranked = rankRows(universe.page(tier.set, 0, size, true), evidence);
        ids.push(...this.idsOf(universe, ranked.slice(skip, skip + limit - ids.length)));
      } else {
        // Too many hits to rank on every request: records whose title holds the words come first, newest first.
        const inTitle = tier.set.and(this.termsSet(universe, lang, terms, 'prefix', [], '{title}'));
        const rest = tier.set.andNot(inTitle);
        const fromTitle = universe.page(inTitle, skip, limit - ids.length, true);
        ids.push(...this.idsOf(universe, fromTitle));
        if (ids.length < limit) ids.push(...this.idsOf(universe, universe.page(rest, Math.max(0, skip - inTitle.count()), limit - ids.length, true)));
      }
      skip = 0;
    }
    return { total, ids };
  }
}
