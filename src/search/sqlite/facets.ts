/**
 * Filters as index tokens: each record's facet values are written into the `facets` column as
 * tokens, and a filter is a token every hit must carry.
 */
import type { CanonicalRecord } from '../../domain/record.ts';
import { yearOf } from '../../domain/record.ts';
import type { SearchFilters } from '../../domain/search-query.ts';

/** Facet tokens carry a digit so they can never be mistaken for words of record text. */
export function facetToken(name: keyof SearchFilters, value: string): string {
  return `${name}0${value.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
}

/** Whether an index term is a facet token rather than a word of record text. */
export const FACET_TOKEN = /^(kind|format|source|year)0/;

/** The `facets` column of a record. */
export function facetsText(record: CanonicalRecord): string {
  return [facetToken('kind', record.kind), facetToken('format', record.format), facetToken('source', record.source), facetToken('year', yearOf(record.date))].join(' ');
}

/** The facet tokens a search's filters ask for, all of which a hit must carry. */
export function facetTokens(filters: SearchFilters): string[] {
  return (Object.entries(filters) as [keyof SearchFilters, string | undefined][])
    .filter((entry): entry is [keyof SearchFilters, string] => entry[1] !== undefined)
    .map(([name, value]) => facetToken(name, value));
}
