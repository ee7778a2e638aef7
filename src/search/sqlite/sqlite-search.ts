import type { CanonicalRecord, Lang } from '../../domain/record.ts';
import { LANGS, yearOf } from '../../domain/record.ts';
import type { SearchIndex } from '../../domain/ports.ts';
import type { SearchFilters, SearchHits, SearchQuery } from '../../domain/search-query.ts';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import { SEARCH_COLUMNS, searchTable as ftsTable } from '../../store/sqlite/schema.ts';
import type { Statement } from 'better-sqlite3';
import type { SameTransactionIndex } from '../../store/sqlite/sqlite-store.ts';
import { dayNumber, keyBetween, spreadKeys } from './sort-key.ts';
import { foldDiacritics, indexTerms, indexText, parseQuery, quote, typoBudget } from './text.ts';
import type { QueryTerm } from './text.ts';
import { Vocabulary } from './typo.ts';
import { RowSetCache, RowUniverse } from './row-sets.ts';
import type { CoveredRowSet } from './row-sets.ts';
import { holdsPhrase, phraseTokens, rowTokens } from './row-match.ts';
import { inverseDocumentFrequency, rankRows } from './relevance.ts';
import type { TermEvidence } from './relevance.ts';
import type { RowSet } from './row-sets.ts';

const FTS_COLUMN_NAMES: readonly string[] = SEARCH_COLUMNS;
const FTS_COLUMNS = FTS_COLUMN_NAMES.join(', ');
const TEXT_COLUMNS = '{title notes model author prompt category}';
const METADATA_COLUMNS = '{model author category}';

/** One way a query term matches: a token sequence, its last token possibly a prefix. */
interface Alternative {
  tokens: string[];
  prefix: boolean;
}

/** A write of more rows than this logs "everything may have changed" rather than each key. */
const LOGGED_KEYS_PER_WRITE = 256;
/** Changes the log keeps; a process further behind rebuilds its row sets. */
const CHANGE_LOG_KEPT = 16384;

/** Hits above which relevance ranking gives way to a cheaper order (title matches first, then newest). */
export const RANK_LIMIT = 500;

