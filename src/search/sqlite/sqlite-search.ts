import type { CanonicalRecord, Lang } from '../../domain/record.ts';
import { LANGS, yearOf } from '../../domain/record.ts';
import type { SearchIndex } from '../../domain/ports.ts';
import type { SearchFilters, SearchHits, SearchQuery } from '../../domain/search-query.ts';
import { migrate } from '../../store/sqlite/database.ts';
import type { Migration, SqliteDatabase } from '../../store/sqlite/database.ts';
import type { Statement } from 'better-sqlite3';
import type { SameTransactionIndex } from '../../store/sqlite/sqlite-store.ts';
import { dayNumber, keyBetween, spreadKeys } from './sort-key.ts';
import { foldDiacritics, indexText, parseQuery, quote, typoBudget } from './text.ts';
import type { QueryTerm } from './text.ts';
import { Vocabulary } from './typo.ts';

const FTS_COLUMNS = 'title, notes, model, author, prompt, category, facets';
const TEXT_COLUMNS = '{title notes model author prompt category}';
/** bm25 column weights: a word in the title counts most, then model, author, category, notes and prompt. */
const BM25_WEIGHTS = '10.0, 1.0, 5.0, 3.0, 1.0, 2.0, 0.0';

function ftsTable(lang: Lang): string {
  return `search_${lang}`;
}

const SEARCH_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'sort keys and one FTS5 table per language',
    sql: `
      CREATE TABLE search_keys (sort_key INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, day INTEGER NOT NULL);
      CREATE INDEX search_keys_day_id ON search_keys (day, id);
      ${LANGS.map(
        (lang) => `
        CREATE VIRTUAL TABLE ${ftsTable(lang)} USING fts5(${FTS_COLUMNS}, tokenize = "unicode61 remove_diacritics 2");
        CREATE VIRTUAL TABLE ${ftsTable(lang)}_vocab USING fts5vocab(${ftsTable(lang)}, row);`,
      ).join('\n')}
    `,
  },
];

/** Hits above which relevance ranking gives way to a cheaper order (title matches first, then newest). */
export const RANK_LIMIT = 500;

