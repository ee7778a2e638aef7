/**
 * Translation of a SearchQuery into Meilisearch search parameters: the query text, the filter
 * expression, the sort and the page window. Pure functions, tested without a server.
 */
import type { SearchFilters, SearchOrder } from '../../domain/search-query.ts';
import { CJK_RUN, cjkBigrams, normalizeText, wordTokens } from '../search-text.ts';
import { cjkCode } from './documents.ts';

/**
 * A Meilisearch filter string literal: double quotes, with inner quotes escaped. Meilisearch's
 * filter parser unescapes only `\"`, never `\\`, so a value holding a backslash cannot be written
 * exactly and is refused (filter values are enum members or years, so none does).
 */
export function filterValue(value: string): string {
  if (value.includes('\\')) throw new RangeError(`a filter value cannot hold a backslash: ${JSON.stringify(value)}`);
  return `"${value.replace(/"/g, '\\"')}"`;
}

const FILTER_NAMES: readonly (keyof SearchFilters)[] = ['source', 'format', 'kind', 'year'];

/** The filters as one Meilisearch expression (equalities joined by AND), or undefined when none. */
export function filterExpression(filters: SearchFilters): string | undefined {
  const clauses = FILTER_NAMES.flatMap((name) => {
    const value = filters[name];
    return value === undefined ? [] : [`${name} = ${filterValue(value)}`];
  });
  return clauses.length ? clauses.join(' AND ') : undefined;
}

/**
 * The sort parameter. Newest and oldest are pure date orders (the `sort` ranking rule comes
 * first), ties by id; relevance with text leaves the order to the ranking rules, whose last two
 * are date descending and id; relevance without text is newest first.
 */
export function sortFor(order: SearchOrder, hasText: boolean): string[] | undefined {
  if (order === 'oldest') return ['date:asc', 'id:desc'];
  if (order === 'newest' || !hasText) return ['date:desc', 'id:asc'];
  return undefined;
}

function quoted(words: readonly string[]): string {
  return `"${words.join(' ')}"`;
}

/**
 * The `q` Meilisearch is asked. Whitespace separates terms, as in the embedded engine:
 * - a plain word stays a word (typos by length; the last word of the query also as a prefix);
 * - words joined by punctuation (`gpt-4o`) are a quoted phrase, except in the last term, where
 *   they stay words so the last one is still a prefix;
 * - a CJK run becomes a quoted phrase of its bigram codes (contiguous substrings only, no typos),
 *   a single CJK character the quoted code of that character.
 * Quotes, minus signs and other operators typed by the reader never reach Meilisearch.
 */
export function queryText(text: string): string {
  const chunks = normalizeText(text).split(/\s+/u).filter(Boolean);
  const parts: string[] = [];
  chunks.forEach((chunk, chunkIndex) => {
    const last = chunkIndex === chunks.length - 1;
    const runs = [...chunk.matchAll(CJK_RUN)].map((match) => match[0]);
    const words = wordTokens(chunk.replace(CJK_RUN, ' '));
    if (words.length === 1 || (words.length > 1 && last)) parts.push(words.join(' '));
    else if (words.length > 1) parts.push(quoted(words));
    for (const run of runs) parts.push(quoted(cjkBigrams(run).map(cjkCode)));
  });
  return parts.join(' ');
}

/** A page of Meilisearch's exhaustive (page/hitsPerPage) mode and the slice of it wanted. */
export interface PageWindow {
  page: number;
  hitsPerPage: number;
  /** Index of the first wanted hit inside the page. */
  skip: number;
}

/**
 * The smallest page that holds hits offset … offset + limit − 1 whole. Meilisearch's exhaustive
 * mode (the one with an exact total) takes page numbers, not offsets; the wanted hits are then
 * sliced out of that page.
 */
export function pageWindow(offset: number, limit: number): PageWindow {
  if (!Number.isInteger(offset) || !Number.isInteger(limit) || offset < 0 || limit < 1) throw new RangeError(`no page holds offset ${offset}, limit ${limit}`);
  for (let size = limit; ; size += 1) {
    const first = Math.floor(offset / size);
    if (first === Math.floor((offset + limit - 1) / size)) return { page: first + 1, hitsPerPage: size, skip: offset - first * size };
  }
}
