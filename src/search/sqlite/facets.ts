/**
 * Filters as index tokens: each record's facet values are written into the `facets` column as
 * tokens, and a filter is a set of tokens a hit must carry one of. Model and author are written
 * in the form their filters compare (facetValueKey) as hexadecimal UTF-8, so any label is one
 * token and labels that differ only in case or width are the same token; the compilation date
 * is a token per day (`since` is the OR of the days on or after it).
 */
import type { CanonicalRecord } from '../../domain/record.ts';
import { yearOf } from '../../domain/record.ts';
import { facetValueKey } from '../../domain/search-query.ts';
import type { SearchFilters } from '../../domain/search-query.ts';

/** The fields written as facet tokens. */
export type TokenField = 'kind' | 'format' | 'source' | 'year' | 'model' | 'author' | 'updated';

/** The list filters, each an OR of its values' tokens. */
export const LIST_FILTERS = ['source', 'format', 'kind', 'year', 'model', 'author'] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

/** Facet tokens carry a digit so they can never be mistaken for words of record text. */
export function facetToken(name: TokenField, value: string): string {
  if (name === 'model' || name === 'author') return `${name}0${Buffer.from(facetValueKey(value)).toString('hex')}`;
  return `${name}0${value.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
}

/** Every field written as facet tokens. */
export const TOKEN_FIELDS: readonly TokenField[] = ['kind', 'format', 'source', 'year', 'model', 'author', 'updated'];

/** Whether an index term is a facet token rather than a word of record text. */
export const FACET_TOKEN = new RegExp(`^(${TOKEN_FIELDS.join('|')})0`);

/** The `facets` column of a record. */
export function facetsText(record: CanonicalRecord): string {
  return [
    facetToken('kind', record.kind),
    facetToken('format', record.format),
    facetToken('source', record.source),
    facetToken('year', yearOf(record.date)),
    facetToken('model', record.model),
    facetToken('author', record.author),
    facetToken('updated', record.updated),
  ].join(' ');
}

/** The tokens of each list filter a search asks for (a hit carries one of each), the facet left out if named. */
export function filterTokens(filters: SearchFilters, leaveOut?: string): string[][] {
  return LIST_FILTERS.filter((name) => filters[name] !== undefined && name !== leaveOut).map((name) => [...new Set((filters[name] ?? []).map((value) => facetToken(name, value)))]);
}
