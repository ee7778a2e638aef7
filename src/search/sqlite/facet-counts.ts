/**
 * Facet counts. Both planners count the values of each asked facet over a set of hits: the row
 * sets by reading each hit's value from arrays indexed by ordinal (built from `search_keys` once
 * per row universe and extended as rows are appended), FTS5 by grouping the hits' `search_keys`
 * rows in SQL. A model is counted by its filter form (facetValueKey) and shown with the label of
 * the newest record holding it, so both give identical answers.
 */
import type { FacetCounts, FacetName } from '../../domain/search-query.ts';
import { topFacetValues } from '../../domain/search-query.ts';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import type { RowSet, RowUniverse } from './row-sets.ts';

/** The `search_keys` column a facet is counted by. */
export const FACET_COLUMN: Record<FacetName, 'kind' | 'format' | 'source' | 'year' | 'model_key'> = { kind: 'kind', format: 'format', source: 'source', year: 'year', model: 'model_key' };

/** One facet's values by ordinal: an index into `names` per row. */
interface FacetColumn {
  names: string[];
  ids: Map<string, number>;
  byOrdinal: Int32Array;
}

export class FacetLabels {
  private readonly modelLabel;

  constructor(db: SqliteDatabase) {
    this.modelLabel = db.prepare<[string], string>('SELECT model FROM search_keys WHERE model_key = ? ORDER BY sort_key LIMIT 1').pluck();
  }

  /** Counts keyed by what the API shows: model keys become the newest record's label. */
  present(name: FacetName, counts: Iterable<readonly [string, number]>): Record<string, number> {
    const top = topFacetValues([...counts].filter(([value]) => value !== ''));
    if (name !== 'model') return top;
    return topFacetValues(Object.entries(top).map(([key, count]) => [this.modelLabel.get(key) ?? key, count]));
  }
}

/** Facet values of a universe's rows: read in chunks ahead of the first count (readAhead), or in full by it. */
export class RowFacetColumns {
  private universe: RowUniverse | undefined;
  private readonly columns = new Map<FacetName, FacetColumn>();
  /** The columns being read ahead: what is read, the last sort key read and the ordinal to match next. */
  private readonly reading = new Map<FacetName, { column: FacetColumn; afterKey: number; ordinal: number }>();
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    private readonly labels: FacetLabels,
    /** Rows a chunk of reading ahead reads (a chunk of 20,000 takes about 20 ms). */
    private readonly chunkRows = 20_000,
  ) {
    this.statements = Object.fromEntries(
      (Object.entries(FACET_COLUMN) as [FacetName, string][]).map(([name, column]) => [
        name,
        {
          // LIMIT -1 reads to the end.
          after: db.prepare<[number, number], [number, string]>(`SELECT sort_key, ${column} FROM search_keys WHERE sort_key > ? ORDER BY sort_key LIMIT ?`).raw(),
          one: db.prepare<[number], string>(`SELECT ${column} FROM search_keys WHERE sort_key = ?`).pluck(),
        },
      ]),
    ) as unknown as Record<FacetName, { after: { all(afterKey: number, limit: number): [number, string][] }; one: { get(key: number): string | undefined } }>;
  }

  /**
   * Reads the facet columns of the universe no count has read yet, a chunk at a time, for up to
   * sliceMs (at least one chunk when any is left); returns whether any is left. Each chunk may
   * come from another snapshot: a row changed since is killed in the universe and appended anew
   * (read by column's extension), and a killed row's value is never counted.
   */
  readAhead(universe: RowUniverse, sliceMs: number): boolean {
    this.follow(universe);
    const started = performance.now();
    for (const name of Object.keys(FACET_COLUMN) as FacetName[]) {
      while (!this.columns.has(name)) {
        this.readChunk(universe, name, this.chunkRows);
        if (performance.now() - started >= sliceMs) return this.columns.size < Object.keys(FACET_COLUMN).length;
      }
    }
    return false;
  }

  /** The facets whose columns are read for the universe. */
  columnsRead(universe: RowUniverse): FacetName[] {
    return universe === this.universe ? [...this.columns.keys()] : [];
  }

  private follow(universe: RowUniverse): void {
    if (universe === this.universe) return;
    this.universe = universe;
    this.columns.clear();
    this.reading.clear();
  }

  /** Reads up to `rows` more rows of a column (all that are left with -1), matching them to the universe's ordered rows. */
  private readChunk(universe: RowUniverse, name: FacetName, rows: number): void {
    let at = this.reading.get(name);
    if (!at) {
      at = { column: { names: [''], ids: new Map([['', 0]]), byOrdinal: new Int32Array(universe.ordered) }, afterKey: Number.MIN_SAFE_INTEGER, ordinal: 0 };
      this.reading.set(name, at);
    }
    const { column } = at;
    const read = this.statements[name].after.all(at.afterKey, rows);
    for (const [key, value] of read) {
      while (at.ordinal < universe.ordered && universe.keyAt(at.ordinal) < key) at.ordinal += 1;
      if (at.ordinal < universe.ordered && universe.keyAt(at.ordinal) === key) column.byOrdinal[at.ordinal] = this.idOf(column, value);
      at.afterKey = key;
    }
    if (rows < 0 || read.length < rows) {
      this.columns.set(name, column);
      this.reading.delete(name);
    }
  }

  /** A facet's column for the universe as it is now: the rest read in full if no reading ahead finished it, extended for appended rows. */
  private column(universe: RowUniverse, name: FacetName): FacetColumn {
    this.follow(universe);
    if (!this.columns.has(name)) this.readChunk(universe, name, -1);
    const column = this.columns.get(name) as FacetColumn;
    if (column.byOrdinal.length < universe.size) {
      const grown = new Int32Array(universe.size);
      grown.set(column.byOrdinal);
      for (let ordinal = column.byOrdinal.length; ordinal < universe.size; ordinal += 1) {
        // A killed row's value is never counted (sets hold live rows only).
        grown[ordinal] = universe.isLive(ordinal) ? this.idOf(column, this.statements[name].one.get(universe.keyAt(ordinal)) ?? '') : 0;
      }
      column.byOrdinal = grown;
    }
    return column;
  }

  private idOf(column: FacetColumn, value: string): number {
    let id = column.ids.get(value);
    if (id === undefined) {
      id = column.names.push(value) - 1;
      column.ids.set(value, id);
    }
    return id;
  }

  /** The values of a facet over a set of hits, with their counts. */
  count(universe: RowUniverse, name: FacetName, hits: RowSet): Record<string, number> {
    const column = this.column(universe, name);
    const counts = new Float64Array(column.names.length);
    hits.forEachMember((ordinal) => {
      const id = column.byOrdinal[ordinal] as number;
      counts[id] = (counts[id] as number) + 1;
    });
    return this.labels.present(
      name,
      column.names.map((value, id) => [value, counts[id] as number]),
    );
  }
}

/** Facet counts of the asked facets, from a function counting one. */
export function countFacets(names: readonly FacetName[], count: (name: FacetName) => Record<string, number>): FacetCounts {
  return Object.fromEntries(names.map((name) => [name, count(name)]));
}
