import type { Format, Kind, Lang } from './record.ts';

export type SearchOrder = 'relevance' | 'newest' | 'oldest';

/**
 * Filters of a search. Each list matches any of its values (OR); the filters combine with AND.
 * Source, format, kind and year are exact; model and author are exact but case-insensitive (see
 * facetValueKey); from and to bound the date of the work, since bounds the compilation date.
 */
export interface SearchFilters {
  source?: readonly string[];
  format?: readonly Format[];
  kind?: readonly Kind[];
  year?: readonly string[];
  model?: readonly string[];
  author?: readonly string[];
  /** Earliest date of the work, inclusive (YYYY-MM-DD). */
  from?: string;
  /** Latest date of the work, inclusive (YYYY-MM-DD). */
  to?: string;
  /** Records whose compilation date (`updated`) is this date or later (YYYY-MM-DD). */
  since?: string;
}

/** The fields whose values a search can count. */
export const FACET_NAMES = ['format', 'kind', 'year', 'source', 'model'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/** Values counted per facet at most: the most frequent ones. */
export const FACET_VALUE_LIMIT = 100;

/** OR combinations a query may make (`a OR b c OR d` makes 4): engines without OR search each one. */
export const MAX_OR_COMBINATIONS = 16;

/**
 * Words a query's phrases (words joined by punctuation, quoted text; excluded ones too) may hold
 * in all. FTS5 checks a phrase position by position in every row holding its words, so its cost
 * grows with its words times those rows: 100 words of `a-a-…` cost 250 ms at 100,000 records.
 * No search is a phrase of more than 32 words (Meilisearch reads 10 words of a query).
 */
export const MAX_PHRASE_WORDS = 32;

/** Words a query may hold in all (a run of Chinese characters counts as one, OR too). */
export const MAX_QUERY_WORDS = 64;

/** Matching records per value of each asked facet, the facet's own filter left out. */
export type FacetCounts = Partial<Record<FacetName, Record<string, number>>>;

/**
 * Where a cursor walk stands: the sort values of the last record it returned. `rank` and `frozen`
 * belong to the engine that made the position (relevance walks: the record's rank values, and what
 * the walk fixed at its first page so later pages rank alike); the read side passes them back as
 * they came.
 */
export interface SearchPosition {
  date: string;
  id: string;
  rank?: number[];
  frozen?: number[];
}

/** What a search index is asked. */
export interface SearchQuery {
  lang: Lang;
  /** Search text; absent or blank lists every record matching the filters. */
  text?: string;
  filters: SearchFilters;
  order: SearchOrder;
  /** Records skipped; ignored when `after` is given. */
  offset: number;
  limit: number;
  /** Continue a walk after this position instead of skipping `offset` records. */
  after?: SearchPosition;
  /** Facets to count over every match of the query. */
  facets?: readonly FacetName[];
}

/** What a search index answers: the exact total and one page of record ids in order. */
export interface SearchHits {
  total: number;
  ids: string[];
  /** The position after the page's last record, when more records may follow it. */
  next?: SearchPosition;
  facets?: FacetCounts;
}

/**
 * The form in which model and author filters compare, the same on every engine: surrounding
 * white space dropped, compatibility decomposition (NFKD, so full-width letters are ASCII) and
 * lower case — Meilisearch's own normalization of filter values.
 */
export function facetValueKey(value: string): string {
  return value.trim().normalize('NFKD').toLowerCase();
}

/**
 * The top values of a facet: highest count first, ties by value, at most FACET_VALUE_LIMIT; values
 * counted zero are left out. As an object the order holds for keys that are not whole numbers:
 * JavaScript puts those (years) first, ascending.
 */
export function topFacetValues(counts: Iterable<readonly [string, number]>, limit = FACET_VALUE_LIMIT): Record<string, number> {
  const sorted = [...counts].filter(([, count]) => count > 0).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(sorted.slice(0, limit));
}
