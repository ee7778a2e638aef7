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

/** Facet values of the rows of one universe, read when first counted. */
export class RowFacetColumns {
  private universe: RowUniverse | undefined;
  private readonly columns = new Map<FacetName, FacetColumn>();
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    private readonly labels: FacetLabels,
  ) {
    this.statements = Object.fromEntries(
      (Object.entries(FACET_COLUMN) as [FacetName, string][]).map(([name, column]) => [
        name,
        {
          all: db.prepare<[], [number, string]>(`SELECT sort_key, ${column} FROM search_keys ORDER BY sort_key`).raw(),
          one: db.prepare<[number], string>(`SELECT ${column} FROM search_keys WHERE sort_key = ?`).pluck(),
        },
      ]),
    ) as unknown as Record<FacetName, { all: { all(): [number, string][] }; one: { get(key: number): string | undefined } }>;
  }

  /** A facet's column for the universe as it is now: read in full for a new universe, extended for appended rows. */
  private column(universe: RowUniverse, name: FacetName): FacetColumn {
    if (universe !== this.universe) {
      this.universe = universe;
      this.columns.clear();
    }
    let column = this.columns.get(name);
    if (!column) {
      // The rows in key order, matched to the universe's ordered rows; rows appended to it are read one by one below.
      column = { names: [''], ids: new Map([['', 0]]), byOrdinal: new Int32Array(universe.ordered) };
      let ordinal = 0;
      for (const [key, value] of this.statements[name].all.all()) {
        while (ordinal < universe.ordered && universe.keyAt(ordinal) < key) ordinal += 1;
        if (ordinal < universe.ordered && universe.keyAt(ordinal) === key) column.byOrdinal[ordinal] = this.idOf(column, value);
      }
      this.columns.set(name, column);
    }
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
