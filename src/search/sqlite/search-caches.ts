/**
 * What a process keeps in memory to search fast, and how it stays current: the row universe and
 * its cached row sets (row-sets.ts), the vocabulary (typo.ts), counts of FTS5
 * expressions, and rows appended since the sets were read. All follow the search change log
 * written by SearchIndexWriter, in this or any other process.
 */
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import { docOfIdSql, SEARCH_COLUMNS, SEARCH_TABLE } from '../../store/sqlite/schema.ts';
import type { SearchChangeLog } from './change-log.ts';
import { FACET_TOKEN } from './facets.ts';
import type { SearchIndexWriter } from './index-writer.ts';
import { rowTokens } from './row-match.ts';
import { RowSetCache, RowUniverse } from './row-sets.ts';
import { indexTerms, TRIGRAM_BLOCK_SEPARATOR } from './text.ts';
import { textColumnsOfDoc } from './index-row.ts';
import { Vocabulary } from './typo.ts';
import { VocabularySnapshot } from './vocabulary-snapshot.ts';
import type { VocabularyScan } from './vocabulary-snapshot.ts';

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
/** How stale a vocabulary may grow after another process's bulk write before it is read again. */
const VOCABULARY_RELOAD_MS = 5000;
/**
 * Memory bound of the row sets one process keeps: ROW_SETS_KEPT bitsets of the catalog's size, at
 * least MIN_ROW_SET_CACHE_BYTES. A sparse set is kept as a list of its rows (row-set.ts), so the
 * bound holds far more sets than that; but a mix's frequent words, filters and prefix unions are
 * bitsets whatever the size, and the sets a mix keeps using are about as many at any size, so the
 * bound grows with the catalog: 244 MB at a million records (in-process, 12,000 searches of the
 * bench's mix kept 6,000 sets in 167 MB; with half this bound the costly sets were read again and
 * again: 8 ms of CPU per answer instead of 2.3), and the floor of 48 MB up to 196,000 records.
 */
const ROW_SETS_KEPT = 2048;
const MIN_ROW_SET_CACHE_BYTES = 48 * 1024 * 1024;
/** Tokens whose columns are kept (columnsOf); past this the kept ones are dropped and read again as asked. */
const TOKEN_COLUMNS_KEPT = 65_536;
/** The most held terms kept from a vocabulary load, for reading their rows ahead (mostHeldTerms). */
const MOST_HELD_KEPT = 1024;
/**
 * Dictionary words only: letters and digits with three letters or more (`pelican`, `qwen3`), so
 * typo candidates are never numbers, facet tokens or Chinese bigrams. Letters of the alphabets
 * whose words are typed letter by letter: Latin, Greek and Cyrillic (`новыи` finds `новый`).
 */
const DICTIONARY_WORD = /^(?:[0-9]*[a-z\u00df-\u024f\u0370-\u03ff\u0400-\u052f]){3}[a-z0-9\u00df-\u024f\u0370-\u03ff\u0400-\u052f]*$/;

/**
 * A row as read back after a write: its column values, made again from its record (the FTS5 table
 * keeps no copy), and their tokens when certain (row-match.ts). A row whose record cannot be read
 * has no values and no tokens: what it holds is then asked of FTS5, as for text that is not certain.
 */
export interface AppendedRow {
  values: string[];
  tokens: Map<string, string[]> | undefined;
}

/** A term of the search table and the number of rows holding it. */
export interface VocabularyTerm {
  term: string;
  rows: number;
}