/** Facet tokens carry a digit so they can never be mistaken for words of record text. */
function facetToken(name: keyof SearchFilters, value: string): string {
  return `${name}0${value.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
}

function facetsText(record: CanonicalRecord): string {
  return [facetToken('kind', record.kind), facetToken('format', record.format), facetToken('source', record.source), facetToken('year', yearOf(record.date))].join(' ');
}

function filterExpression(filters: SearchFilters): string | undefined {
  const tokens = (Object.entries(filters) as [keyof SearchFilters, string | undefined][])
    .filter((entry): entry is [keyof SearchFilters, string] => entry[1] !== undefined)
    .map(([name, value]) => quote(facetToken(name, value)));
  return tokens.length ? `{facets} : (${tokens.join(' AND ')})` : undefined;
}

/** Dictionary words only: typo candidates are never numbers, facet tokens or Chinese bigrams. */
const DICTIONARY_WORD = /^[a-z\u00df-\u024f]{3,}$/;
const FACET_TOKEN = /^(kind|format|source|year)0/;
/** A last word that opens more terms than this is matched with FTS5's own prefix query. */
const PREFIX_EXPANSION_LIMIT = 64;

type TermMatch = 'exact' | 'prefix' | 'typo';

interface LanguageState {
  vocabulary?: Vocabulary;
  vocabularyBuiltAt: number;
}

/** The embedded search index: FTS5 tables in the store's own database file. */
export class SqliteSearchIndex implements SearchIndex, SameTransactionIndex {
  private readonly statements;
  private readonly tables: { lang: Lang; insert: Statement; remove: Statement; move: Statement }[];
  private readonly languages = new Map<Lang, LanguageState>(LANGS.map((lang) => [lang, { vocabularyBuiltAt: 0 }]));
  private readonly countCache = new Map<string, number>();
  private readonly prepared = new Map<string, Statement>();
  private seenDataVersion = -1;
  private localWrites = 0;
  private seenLocalWrites = 0;

  constructor(private readonly db: SqliteDatabase) {
    this.statements = {
      keyOf: db.prepare<[string], { sort_key: number; day: number }>('SELECT sort_key, day FROM search_keys WHERE id = ?'),
      previousInDay: db.prepare<[number, string], { sort_key: number }>('SELECT sort_key FROM search_keys WHERE day = ? AND id < ? ORDER BY id DESC LIMIT 1'),
      nextInDay: db.prepare<[number, string], { sort_key: number }>('SELECT sort_key FROM search_keys WHERE day = ? AND id > ? ORDER BY id ASC LIMIT 1'),
      dayRows: db.prepare<[number], { sort_key: number; id: string }>('SELECT sort_key, id FROM search_keys WHERE day = ? ORDER BY id'),
      insertKey: db.prepare('INSERT INTO search_keys (sort_key, id, day) VALUES (?, ?, ?)'),
      moveKey: db.prepare('UPDATE search_keys SET sort_key = ? WHERE sort_key = ?'),
      deleteKey: db.prepare('DELETE FROM search_keys WHERE sort_key = ?'),
      countKeys: db.prepare<[], { total: number }>('SELECT count(*) AS total FROM search_keys'),
      dataVersion: db.prepare<[], { data_version: number }>('PRAGMA data_version'),
    };
    this.tables = LANGS.map((lang) => ({
      lang,
      insert: db.prepare(`INSERT INTO ${ftsTable(lang)} (rowid, ${FTS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      remove: db.prepare(`DELETE FROM ${ftsTable(lang)} WHERE rowid = ?`),
      move: db.prepare(`UPDATE ${ftsTable(lang)} SET rowid = ? WHERE rowid = ?`),
    }));
  }

  /** Creates or upgrades the search tables. */
  static migrate(db: SqliteDatabase): void {
    migrate(db, 'search', SEARCH_MIGRATIONS);
  }

  async upsert(records: readonly CanonicalRecord[]): Promise<void> {
    this.db.transaction(() => this.upsertInTransaction(records)).immediate();
  }

  async remove(ids: readonly string[]): Promise<void> {
    this.db.transaction(() => this.removeInTransaction(ids)).immediate();
  }

  upsertInTransaction(records: readonly CanonicalRecord[]): void {
    for (const record of records) {
      const day = dayNumber(record.date);
      const existing = this.statements.keyOf.get(record.id);
      let key: number;
      if (existing && existing.day === day) {
        key = existing.sort_key;
        for (const table of this.tables) table.remove.run(key);
      } else {
        if (existing) this.removeKey(existing.sort_key);
        key = this.allocateKey(day, record.id);
      }
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
    this.localWrites += 1;
  }

  removeInTransaction(ids: readonly string[]): void {
    for (const id of ids) {
      const existing = this.statements.keyOf.get(id);
      if (existing) this.removeKey(existing.sort_key);
    }
    this.localWrites += 1;
  }

  private removeKey(key: number): void {
    this.statements.deleteKey.run(key);
    for (const table of this.tables) table.remove.run(key);
  }

  private allocateKey(day: number, id: string): number {
    const previous = this.statements.previousInDay.get(day, id)?.sort_key;
    const next = this.statements.nextInDay.get(day, id)?.sort_key;
    let key = keyBetween(day, previous, next);
    if (key === undefined) {
      this.renumberDay(day);
      key = keyBetween(day, this.statements.previousInDay.get(day, id)?.sort_key, this.statements.nextInDay.get(day, id)?.sort_key);
      if (key === undefined) throw new Error(`no sort key left for day ${day}`);
    }
    this.statements.insertKey.run(key, id, day);
    return key;
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

  /** Drops cached counts and vocabulary when this or another connection has written. */
  private refreshCaches(): void {
    const dataVersion = this.statements.dataVersion.get()?.data_version ?? 0;
    if (dataVersion === this.seenDataVersion && this.localWrites === this.seenLocalWrites) return;
    const changedHere = this.localWrites !== this.seenLocalWrites;
    this.seenDataVersion = dataVersion;
    this.seenLocalWrites = this.localWrites;
    this.countCache.clear();
    for (const state of this.languages.values()) {
      // Writes of this connection rebuild the vocabulary at once; writes of other processes at most every few seconds.
      if (changedHere || Date.now() - state.vocabularyBuiltAt > 5000) state.vocabulary = undefined;
    }
  }

  private vocabulary(lang: Lang): Vocabulary {
    const state = this.languages.get(lang) ?? { vocabularyBuiltAt: 0 };
    if (!state.vocabulary) {
      const rows = this.db.prepare<[], { term: string; doc: number }>(`SELECT term, doc FROM ${ftsTable(lang)}_vocab`).all();
      state.vocabulary = new Vocabulary(
        rows.filter((row) => !FACET_TOKEN.test(row.term)).map((row) => ({ term: row.term, documents: row.doc })),
        (term) => DICTIONARY_WORD.test(term),
      );
      state.vocabularyBuiltAt = Date.now();
      this.languages.set(lang, state);
    }
    return state.vocabulary;
  }

  /** Loads the vocabularies ahead of the first query. */
  warm(): void {
    for (const lang of LANGS) this.vocabulary(lang);
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

  /** Ids of one page of hits ordered by bm25, ties by date descending then id. */
  private idsByRelevance(lang: Lang, expression: string, offset: number, limit: number): string[] {
    const table = ftsTable(lang);
    const rows = this.cachedStatement(
      `SELECT k.id FROM (SELECT rowid AS r, bm25(${table}, ${BM25_WEIGHTS}) AS score FROM ${table} WHERE ${table} MATCH ? ORDER BY score, rowid LIMIT ? OFFSET ?) m JOIN search_keys k ON k.sort_key = m.r ORDER BY m.score, m.r`,
    ).all(expression, limit, offset) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /**
   * A prefix as the OR of the index terms it opens: unlike FTS5's prefix query, which merges every
   * matching doclist in memory first, an OR of terms streams and stops after the page.
   */
  private prefixExpression(lang: Lang, prefix: string): string {
    const terms = this.vocabulary(lang).withPrefix(prefix, PREFIX_EXPANSION_LIMIT);
    if (terms === undefined) return `${quote(prefix)} *`;
    if (terms.length === 0) return quote(prefix);
    return terms.length === 1 ? quote(terms[0] ?? prefix) : `(${terms.map(quote).join(' OR ')})`;
  }

  /** How a term is matched in one tier: as written, also as a prefix (last word), also with typos. */
  private termExpression(term: QueryTerm, lang: Lang, match: TermMatch): string {
    if (term.type === 'phrase') {
      const last = term.tokens.at(-1) ?? '';
      if (term.tokens.length === 1 && term.prefixLast) return this.prefixExpression(lang, last);
      return `${quote(term.tokens.join(' '))}${term.prefixLast && match !== 'exact' ? ' *' : ''}`;
    }
    const alternatives = [match !== 'exact' && term.last && [...term.word].length >= 2 ? this.prefixExpression(lang, foldDiacritics(term.word)) : quote(term.word)];
    if (match === 'typo') {
      const folded = foldDiacritics(term.word);
      for (const candidate of this.vocabulary(lang).candidates(folded, typoBudget(folded))) alternatives.push(quote(candidate));
    }
    return alternatives.length === 1 ? (alternatives[0] ?? '') : `(${alternatives.join(' OR ')})`;
  }

  private textExpression(terms: readonly QueryTerm[], lang: Lang, match: TermMatch, columns = TEXT_COLUMNS): string {
    return `${columns} : (${terms.map((term) => this.termExpression(term, lang, match)).join(' AND ')})`;
  }

  async search(query: SearchQuery): Promise<SearchHits> {
    this.refreshCaches();
    const { lang, offset, limit } = query;
    const filters = filterExpression(query.filters);
    const text = query.text?.trim();
    const direction = query.order === 'oldest' ? 'DESC' : 'ASC';
    if (!text) {
      if (!filters) {
        const total = this.statements.countKeys.get()?.total ?? 0;
        const rows = this.cachedStatement(`SELECT id FROM search_keys ORDER BY sort_key ${direction} LIMIT ? OFFSET ?`).all(limit, offset) as { id: string }[];
        return { total, ids: rows.map((row) => row.id) };
      }
      return { total: this.countMatches(lang, filters), ids: this.idsByKey(lang, filters, direction, offset, limit) };
    }
    const terms = parseQuery(text);
    if (terms.length === 0) return { total: 0, ids: [] };
    const withFilters = (expression: string): string => (filters ? `(${expression}) AND (${filters})` : expression);
    const exact = withFilters(this.textExpression(terms, lang, 'exact'));
    const prefixed = withFilters(this.textExpression(terms, lang, 'prefix'));
    const expanded = withFilters(this.textExpression(terms, lang, 'typo'));
    if (query.order !== 'relevance') {
      return { total: this.countMatches(lang, expanded), ids: this.idsByKey(lang, expanded, direction, offset, limit) };
    }
    // Relevance: whole words as written first, then the last word as a prefix, then words with typos;
    // each tier is ranked on its own, so a typo never outranks what the reader actually typed.
    const tiers = [exact];
    if (prefixed !== exact) tiers.push(`(${prefixed}) NOT (${exact})`);
    if (expanded !== prefixed) tiers.push(`(${expanded}) NOT (${prefixed})`);
    const titleOnly = this.textExpression(terms, lang, 'prefix', '{title}');
    return this.pageThroughTiers(lang, expanded, tiers, titleOnly, offset, limit);
  }

  /**
   * One page across disjoint tiers. Only the total is always counted in full; a tier is counted
   * in full only when the page starts beyond it, and is otherwise asked only whether it holds
   * more than RANK_LIMIT hits (a count that stops there), because counting is what costs.
   */
  private pageThroughTiers(lang: Lang, union: string, tiers: readonly string[], titleOnly: string, offset: number, limit: number): SearchHits {
    const total = this.countMatches(lang, union);
    const ids: string[] = [];
    if (offset >= total) return { total, ids };
    let skip = offset;
    let before = 0;
    tiers.forEach((tier, index) => {
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
        ids.push(...this.idsByRelevance(lang, tier, skip, limit - ids.length));
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