/** Facet tokens carry a digit so they can never be mistaken for words of record text. */
function facetToken(name: keyof SearchFilters, value: string): string {
  return `${name}0${value.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
}

function facetsText(record: CanonicalRecord): string {
  return [facetToken('kind', record.kind), facetToken('format', record.format), facetToken('source', record.source), facetToken('year', yearOf(record.date))].join(' ');
}

/**
 * The records of one write, the last of each id only, in the order their sort keys ascend (date
 * descending, then id). FTS5 flushes its pending terms to a new segment whenever a row's id is
 * below the previous one's, so rows written in key order build a bulk import's index in a few
 * large segments instead of thousands of one-row ones.
 */
function inSortKeyOrder(records: readonly CanonicalRecord[]): CanonicalRecord[] {
  const lastOfEachId = [...new Map(records.map((record) => [record.id, record])).values()];
  return lastOfEachId.sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.date > b.date ? -1 : 1));
}

/** An alternative as FTS5 query syntax. */
function ftsAlternative(alternative: Alternative): string {
  return `${quote(alternative.tokens.join(' '))}${alternative.prefix ? ' *' : ''}`;
}

/** The facet tokens a search's filters ask for, all of which a hit must carry. */
function facetTokens(filters: SearchFilters): string[] {
  return (Object.entries(filters) as [keyof SearchFilters, string | undefined][])
    .filter((entry): entry is [keyof SearchFilters, string] => entry[1] !== undefined)
    .map(([name, value]) => facetToken(name, value));
}

/** Dictionary words only: typo candidates are never numbers, facet tokens or Chinese bigrams. */
const DICTIONARY_WORD = /^[a-z\u00df-\u024f]{3,}$/;
const FACET_TOKEN = /^(kind|format|source|year)0/;
/** A last word that opens more terms than this is matched with FTS5's own prefix query. */
const PREFIX_EXPANSION_LIMIT = 64;

type TermMatch = 'exact' | 'prefix' | 'typo';

/**
 * When searches use row sets (see row-sets.ts): `always`, `never` (FTS5 counts every time), or
 * `auto`: row sets, which follow ordinary writes through the change log; when they must be rebuilt
 * (a bulk write, or more changes than MIN_CHANGES_BEFORE_REBUILD and 1/32 of the rows), they are
 * rebuilt at most once per REBUILD_INTERVAL_MS and searches in between count with FTS5, so a
 * burst of bulk writes cannot turn every search into a rebuild.
 */
export type RowSetMode = 'always' | 'never' | 'auto';
const REBUILD_INTERVAL_MS = 1000;
const MIN_CHANGES_BEFORE_REBUILD = 1024;
/**
 * Testing one appended row against an expression (an FTS5 lookup, about 40 µs) costs about what
 * reading 128 of its rows does (about 0.3 µs each): a cached set further behind is read again.
 */
const ROWS_READ_PER_LOOKUP = 128;
/** How stale a vocabulary may grow after another process's bulk write before it is read again. */
const VOCABULARY_RELOAD_MS = 5000;
/** Memory bound of the row sets one process keeps (at 100,000 records a set takes 12.5 KB). */
const ROW_SET_CACHE_BYTES = 48 * 1024 * 1024;

/** A row as read back from FTS5 after a write: its column values, and their tokens when certain (row-match.ts). */
interface AppendedRow {
  values: string[];
  tokens: Map<string, string[]> | undefined;
}

interface LanguageState {
  vocabulary?: Vocabulary;
  vocabularyBuiltAt: number;
  /** A bulk write happened since the vocabulary was read. */
  vocabularyStale: boolean;
}

/** The embedded search index: FTS5 tables in the store's own database file. */
export class SqliteSearchIndex implements SearchIndex, SameTransactionIndex {
  private readonly statements;
  private readonly tables: { lang: Lang; insert: Statement; remove: Statement; move: Statement; text: Statement<[bigint], string[]> }[];
  private readonly languages = new Map<Lang, LanguageState>(LANGS.map((lang) => [lang, { vocabularyBuiltAt: 0, vocabularyStale: false }]));
  private readonly countCache = new Map<string, number>();
  private readonly prepared = new Map<string, Statement>();
  private seenDataVersion = -1;
  private localWrites = 0;
  private seenLocalWrites = 0;
  private seenChange = -1;
  private universe: RowUniverse | undefined;
  private universeBuiltAt = -Infinity;
  private readonly rowSets = new RowSetCache(ROW_SET_CACHE_BYTES);
  /** Rows appended to the universe, read once, by language and sort key (see appendedRow). */
  private readonly appendedRows = new Map<string, AppendedRow | undefined>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly rowSetMode: RowSetMode = 'auto',
  ) {
    this.statements = {
      keyOf: db.prepare<[string], { sort_key: number; day: number }>('SELECT sort_key, day FROM search_keys WHERE id = ?'),
      previousInDay: db.prepare<[number, string], { sort_key: number }>('SELECT sort_key FROM search_keys WHERE day = ? AND id < ? ORDER BY id DESC LIMIT 1'),
      nextInDay: db.prepare<[number, string], { sort_key: number }>('SELECT sort_key FROM search_keys WHERE day = ? AND id > ? ORDER BY id ASC LIMIT 1'),
      dayRows: db.prepare<[number], { sort_key: number; id: string }>('SELECT sort_key, id FROM search_keys WHERE day = ? ORDER BY id'),
      insertKey: db.prepare('INSERT INTO search_keys (sort_key, id, day) VALUES (?, ?, ?)'),
      moveKey: db.prepare('UPDATE search_keys SET sort_key = ? WHERE sort_key = ?'),
      deleteKey: db.prepare('DELETE FROM search_keys WHERE sort_key = ?'),
      countKeys: db.prepare<[], { total: number }>('SELECT count(*) AS total FROM search_keys'),
      allKeys: db.prepare<[], number>('SELECT sort_key FROM search_keys ORDER BY sort_key').pluck(),
      idOfKey: db.prepare<[number], string>('SELECT id FROM search_keys WHERE sort_key = ?').pluck(),
      dataVersion: db.prepare<[], { data_version: number }>('PRAGMA data_version'),
      logChange: db.prepare<[number | null]>('INSERT INTO search_changes (sort_key) VALUES (?)'),
      pruneChanges: db.prepare<[number]>('DELETE FROM search_changes WHERE seq <= ?'),
      lastChange: db.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM search_changes').pluck(),
      changesAfter: db.prepare<[number, number], { seq: number; sort_key: number | null }>('SELECT seq, sort_key FROM search_changes WHERE seq > ? ORDER BY seq LIMIT ?'),
      keyExists: db.prepare<[number], number>('SELECT 1 FROM search_keys WHERE sort_key = ?').pluck(),
    };
    this.tables = LANGS.map((lang) => ({
      lang,
      insert: db.prepare(`INSERT INTO ${ftsTable(lang)} (rowid, ${FTS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      remove: db.prepare(`DELETE FROM ${ftsTable(lang)} WHERE rowid = ?`),
      move: db.prepare(`UPDATE ${ftsTable(lang)} SET rowid = ? WHERE rowid = ?`),
      text: db.prepare<[bigint], string[]>(`SELECT ${FTS_COLUMNS} FROM ${ftsTable(lang)} WHERE rowid = ?`).raw(),
    }));
  }

  async upsert(records: readonly CanonicalRecord[]): Promise<void> {
    this.db.transaction(() => this.upsertInTransaction(records)).immediate();
  }

  async remove(ids: readonly string[]): Promise<void> {
    this.db.transaction(() => this.removeInTransaction(ids)).immediate();
  }

  upsertInTransaction(records: readonly CanonicalRecord[]): void {
    const changed: number[] = [];
    let renumbered = false;
    for (const record of inSortKeyOrder(records)) {
      const day = dayNumber(record.date);
      const existing = this.statements.keyOf.get(record.id);
      let key: number;
      if (existing && existing.day === day) {
        key = existing.sort_key;
        for (const table of this.tables) table.remove.run(key);
      } else {
        if (existing) {
          this.removeKey(existing.sort_key);
          changed.push(existing.sort_key);
        }
        const allocated = this.allocateKey(day, record.id);
        key = allocated.key;
        renumbered ||= allocated.renumbered;
      }
      changed.push(key);
      for (const { lang, insert } of this.tables) {
        insert.run(
          key,
          indexText(record.title[lang]),
          indexText(record.notes[lang]),
          indexText(record.model),
          indexText(record.author),
          indexText(record.prompt ?? ''),
          indexText(record.promptCategory.replace(/[-_]/g, ' ')),
          facetsText(record),
        );
      }
    }
    this.logChanges(renumbered ? undefined : changed);
  }

  removeInTransaction(ids: readonly string[]): void {
    const changed: number[] = [];
    for (const id of ids) {
      const existing = this.statements.keyOf.get(id);
      if (existing) {
        this.removeKey(existing.sort_key);
        changed.push(existing.sort_key);
      }
    }
    this.logChanges(changed);
  }

  /** Logs the sort keys a write touched (undefined: any key may have changed), for every process's row sets. */
  private logChanges(keys: readonly number[] | undefined): void {
    this.localWrites += 1;
    if (keys?.length === 0) return;
    const logged = keys === undefined || keys.length > LOGGED_KEYS_PER_WRITE ? [null] : keys;
    let seq = 0;
    for (const key of logged) seq = Number(this.statements.logChange.run(key).lastInsertRowid);
    if (seq % 1024 < logged.length) this.statements.pruneChanges.run(seq - CHANGE_LOG_KEPT);
  }

  private removeKey(key: number): void {
    this.statements.deleteKey.run(key);
    for (const table of this.tables) table.remove.run(key);
  }

  /** A new sort key for a record, and whether the day's other keys had to move to make room. */
  private allocateKey(day: number, id: string): { key: number; renumbered: boolean } {
    const previous = this.statements.previousInDay.get(day, id)?.sort_key;
    const next = this.statements.nextInDay.get(day, id)?.sort_key;
    let key = keyBetween(day, previous, next);
    const renumbered = key === undefined;
    if (key === undefined) {
      this.renumberDay(day);
      key = keyBetween(day, this.statements.previousInDay.get(day, id)?.sort_key, this.statements.nextInDay.get(day, id)?.sort_key);
      if (key === undefined) throw new Error(`no sort key left for day ${day}`);
    }
    this.statements.insertKey.run(key, id, day);
    return { key, renumbered };
  }

  /** Spreads a day's keys evenly again; rare, when repeated inserts between two neighbours used up the gap. */
  private renumberDay(day: number): void {
    const rows = this.statements.dayRows.all(day);
    const keys = spreadKeys(day, rows.length + 1);
    const move = (from: number, to: number): void => {
      // FTS5 takes a new rowid only as an SQL integer, so bind BigInts rather than doubles.
      this.statements.moveKey.run(BigInt(to), BigInt(from));
      for (const table of this.tables) table.move.run(BigInt(to), BigInt(from));
    };
    // Park every row on a negative key first so no new key collides with an old one.
    for (const row of rows) move(row.sort_key, -row.sort_key - 1);
    rows.forEach((row, i) => move(-row.sort_key - 1, keys[i] ?? 0));
  }

  /**
   * Brings cached counts, row sets and vocabularies up to the search tables as they are now, when
   * this or another connection has changed them: row sets follow the change log where they can
   * (see RowUniverse) and are dropped for a rebuild otherwise. Writes to other tables (the
   * submission queue) change the database but not the search tables, and leave every cache alone.
   */
  private refreshCaches(): void {
    const dataVersion = this.statements.dataVersion.get()?.data_version ?? 0;
    if (dataVersion === this.seenDataVersion && this.localWrites === this.seenLocalWrites) return;
    const changedHere = this.localWrites !== this.seenLocalWrites;
    this.seenDataVersion = dataVersion;
    this.seenLocalWrites = this.localWrites;
    const lastChange = this.statements.lastChange.get() ?? 0;
    if (lastChange === this.seenChange) return;
    this.countCache.clear();
    const keys = this.changedKeys(lastChange);
    this.seenChange = lastChange;
    for (const key of keys ?? []) for (const lang of LANGS) this.appendedRows.delete(`${lang}:${key}`);
    if (keys === undefined) {
      this.universe = undefined;
      this.rowSets.clear();
      this.appendedRows.clear();
      for (const state of this.languages.values()) {
        // Writes of this connection reload the vocabulary at once; writes of other processes once it is a few seconds old.
        state.vocabularyStale = true;
        if (changedHere) state.vocabulary = undefined;
      }
      return;
    }
    const present = keys.filter((key) => this.statements.keyExists.get(key) !== undefined);
    const universe = this.universe;
    if (universe && universe.changes + keys.length > Math.max(MIN_CHANGES_BEFORE_REBUILD, universe.ordered >>> 5)) {
      this.universe = undefined;
      this.rowSets.clear();
      this.appendedRows.clear();
    } else if (universe) {
      for (const key of keys) universe.kill(key);
      for (const key of present) universe.append(key);
    }
    for (const lang of LANGS) {
      const vocabulary = this.languages.get(lang)?.vocabulary;
      if (!vocabulary) continue;
      const terms = new Set<string>();
      for (const key of present) {
        const row = this.appendedRow(lang, key);
        const columns = row?.tokens ? [...row.tokens.values()] : (row?.values ?? []).map((value) => indexTerms(value ?? ''));
        for (const term of columns.flat()) if (!FACET_TOKEN.test(term)) terms.add(term);
      }
      vocabulary.add(terms);
    }
    // Rows are kept for testing against the universe's sets; without one there is nothing to test.
    if (!this.universe) this.appendedRows.clear();
  }

  /** The sort keys the logged changes after the last one seen touched; undefined when any key may have changed (a bulk write, or a log pruned past that point). */
  private changedKeys(lastChange: number): number[] | undefined {
    const pending = lastChange - this.seenChange;
    if (this.seenChange < 0 || pending <= 0 || pending > MIN_CHANGES_BEFORE_REBUILD * 4) return undefined;
    const changes = this.statements.changesAfter.all(this.seenChange, pending);
    // The log is contiguous unless pruned past what this process saw.
    if (changes.length !== pending || changes[0]?.seq !== this.seenChange + 1) return undefined;
    const keys = new Set<number>();
    for (const change of changes) {
      if (change.sort_key === null) return undefined;
      keys.add(change.sort_key);
    }
    return [...keys];
  }

  private vocabulary(lang: Lang): Vocabulary {
    const state = this.languages.get(lang) ?? { vocabularyBuiltAt: 0, vocabularyStale: false };
    if (state.vocabulary && state.vocabularyStale && Date.now() - state.vocabularyBuiltAt > VOCABULARY_RELOAD_MS) state.vocabulary = undefined;
    if (!state.vocabulary) {
      const rows = this.db.prepare<[], { term: string; doc: number }>(`SELECT term, doc FROM ${ftsTable(lang)}_vocab`).all();
      state.vocabulary = new Vocabulary(
        rows.filter((row) => !FACET_TOKEN.test(row.term)).map((row) => ({ term: row.term, documents: row.doc })),
        (term) => DICTIONARY_WORD.test(term),
      );
      state.vocabularyBuiltAt = Date.now();
      state.vocabularyStale = false;
      this.languages.set(lang, state);
    }
    return state.vocabulary;
  }

  /**
   * Loads the vocabularies ahead of the first query, in one snapshot with the change log's
   * position, so the writes that follow are added to them rather than waiting for a reload.
   */
  warm(): void {
    this.db
      .transaction(() => {
        this.refreshCaches();
        for (const lang of LANGS) this.vocabulary(lang);
      })
      .deferred();
  }

  private cachedStatement(sql: string): Statement {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (this.prepared.size > 200) this.prepared.clear();
      this.prepared.set(sql, statement);
    }
    return statement;
  }

  private countMatches(lang: Lang, expression: string): number {
    const cacheKey = `${lang}\u0000${expression}`;
    const cached = this.countCache.get(cacheKey);
    if (cached !== undefined) return cached;
    const row = this.cachedStatement(`SELECT count(*) AS total FROM ${ftsTable(lang)} WHERE ${ftsTable(lang)} MATCH ?`).get(expression) as { total: number };
    if (this.countCache.size > 50000) this.countCache.clear();
    this.countCache.set(cacheKey, row.total);
    return row.total;
  }

  /** Ids of one page of hits, ordered by rowid (date descending then id) or its reverse. */
  private idsByKey(lang: Lang, expression: string, direction: 'ASC' | 'DESC', offset: number, limit: number): string[] {
    const table = ftsTable(lang);
    const rows = this.cachedStatement(
      `SELECT k.id FROM (SELECT rowid AS r FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid ${direction} LIMIT ? OFFSET ?) m JOIN search_keys k ON k.sort_key = m.r ORDER BY k.sort_key ${direction}`,
    ).all(expression, limit, offset) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /**
   * A prefix as the OR of the index terms it opens: unlike FTS5's prefix query, which merges every
   * matching doclist in memory first, an OR of terms streams and stops after the page.
   */
  private prefixAlternatives(lang: Lang, prefix: string): Alternative[] {
    const terms = this.vocabulary(lang).withPrefix(prefix, PREFIX_EXPANSION_LIMIT);
    if (terms === undefined) return [{ tokens: [prefix], prefix: true }];
    if (terms.length === 0) return [{ tokens: [prefix], prefix: false }];
    return terms.map((term) => ({ tokens: [term], prefix: false }));
  }

  /** How a term is matched in one tier, as alternatives any of which matches: as written, also as a prefix (last word), also with typos. */
  private termAlternatives(term: QueryTerm, lang: Lang, match: TermMatch): Alternative[] {
    if (term.type === 'phrase') {
      const last = term.tokens.at(-1) ?? '';
      if (term.tokens.length === 1 && term.prefixLast) return this.prefixAlternatives(lang, last);
      return [{ tokens: term.tokens, prefix: term.prefixLast && match !== 'exact' }];
    }
    const alternatives = match !== 'exact' && term.last && [...term.word].length >= 2 ? this.prefixAlternatives(lang, foldDiacritics(term.word)) : [{ tokens: [term.word], prefix: false }];
    if (match === 'typo') {
      const folded = foldDiacritics(term.word);
      for (const candidate of this.vocabulary(lang).candidates(folded, typoBudget(folded))) alternatives.push({ tokens: [candidate], prefix: false });
    }
    return alternatives;
  }

  private termExpression(term: QueryTerm, lang: Lang, match: TermMatch): string {
    const alternatives = this.termAlternatives(term, lang, match).map(ftsAlternative);
    return alternatives.length === 1 ? (alternatives[0] ?? '') : `(${alternatives.join(' OR ')})`;
  }

  private textExpression(terms: readonly QueryTerm[], lang: Lang, match: TermMatch, columns: string = TEXT_COLUMNS): string {
    return `${columns} : (${terms.map((term) => this.termExpression(term, lang, match)).join(' AND ')})`;
  }

  /** One search, read from one snapshot of the database so its total, sets and page agree. */
  async search(query: SearchQuery): Promise<SearchHits> {
    return this.db.transaction(() => this.searchSnapshot(query)).deferred();
  }

  private searchSnapshot(query: SearchQuery): SearchHits {
    this.refreshCaches();
    const { offset, limit } = query;
    const text = query.text?.trim();
    const direction = query.order === 'oldest' ? 'DESC' : 'ASC';
    const facets = facetTokens(query.filters);
    if (!text && facets.length === 0) {
      const total = this.statements.countKeys.get()?.total ?? 0;
      const rows = this.cachedStatement(`SELECT id FROM search_keys ORDER BY sort_key ${direction} LIMIT ? OFFSET ?`).all(limit, offset) as { id: string }[];
      return { total, ids: rows.map((row) => row.id) };
    }
    const terms = text ? parseQuery(text) : [];
    if (text && terms.length === 0) return { total: 0, ids: [] };
    const universe = this.currentUniverse();
    if (universe) return this.searchRowSets(universe, query, terms, facets);
    return this.searchFts(query, terms, facets);
  }

  /** The rows as they are now, rebuilt after writes as the row-set mode allows; undefined means count with FTS5. */
  private currentUniverse(): RowUniverse | undefined {
    if (this.rowSetMode === 'never') return undefined;
    if (!this.universe) {
      if (this.rowSetMode === 'auto' && performance.now() - this.universeBuiltAt < REBUILD_INTERVAL_MS) return undefined;
      this.universe = new RowUniverse(Float64Array.from(this.statements.allKeys.all()));
      this.universeBuiltAt = performance.now();
    }
    return this.universe;
  }

  /**
   * The rows matching one FTS5 expression (a term in its columns, or a facet token), read once and
   * cached; rows appended since are each tested against the expression, unless reading the set
   * again costs less, and rows killed since are taken out, so every set holds live rows only.
   */
  private rowSet(universe: RowUniverse, lang: Lang, columns: string, alternative: Alternative): RowSet {
    const expression = `${columns} : ${ftsAlternative(alternative)}`;
    const cacheKey = `${lang}\u0000${expression}`;
    const cached = this.rowSets.get(cacheKey);
    if (cached?.covered === universe.size && cached.kills === universe.kills) return cached.set;
    let set: RowSet | undefined;
    if (cached) {
      const added = cached.covered === universe.size ? [] : this.appendedMatches(universe, lang, columns, alternative, expression, cached);
      if (added) set = universe.live(added.length > 0 ? cached.set.with(added, universe.words) : cached.set);
    }
    set ??= universe.setOf(this.cachedStatement(`SELECT rowid FROM ${ftsTable(lang)} WHERE ${ftsTable(lang)} MATCH ?`).pluck().all(expression) as number[]);
    this.rowSets.set(cacheKey, { set, covered: universe.size, kills: universe.kills });
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
    const table = ftsTable(lang);
    let lookupsLeft = 1 + cached.set.count() / ROWS_READ_PER_LOOKUP;
    const added: number[] = [];
    for (let ordinal = cached.covered; ordinal < universe.size; ordinal += 1) {
      if (!universe.isLive(ordinal)) continue;
      const key = universe.keyAt(ordinal);
      const row = phrase && this.appendedRow(lang, key)?.tokens;
      if (phrase && row) {
        if (holdsPhrase(row, phrase)) added.push(ordinal);
        continue;
      }
      lookupsLeft -= 1;
      if (lookupsLeft < 0) return undefined;
      // FTS5 applies a rowid constraint only to an SQL integer, so keys are bound as BigInts.
      if (this.cachedStatement(`SELECT 1 FROM ${table} WHERE ${table} MATCH ? AND rowid = ?`).get(expression, BigInt(key)) !== undefined) added.push(ordinal);
    }
    return added;
  }

  /** An appended row, read once for both its tests (appendedMatches) and its vocabulary terms; undefined when it is gone. */
  private appendedRow(lang: Lang, key: number): AppendedRow | undefined {
    const cacheKey = `${lang}:${key}`;
    if (!this.appendedRows.has(cacheKey)) {
      const values = this.tables.find((table) => table.lang === lang)?.text.get(BigInt(key));
      this.appendedRows.set(cacheKey, values ? { values, tokens: rowTokens(FTS_COLUMN_NAMES, values) } : undefined);
    }
    return this.appendedRows.get(cacheKey);
  }

  /** Rows holding every term (each as the tier matches it) in the given columns and every facet. */
  private termsSet(universe: RowUniverse, lang: Lang, terms: readonly QueryTerm[], match: TermMatch, facets: readonly string[], columns = TEXT_COLUMNS): RowSet {
    const termSet = (term: QueryTerm): RowSet => {
      const [first, ...others] = this.termAlternatives(term, lang, match).map((alternative) => this.rowSet(universe, lang, columns, alternative));
      return others.reduce((union, set) => union.or(set), first ?? universe.none());
    };
    const sets = [...terms.map(termSet), ...facets.map((token) => this.rowSet(universe, lang, '{facets}', { tokens: [token], prefix: false }))].sort((a, b) => a.count() - b.count());
    return sets.slice(1).reduce((result, set) => result.and(set), sets[0] ?? universe.all());
  }

  private idsOf(universe: RowUniverse, ordinals: readonly number[]): string[] {
    return ordinals.map((ordinal) => this.statements.idOfKey.get(universe.keyAt(ordinal)) ?? '');
  }

  private searchRowSets(universe: RowUniverse, query: SearchQuery, terms: readonly QueryTerm[], facets: readonly string[]): SearchHits {
    const { lang, offset, limit } = query;
    const ascending = query.order !== 'oldest';
    if (query.order !== 'relevance' || terms.length === 0) {
      const hits = this.termsSet(universe, lang, terms, 'typo', facets);
      return { total: hits.count(), ids: this.idsOf(universe, universe.page(hits, offset, limit, ascending)) };
    }
    // Relevance: the same three disjoint tiers as searchFts, each a set.
    const expressions = this.tierExpressions(lang, terms, facets);
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

  /** The FTS5 expressions of the three tiers: words as written, the last as a prefix, and with typos. */
  private tierExpressions(lang: Lang, terms: readonly QueryTerm[], facets: readonly string[]): { exact: string; prefixed: string; expanded: string } {
    const filters = facets.length ? `{facets} : (${facets.map(quote).join(' AND ')})` : undefined;
    const withFilters = (expression: string): string => (filters ? `(${expression}) AND (${filters})` : expression);
    return {
      exact: withFilters(this.textExpression(terms, lang, 'exact')),
      prefixed: withFilters(this.textExpression(terms, lang, 'prefix')),
      expanded: withFilters(this.textExpression(terms, lang, 'typo')),
    };
  }

  /** The same answers as searchRowSets, with FTS5 counting every time. */
  private searchFts(query: SearchQuery, terms: readonly QueryTerm[], facets: readonly string[]): SearchHits {
    const { lang, offset, limit } = query;
    const direction = query.order === 'oldest' ? 'DESC' : 'ASC';
    if (terms.length === 0) {
      const filters = `{facets} : (${facets.map(quote).join(' AND ')})`;
      return { total: this.countMatches(lang, filters), ids: this.idsByKey(lang, filters, direction, offset, limit) };
    }
    const { exact, prefixed, expanded } = this.tierExpressions(lang, terms, facets);
    if (query.order !== 'relevance') {
      return { total: this.countMatches(lang, expanded), ids: this.idsByKey(lang, expanded, direction, offset, limit) };
    }
    // Relevance: whole words as written first, then the last word as a prefix, then words with typos;
    // each tier is ranked on its own, so a typo never outranks what the reader actually typed.
    const tiers: { expression: string; match: TermMatch }[] = [{ expression: exact, match: 'exact' }];
    if (prefixed !== exact) tiers.push({ expression: `(${prefixed}) NOT (${exact})`, match: 'prefix' });
    if (expanded !== prefixed) tiers.push({ expression: `(${expanded}) NOT (${prefixed})`, match: 'typo' });
    const titleOnly = this.textExpression(terms, lang, 'prefix', '{title}');
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
        ids.push(...ranked.slice(skip, skip + limit - ids.length).map((key) => this.statements.idOfKey.get(key) ?? ''));
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
    const table = ftsTable(lang);
    return this.cachedStatement(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid`).pluck().all(expression) as number[];
  }

  /** The relevance evidence of each term for the rows of a tier, from FTS5 (the path without row sets). */
  private termEvidence(lang: Lang, terms: readonly QueryTerm[], match: TermMatch, tier: string): TermEvidence<number>[] {
    const rows = this.statements.countKeys.get()?.total ?? 0;
    return terms.map((term) => {
      const expression = this.termExpression(term, lang, match);
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
    const cached = this.countCache.get(cacheKey);
    if (cached !== undefined) return cached > limit;
    const table = ftsTable(lang);
    const row = this.cachedStatement(`SELECT count(*) AS total FROM (SELECT rowid FROM ${table} WHERE ${table} MATCH ? LIMIT ?)`).get(expression, limit + 1) as { total: number };
    this.countCache.set(cacheKey, row.total);
    return row.total > limit;
  }

  async count(): Promise<number> {
    return this.statements.countKeys.get()?.total ?? 0;
  }

  async ping(): Promise<void> {
    this.statements.countKeys.get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