export class SearchCaches {
  private readonly statements;
  private vocabularyHeld: Vocabulary | undefined;
  /** The facet tokens of the index, which the vocabulary leaves out, loaded and kept with it. */
  private facetTerms = new Set<string>();
  /** Terms (words, bigrams, facet tokens) by the rows holding them, most held first, as the vocabulary was last read. */
  private mostHeld: readonly VocabularyTerm[] = [];
  private vocabularyBuiltAt = 0;
  /** A bulk write happened since the vocabulary was read. */
  private vocabularyStale = false;
  /** Counts of FTS5 expressions by language and expression, dropped on any change (fts-planner.ts). */
  readonly counts = new Map<string, number>();
  rowSets = new RowSetCache(MIN_ROW_SET_CACHE_BYTES);
  private seenDataVersion = -1;
  private seenWrites = 0;
  private seenChange = -1;
  private universe: RowUniverse | undefined;
  private universeBuiltAt = -Infinity;
  /** The change-log position the universe was built at. */
  private universeBuiltAtChange = -1;
  /** Rows appended to the universe, read once, by sort key (see appendedRow). */
  private readonly appendedRows = new Map<number, AppendedRow | undefined>();
  /** The columns holding each token asked of columnsOf, following the change log. */
  private readonly tokenColumns = new Map<string, Set<string>>();
  private columnVocabulary: Statement<[string], string> | undefined;
  private readonly vocabularySnapshot: VocabularySnapshot;
  /** The last vocabulary read from FTS5 rather than from its copy, as the copy would hold it, until it is kept (keepVocabulary). */
  private unkeptScan: VocabularyScan | undefined;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly changeLog: SearchChangeLog,
    private readonly writer: SearchIndexWriter,
    private readonly rowSetMode: RowSetMode,
  ) {
    this.statements = {
      dataVersion: db.prepare<[], { data_version: number }>('PRAGMA data_version'),
      // Two JSON arrays rather than a row each: at a million records 0.5 s against 1.5-2.3 s.
      allKeys: db.prepare<[], [string, string]>('SELECT json_group_array(sort_key), json_group_array(id) FROM (SELECT sort_key, id FROM search_keys ORDER BY sort_key)').raw(),
      idOfKey: db.prepare<[bigint], string>('SELECT id FROM search_keys WHERE sort_key = ?').pluck(),
      rowDoc: db.prepare<[bigint], [string, string | null]>(`SELECT id, (${docOfIdSql('k.id')}) FROM search_keys k WHERE sort_key = ?`).raw(),
    };
    this.vocabularySnapshot = new VocabularySnapshot(db, changeLog);
  }

  /**
   * Brings cached counts, row sets and the vocabulary up to the search tables as they are now,
   * when this or another connection has changed them: row sets follow the change log where they
   * can (see RowUniverse) and are dropped for a rebuild otherwise. Writes to other tables (the
   * submission queue) change the database but not the search tables, and leave every cache alone.
   */
  refresh(): void {
    const dataVersion = this.statements.dataVersion.get()?.data_version ?? 0;
    if (dataVersion === this.seenDataVersion && this.writer.writes === this.seenWrites) return;
    const changedHere = this.writer.writes !== this.seenWrites;
    this.seenDataVersion = dataVersion;
    this.seenWrites = this.writer.writes;
    const lastChange = this.changeLog.last();
    if (lastChange === this.seenChange) return;
    this.counts.clear();
    const keys = this.changeLog.keysBetween(this.seenChange, lastChange, MIN_CHANGES_BEFORE_REBUILD * 4);
    this.seenChange = lastChange;
    for (const key of keys ?? []) this.appendedRows.delete(key);
    if (keys === undefined) {
      this.universe = undefined;
      this.rowSets.clear();
      this.appendedRows.clear();
      this.tokenColumns.clear();
      // Writes of this connection reload the vocabulary at once; writes of other processes once it is a few seconds old.
      this.vocabularyStale = true;
      if (changedHere) this.vocabularyHeld = undefined;
      return;
    }
    const ids = new Map<number, string>();
    for (const key of keys) {
      const id = this.statements.idOfKey.get(BigInt(key));
      if (id !== undefined) ids.set(key, id);
    }
    const present = [...ids.keys()];
    const universe = this.universe;
    if (universe && universe.changes + keys.length > Math.max(MIN_CHANGES_BEFORE_REBUILD, universe.ordered >>> 5)) {
      this.universe = undefined;
      this.rowSets.clear();
      this.appendedRows.clear();
    } else if (universe) {
      for (const key of keys) universe.kill(key);
      for (const key of present) universe.append(key, ids.get(key));
    }
    const vocabulary = this.vocabularyHeld;
    if (vocabulary) {
      const terms = new Set<string>();
      let exact = true;
      for (const key of present) {
        const row = this.appendedRow(key);
        if (row && !row.tokens) exact = false;
        const columns = row?.tokens ? [...row.tokens.values()] : (row?.values ?? []).map((value) => indexTerms(value ?? ''));
        for (const term of columns.flat()) {
          if (FACET_TOKEN.test(term)) this.facetTerms.add(term);
          else terms.add(term);
        }
      }
      vocabulary.add(terms, exact);
    }
    this.followTokenColumns(present);
    // Rows are kept for testing against the universe's sets; without one there is nothing to test.
    if (!this.universe) this.appendedRows.clear();
  }

  /** The rows as they are now, rebuilt after writes as the row-set mode allows; undefined means count with FTS5. */
  currentUniverse(): RowUniverse | undefined {
    if (this.rowSetMode === 'never') return undefined;
    if (!this.universe) {
      if (this.rowSetMode === 'auto' && performance.now() - this.universeBuiltAt < REBUILD_INTERVAL_MS) return undefined;
      const [keys, ids] = this.statements.allKeys.get() as [string, string];
      this.universe = new RowUniverse(Float64Array.from(JSON.parse(keys) as number[]), JSON.parse(ids) as string[]);
      this.rowSets = new RowSetCache(Math.max(MIN_ROW_SET_CACHE_BYTES, ROW_SETS_KEPT * this.universe.words * 4));
      this.universeBuiltAt = performance.now();
      this.universeBuiltAtChange = this.seenChange;
    }
    return this.universe;
  }

  /**
   * The change-log position the universe was built at, when it has followed no change since: its
   * ordinals are then those of any universe built at that position, in any process (see
   * read-ahead-copy.ts). Undefined without a universe or once it has followed a change.
   */
  pristineUniversePosition(): number | undefined {
    return this.universe && this.universeBuiltAtChange === this.seenChange ? this.seenChange : undefined;
  }

  /** An appended row, read once for both its tests (row-set-planner.ts) and its vocabulary terms; undefined when it is gone. */
  appendedRow(key: number): AppendedRow | undefined {
    if (!this.appendedRows.has(key)) {
      const row = this.statements.rowDoc.get(BigInt(key));
      const doc = row?.[1];
      const values = typeof doc === 'string' ? textColumnsOfDoc(doc) : undefined;
      this.appendedRows.set(key, row ? (values ? { values, tokens: rowTokens(SEARCH_COLUMNS, values) } : { values: [], tokens: undefined }) : undefined);
    }
    return this.appendedRows.get(key);
  }

  /**
   * The columns of the search table where some row holds token, read from FTS5's column
   * vocabulary once per token (a lookup costs about what reading a rare token's rows does) and kept.
   * Exact for the rows as they are now: appended rows add their columns (refresh), a rebuild drops
   * what is kept; a removed row may leave a column listed, which only costs a read that finds nothing.
   */
  columnsOf(token: string): ReadonlySet<string> {
    let columns = this.tokenColumns.get(token);
    if (!columns) {
      columns = new Set(this.columnStatement().all(token));
      if (this.tokenColumns.size >= TOKEN_COLUMNS_KEPT) this.tokenColumns.clear();
      this.tokenColumns.set(token, columns);
    }
    return columns;
  }

  private columnStatement(): Statement<[string], string> {
    if (!this.columnVocabulary) {
      // A table of this connection's temporary schema: the database file is not written.
      this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${SEARCH_TABLE}_columns USING fts5vocab(main, ${SEARCH_TABLE}, col)`);
      this.columnVocabulary = this.db.prepare<[string], string>(`SELECT col FROM temp.${SEARCH_TABLE}_columns WHERE term = ?`).pluck();
    }
    return this.columnVocabulary;
  }

  /** Adds the columns of rows appended since (by sort key) to the tokens kept; drops them all when a row's tokens are not certain. */
  private followTokenColumns(keys: readonly number[]): void {
    if (this.tokenColumns.size === 0) return;
    for (const key of keys) {
      const row = this.appendedRow(key);
      if (!row) continue;
      if (!row.tokens) {
        this.tokenColumns.clear();
        return;
      }
      for (const [column, tokens] of row.tokens) for (const token of tokens) this.tokenColumns.get(token)?.add(column);
    }
  }

  /**
   * The index's words, both languages': read when missing, or when stale and a few seconds old,
   * from the copy kept in the database when it is current, else from `fts5vocab` (see
   * vocabulary-snapshot.ts).
   */
  vocabulary(): Vocabulary {
    if (this.vocabularyHeld && this.vocabularyStale && Date.now() - this.vocabularyBuiltAt > VOCABULARY_RELOAD_MS) this.vocabularyHeld = undefined;
    if (!this.vocabularyHeld) {
      const { rows, scan } = this.vocabularySnapshot.read();
      this.unkeptScan = scan;
      const facets = rows.filter((row) => FACET_TOKEN.test(row.term));
      this.facetTerms = new Set(facets.map((row) => row.term));
      this.mostHeld = rows
        .filter((row) => row.term !== TRIGRAM_BLOCK_SEPARATOR)
        .map((row) => ({ term: row.term, rows: row.doc }))
        .sort((a, b) => b.rows - a.rows)
        .slice(0, MOST_HELD_KEPT);
      this.vocabularyHeld = new Vocabulary(
        rows.filter((row) => !FACET_TOKEN.test(row.term)).map((row) => ({ term: row.term, documents: row.doc })),
        (term) => DICTIONARY_WORD.test(term) && !FACET_TOKEN.test(term),
      );
      this.vocabularyBuiltAt = Date.now();
      this.vocabularyStale = false;
    }
    return this.vocabularyHeld;
  }

  /** The terms held by the most rows (up to MOST_HELD_KEPT), most held first, as of the last vocabulary load. */
  mostHeldTerms(): readonly VocabularyTerm[] {
    return this.mostHeld;
  }

  /**
   * Whether the index lacks a term for certain, by the vocabulary (which follows the change log):
   * false when the term is there or when that cannot be told (the vocabulary is stale after
   * another process's bulk write, or took terms from text it could not split exactly).
   */
  lacks(term: string): boolean {
    if (!this.vocabularyHeld || this.vocabularyStale) return false;
    // Facet tokens are written by the archive in ASCII, so the set of them is always exact.
    if (FACET_TOKEN.test(term)) return !this.facetTerms.has(term);
    return this.vocabularyHeld.holds(term) === false;
  }

  /**
   * Loads the vocabulary and the rows' keys ahead of the first query, in one snapshot with the
   * change log's position, so the writes that follow are added to them rather than waiting for a
   * reload, and the first search does not pay for the keys (about a second at a million records).
   * Keeping the vocabulary for the processes that start next is the caller's, once outside any
   * transaction (keepVocabulary).
   */
  warm(): void {
    this.db
      .transaction(() => {
        this.refresh();
        this.vocabulary();
        this.currentUniverse();
      })
      .deferred();
  }

  /**
   * Keeps the vocabulary this process last read from FTS5 in the database (VocabularySnapshot.keep),
   * unless the search tables changed since; outside any transaction. Returns whether it was kept.
   */
  keepVocabulary(): boolean {
    const scan = this.unkeptScan;
    this.unkeptScan = undefined;
    return scan !== undefined && this.vocabularySnapshot.keep(scan);
  }

  /**
   * Reads the vocabulary from FTS5 unless its copy is current, and keeps it: after a bulk write,
   * so the processes that start next need not (outside any transaction). Returns whether it kept one.
   */
  renewVocabularyCopy(): boolean {
    const { scan } = this.db.transaction(() => this.vocabularySnapshot.read()).deferred();
    return scan !== undefined && this.vocabularySnapshot.keep(scan);
  }
}
