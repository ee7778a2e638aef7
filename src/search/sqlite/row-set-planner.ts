/**
 * Answers a search from row sets (row-sets.ts): each alternative's rows are read from FTS5 once
 * and cached as a bitset, so a search is a few AND / OR / AND-NOT passes over them, totals are
 * population counts, tiers are set differences, each facet is the hits with its own filter left
 * out, counted from per-row value arrays. Gives the same answers as FtsPlanner.
 */
import type { Lang } from '../../domain/record.ts';
import type { FacetName, SearchHits, SearchQuery } from '../../domain/search-query.ts';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import { SEARCH_TABLE } from '../../store/sqlite/schema.ts';
import { CJK_CHARACTER } from '../search-text.ts';
import type { QueryGroup } from '../search-text.ts';
import { countFacets } from './facet-counts.ts';
import type { RowFacetColumns } from './facet-counts.ts';
import { afterPosition } from './query-plan.ts';
import type { SearchPlan } from './query-plan.ts';
import { KeyIds } from './key-ids.ts';
import { inverseDocumentFrequency, scoreRows } from './relevance.ts';
import type { TermEvidence } from './relevance.ts';
import { currentModes, frozenValues, readFrozen, walkTiers, WEIGHTED_MATCHES, weightsOf } from './relevance-walk.ts';
import type { Frozen, TierKind, TierView, WalkRow } from './relevance-walk.ts';
import { FACET_TOKEN, TOKEN_FIELDS } from './facets.ts';
import { holdsPhrase, phraseTokens } from './row-match.ts';
import { RowSet } from './row-sets.ts';
import type { CoveredRowSet, RowUniverse } from './row-sets.ts';
import type { KeyedRowSet } from './read-ahead-copy.ts';
import type { SearchCaches, VocabularyTerm } from './search-caches.ts';
import { dateOfKey, intersectRanges } from './sort-key.ts';
import type { KeyRange } from './sort-key.ts';
import type { StatementCache } from './statement-cache.ts';
import { METADATA_COLUMNS, TEXT_COLUMNS, ftsAlternative, titleColumn } from './term-expansion.ts';
import type { Alternative, TermExpansion, TermMatch } from './term-expansion.ts';
import type { QueryTerm } from './text.ts';

/**
 * Testing one appended row against an expression (an FTS5 lookup, about 40 µs) costs about what
 * reading 128 of its rows does (about 0.3 µs each): a cached set further behind is read again.
 */
const ROWS_READ_PER_LOOKUP = 128;
/** The column of facet tokens, which the vocabulary answers for (lacks) without a column lookup. */
const FACETS_COLUMN = '{facets}';

/**
 * Terms held by at least READ_AHEAD_MIN_SHARE of the rows, and at most READ_AHEAD_MAX_SHARE, have
 * their rows read ahead (readAhead): reading a set costs in proportion to its rows, so the dense
 * sets are the ones a cold process pays for; a term in most rows (`record`, `author`, a
 * catalog-wide facet) is one searches hardly ask, and the costliest to read.
 */
const READ_AHEAD_MIN_SHARE = 1 / 64;
const READ_AHEAD_MAX_SHARE = 1 / 2;

/** Whether a phrase could match inside the facets column: every token a facet token, or the last a prefix of one. */
function couldBeInFacets(tokens: readonly string[], prefix: boolean): boolean {
  return tokens.every((token, i) => FACET_TOKEN.test(token) || (prefix && i === tokens.length - 1 && TOKEN_FIELDS.some((name) => `${name}0`.startsWith(token))));
}

/** The FTS5 expression of one alternative in some columns: what its set is read by and cached under. */
function columnsExpression(columns: string, alternative: Alternative): string {
  return `${columns} : ${ftsAlternative(alternative)}`;
}

/** One set to read ahead: a term in some columns. */
export interface ReadAheadStep {
  columns: string;
  term: string;
}

