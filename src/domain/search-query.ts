import type { Format, Kind, Lang } from './record.ts';

export type SearchOrder = 'relevance' | 'newest' | 'oldest';

/** Exact-match filters, combined with AND. */
export interface SearchFilters {
  source?: string;
  format?: Format;
  kind?: Kind;
  year?: string;
}

/** What a search index is asked. */
export interface SearchQuery {
  lang: Lang;
  /** Search text; absent or blank lists every record matching the filters. */
  text?: string;
  filters: SearchFilters;
  order: SearchOrder;
  offset: number;
  limit: number;
}

/** What a search index answers: the exact total and one page of record ids in order. */
export interface SearchHits {
  total: number;
  ids: string[];
}