export class RowSetPlanner {
  private readonly keyIds: KeyIds;
  /** The hits and filter sets made in the search under way (see hits, filterSet), dropped when it ends. */
  private readonly searchHits = new Map<string, RowSet>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly caches: SearchCaches,
    private readonly expansion: TermExpansion,
    private readonly statements: StatementCache,
    private readonly facetColumns: RowFacetColumns,
  ) {
    this.keyIds = new KeyIds(db);
  }

  /**
   * The rows matching one FTS5 expression (a term in its columns, or a facet token), read once and
   * cached; rows appended since are each tested against the expression, unless reading the set
   * again costs less, and rows killed since are taken out, so every set holds live rows only.
   */
  private rowSet(universe: RowUniverse, columns: string, alternative: Alternative): RowSet {
    // The same rows whatever the language searched: one table holds both languages' texts.
    const expression = columnsExpression(columns, alternative);
    const cached = this.caches.rowSets.get(expression);
    if (cached?.covered === universe.size && cached.kills === universe.kills) return cached.set;
    let set: RowSet | undefined;
    if (cached) {
      const added = cached.covered === universe.size ? [] : this.appendedMatches(universe, columns, alternative, expression, cached);
      if (added) set = universe.live(added.length > 0 ? cached.set.with(added, universe.words) : cached.set);
    }
    set ??= this.readSet(universe, columns, alternative, expression);
    this.caches.rowSets.set(expression, { set, covered: universe.size, kills: universe.kills });
    return set;
  }

  /**
   * Reads the rows of an expression from FTS5, unless the vocabulary shows one of its tokens is in
   * no row. A phrase in every text column is asked without the column filter when it cannot be
   * in the facets column (FTS5 then skips decoding positions, which halves the cost of the read).
   */
  private readSet(universe: RowUniverse, columns: string, alternative: Alternative, expression: string): RowSet {
    const tokens = phraseTokens(alternative.tokens.join(' '));
    const whole = tokens?.slice(0, alternative.prefix ? -1 : undefined) ?? [];
    if (whole.some((token) => this.caches.lacks(token))) return universe.none();
    if (whole.length > 0 && columns !== TEXT_COLUMNS && columns !== FACETS_COLUMN && this.outsideColumns(whole, columns)) return universe.none();
    const unfiltered = columns === TEXT_COLUMNS && tokens !== undefined && !couldBeInFacets(tokens, alternative.prefix);
    const read = unfiltered ? ftsAlternative(alternative) : expression;
    // One JSON array for all the rows: better-sqlite3 makes a JavaScript value of each row it
    // returns, which costs more than V8 parsing the numbers from one text (at a million records,
    // 20 % of a dense set's read).
    const rows = this.statements.get(`SELECT json_group_array(rowid) FROM ${SEARCH_TABLE} WHERE ${SEARCH_TABLE} MATCH ?`).pluck().get(read) as string;
    return universe.setOf(JSON.parse(rows) as number[]);
  }

  /**
   * Whether some token of a phrase is in none of these columns in any row, so the phrase cannot be
   * there either. Ranking asks each term again in the title and metadata columns, where reading
   * it costs about what reading it in every column does and often finds nothing: a Chinese
   * substring (a new phrase of bigrams each time, its bigrams recurring from phrase to phrase),
   * an English word in the Chinese title (at a million records 20 ms a read, again after each
   * eviction of its empty set). What columns hold a token is kept however the sets come and go.
   */
  private outsideColumns(tokens: readonly string[], columns: string): boolean {
    const names = columns.slice(1, -1).split(' ');
    return tokens.some((token) => {
      const held = this.caches.columnsOf(token);
      return !names.some((name) => held.has(name));
    });
  }

  /**
   * The live rows appended since a cached set was read that match its expression: tested in
   * JavaScript where the row's text allows (row-match.ts), otherwise by FTS5 lookups; undefined
   * when the lookups would cost more than reading the set again.
   */
  private appendedMatches(universe: RowUniverse, columns: string, alternative: Alternative, expression: string, cached: CoveredRowSet): number[] | undefined {
    const tokens = phraseTokens(alternative.tokens.join(' '));
    const phrase = tokens && { columns: columns.slice(1, -1).split(' '), tokens, prefix: alternative.prefix };
    const table = SEARCH_TABLE;
    let lookupsLeft = 1 + cached.set.count() / ROWS_READ_PER_LOOKUP;
    const added: number[] = [];
    for (let ordinal = cached.covered; ordinal < universe.size; ordinal += 1) {
      if (!universe.isLive(ordinal)) continue;
      const key = universe.keyAt(ordinal);
      const row = phrase && this.caches.appendedRow(key)?.tokens;
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

  /**
   * The sets to read ahead (readAhead) for the terms held by READ_AHEAD_MIN_SHARE to
   * READ_AHEAD_MAX_SHARE of the rows, in the order searches need them: first each term where a
   * search looks for it (a facet token in the facets column, any other term in every text
   * column), most held first; then where ranking looks for it, in the title of its script's
   * language and in the metadata columns.
   */
  readAheadSteps(universe: RowUniverse, terms: readonly VocabularyTerm[]): ReadAheadStep[] {
    const dense = terms.filter(({ rows }) => rows >= universe.rows * READ_AHEAD_MIN_SHARE && rows <= universe.rows * READ_AHEAD_MAX_SHARE).map(({ term }) => term);
    const words = dense.filter((term) => !FACET_TOKEN.test(term));
    return [
      ...dense.map((term) => ({ columns: FACET_TOKEN.test(term) ? FACETS_COLUMN : TEXT_COLUMNS, term })),
      ...words.flatMap((term) => [
        { columns: titleColumn(CJK_CHARACTER.test(term) ? 'zh' : 'en'), term },
        { columns: METADATA_COLUMNS, term },
      ]),
    ];
  }

  /** The key a step's set is kept under in the row-set cache. */
  readAheadKey({ columns, term }: ReadAheadStep): string {
    return columnsExpression(columns, { tokens: [term], prefix: false });
  }

  /**
   * Reads a step's set from FTS5 and keeps it in the cache's part for sets read ahead
   * (RowSetCache.keep); returns it with its key. A process that starts cold otherwise reads each
   * such set in its first searches (at a million records 10-30 ms each), while the searches behind
   * them wait.
   */
  readAhead(universe: RowUniverse, step: ReadAheadStep): KeyedRowSet {
    const key = this.readAheadKey(step);
    const set = this.rowSet(universe, step.columns, { tokens: [step.term], prefix: false });
    this.keepReadAhead(universe, { key, set });
    return { key, set };
  }

  /** Keeps a set read ahead, here or by another process (read-ahead-copy.ts), for the universe as it is. */
  keepReadAhead(universe: RowUniverse, { key, set }: KeyedRowSet): void {
    this.caches.rowSets.keep(key, { set, covered: universe.size, kills: universe.kills });
  }

  private union(universe: RowUniverse, sets: readonly RowSet[]): RowSet {
    if (sets.length <= 1) return sets[0] ?? universe.none();
    return RowSet.union(sets);
  }

  private intersection(universe: RowUniverse, sets: RowSet[]): RowSet {
    if (sets.length <= 1) return sets[0] ?? universe.all();
    return RowSet.intersection(sets);
  }

  /**
   * Rows holding one term as the tier matches it, in the given columns. A term of several
   * alternatives (a prefix opens up to 64 words, a typo up to 8 more) is kept as its union too,
   * for as long as the rows do not change: the same prefixes and typos come back in many searches.
   */
  private termSet(universe: RowUniverse, lang: Lang, term: QueryTerm, match: TermMatch, columns: string): RowSet {
    const alternatives = this.expansion.alternatives(term, lang, match);
    if (alternatives.length <= 1) return this.union(universe, alternatives.map((alternative) => this.rowSet(universe, columns, alternative)));
    const key = `${columns} : (${alternatives.map(ftsAlternative).join(' OR ')})`;
    const cached = this.caches.rowSets.get(key);
    if (cached?.covered === universe.size && cached.kills === universe.kills) return cached.set;
    const set = this.union(universe, alternatives.map((alternative) => this.rowSet(universe, columns, alternative)));
    this.caches.rowSets.set(key, { set, covered: universe.size, kills: universe.kills });
    return set;
  }

  /** Rows holding every term of one of the group's conjunctions in the tier (TermExpansion.conjunctions). */
  private groupSet(universe: RowUniverse, lang: Lang, group: QueryGroup, match: TermMatch, columns: string): RowSet {
    return this.union(
      universe,
      this.expansion.conjunctions(group, match).map((terms) => this.intersection(universe, terms.map((term) => this.termSet(universe, lang, term, match, columns)))),
    );
  }

  /** Rows holding the whole text (every group) as the tier matches it; every row when there are no words. */
  private textSet(universe: RowUniverse, plan: SearchPlan, match: TermMatch, columns = TEXT_COLUMNS): RowSet {
    const groups = plan.parsed?.groups ?? [];
    return this.intersection(universe, groups.map((group) => this.groupSet(universe, plan.lang, group, match, columns)));
  }

  private tokenSet(universe: RowUniverse, lang: Lang, token: string): RowSet {
    return this.rowSet(universe, FACETS_COLUMN, { tokens: [token], prefix: false });
  }

  /** Rows passing the filters (one facet's left out when named) and lying in the key range; made once per search, as hits are. */
  private filterSet(universe: RowUniverse, plan: SearchPlan, range: KeyRange, leaveOut?: FacetName): RowSet {
    return this.madeOncePerSearch(`filters\n${range.min} ${range.max} ${leaveOut ?? ''}`, () => this.makeFilterSet(universe, plan, range, leaveOut));
  }

  /** The set under key made in the search under way, else made now and kept until the search ends (searchHits). */
  private madeOncePerSearch(key: string, make: () => RowSet): RowSet {
    let set = this.searchHits.get(key);
    if (!set) {
      set = make();
      this.searchHits.set(key, set);
    }
    return set;
  }

  private makeFilterSet(universe: RowUniverse, plan: SearchPlan, range: KeyRange, leaveOut: FacetName | undefined): RowSet {
    const sets: RowSet[] = [];
    for (const [name, tokens] of plan.filters) if (name !== leaveOut) sets.push(this.union(universe, tokens.map((token) => this.tokenSet(universe, plan.lang, token))));
    if (plan.since) sets.push(this.union(universe, plan.since.map((token) => this.tokenSet(universe, plan.lang, token))));
    if (range.min > -Infinity || range.max < Infinity) sets.push(universe.keyRange(range.min, range.max));
    return this.intersection(universe, sets);
  }

  /**
   * The hits of a tier's match: the text, the filters and the range, without excluded rows. Made
   * once per search for what they are made of: tiers whose texts expand alike (a word without
   * typo candidates matches the same in the prefix and the typo tier) share them.
   */
  private hits(universe: RowUniverse, plan: SearchPlan, match: TermMatch, range: KeyRange = plan.dates, leaveOut?: FacetName): RowSet {
    const key = `${this.expansion.textExpression(plan.parsed?.groups ?? [], plan.lang, match)}\n${range.min} ${range.max} ${leaveOut ?? ''}`;
    return this.madeOncePerSearch(key, () => this.makeHits(universe, plan, match, range, leaveOut));
  }

  private makeHits(universe: RowUniverse, plan: SearchPlan, match: TermMatch, range: KeyRange, leaveOut: FacetName | undefined): RowSet {
    // Without filters the filter set is every live row, which every set is within already.
    const text = this.textSet(universe, plan, match);
    const filters = this.filterSet(universe, plan, range, leaveOut);
    const hits = filters === universe.all() ? text : text.and(filters);
    const excluded = plan.parsed?.excluded ?? [];
    if (excluded.length === 0) return hits;
    return hits.andNot(this.union(universe, excluded.map((term) => this.termSet(universe, plan.lang, term, 'exact', TEXT_COLUMNS))));
  }

  private idsOf(universe: RowUniverse, ordinals: readonly number[]): string[] {
    const ids = ordinals.map((ordinal) => universe.idAt(ordinal));
    return ids.every((id) => id !== undefined) ? (ids as string[]) : this.keyIds.idsOf(ordinals.map((ordinal) => universe.keyAt(ordinal)));
  }

  search(universe: RowUniverse, plan: SearchPlan, query: SearchQuery): SearchHits {
    try {
      return this.searchWithHits(universe, plan, query);
    } finally {
      this.searchHits.clear();
    }
  }

  private searchWithHits(universe: RowUniverse, plan: SearchPlan, query: SearchQuery): SearchHits {
    this.caches.rowSets.nextSearch();
    const all = this.hits(universe, plan, 'typo');
    const result: SearchHits = { total: all.count(), ids: [] };
    const page = plan.dateOrder ? this.datePage(universe, plan, query, all) : this.relevancePage(universe, plan, query, all);
    result.ids = page.ids;
    if (page.next) result.next = page.next;
    if (query.facets?.length) {
      result.facets = countFacets(query.facets, (name) =>
        this.facetColumns.count(universe, name, plan.filters.has(name) ? this.hits(universe, plan, 'typo', plan.dates, name) : all),
      );
    }
    return result;
  }

  /** A page in date order: after the cursor's position, or from the offset. One row more than the page tells whether more follow. */
  private datePage(universe: RowUniverse, plan: SearchPlan, query: SearchQuery, all: RowSet): Pick<SearchHits, 'ids' | 'next'> {
    const ascending = plan.dateOrder === 'newest';
    const from = query.after ? this.hits(universe, plan, 'typo', intersectRanges(plan.dates, afterPosition(this.db, query.after, plan.dateOrder ?? 'newest'))) : all;
    const ordinals = universe.page(from, query.after ? 0 : query.offset, query.limit + 1, ascending);
    const shown = ordinals.slice(0, query.limit);
    const ids = this.idsOf(universe, shown);
    const last = shown.at(-1);
    return { ids, ...(ordinals.length > query.limit && last !== undefined ? { next: { date: dateOfKey(universe.keyAt(last)), id: ids.at(-1) ?? '' } } : {}) };
  }

  /** A page in relevance order (relevance-walk.ts), the tiers as sets. */
  private relevancePage(universe: RowUniverse, plan: SearchPlan, query: SearchQuery, all: RowSet): Pick<SearchHits, 'ids' | 'next'> {
    const groups = plan.parsed?.groups ?? [];
    const text = new Map(WEIGHTED_MATCHES.map((match) => [match, this.expansion.textExpression(groups, plan.lang, match)]));
    const exact = this.hits(universe, plan, 'exact');
    const prefixed = text.get('prefix') === text.get('exact') ? exact : this.hits(universe, plan, 'prefix');
    const boost = plan.boost ? exact.and(this.tokenSet(universe, plan.lang, plan.boost)) : undefined;
    const parts: { kind: TierKind; set: RowSet; match: TermMatch }[] = [];
    if (boost && boost.count() > 0) parts.push({ kind: 'boost', set: boost, match: 'exact' }, { kind: 'exact', set: exact.andNot(boost), match: 'exact' });
    else parts.push({ kind: 'exact', set: exact, match: 'exact' });
    if (text.get('prefix') !== text.get('exact')) parts.push({ kind: 'prefix', set: prefixed.andNot(exact), match: 'prefix' });
    if (text.get('typo') !== text.get('prefix')) parts.push({ kind: 'typo', set: all.andNot(prefixed), match: 'typo' });
    // Only a tier of more than RANK_LIMIT rows puts title holders first; its title set (the words
    // as the tier matches them, in the title) is read then.
    const tiers: TierView[] = parts.map(({ kind, set, match }): TierView => {
      let titleSet: RowSet | undefined;
      return {
        kind,
        size: set.count(),
        ranked: (weights) => {
          const idf = weightsOf(weights, match, groups.length);
          const evidence = groups.map((group, i): TermEvidence<number> => {
            const inTitle = this.groupSet(universe, plan.lang, group, match, titleColumn(plan.lang));
            const inMetadata = this.groupSet(universe, plan.lang, group, match, METADATA_COLUMNS);
            return { idf: idf[i] ?? 0, inTitle: (ordinal) => inTitle.has(ordinal), inMetadata: (ordinal) => inMetadata.has(ordinal) };
          });
          return scoreRows(universe.page(set, 0, set.count(), true), evidence).map(({ row, score }) => ({ key: universe.keyAt(row), score }));
        },
        part: (title, fromKey, skip, limit) => {
          titleSet ??= this.textSet(universe, plan, match, titleColumn(plan.lang));
          let rows = title ? set.and(titleSet) : set.andNot(titleSet);
          if (fromKey > -Infinity) rows = rows.and(universe.keyRange(fromKey, Infinity));
          return { size: rows.count(), keys: universe.page(rows, skip, limit, true).map((ordinal) => universe.keyAt(ordinal)) };
        },
      };
    });
    const frozen: Frozen = readFrozen(query.after?.frozen, groups.length) ?? {
      modes: currentModes(tiers),
      weights: WEIGHTED_MATCHES.flatMap((match) => groups.map((group) => inverseDocumentFrequency(universe.rows, this.groupSet(universe, plan.lang, group, match, TEXT_COLUMNS).count()))),
    };
    const start = query.after ? { position: query.after, fromKey: afterPosition(this.db, query.after, 'newest').min } : { offset: query.offset };
    const rows = walkTiers(tiers, frozen, start, query.limit + 1);
    return this.pageOf(universe, rows, query.limit, frozenValues(frozen));
  }

  /** The ids of a walk's page and the position after it, when more rows follow. */
  private pageOf(universe: RowUniverse, rows: readonly WalkRow[], limit: number, frozen: number[]): Pick<SearchHits, 'ids' | 'next'> {
    const shown = rows.slice(0, limit);
    const known = shown.map((row) => universe.idOfKey(row.key));
    const ids = known.every((id) => id !== undefined) ? (known as string[]) : this.keyIds.idsOf(shown.map((row) => row.key));
    const last = shown.at(-1);
    return { ids, ...(rows.length > limit && last ? { next: { date: dateOfKey(last.key), id: ids.at(-1) ?? '', rank: last.rank, frozen } } : {}) };
  }
}
