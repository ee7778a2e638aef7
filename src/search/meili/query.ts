/**
 * Translation of a SearchQuery into Meilisearch search parameters: the query texts, the filter
 * expression, the sort and the page window. Pure functions, tested without a server.
 */
import { dayNumber } from '../../domain/record.ts';
import type { FacetName, SearchFilters, SearchOrder, SearchPosition } from '../../domain/search-query.ts';
import type { ParsedQuery, QueryTerm } from '../search-text.ts';
import { cjkCode, cjkRunStartCode } from './documents.ts';
import { CJK_CHARACTER, PREFIX_WORD_LENGTH, runsAsWords } from '../search-text.ts';

/**
 * A Meilisearch filter string literal: double quotes, with inner quotes escaped. Meilisearch's
 * filter parser unescapes only `\"`, never `\\`, so a value holding a backslash cannot be written
 * exactly and is refused (filter values are enum members, years, ids, model labels and author
 * names; a label with a backslash matches nothing rather than something else).
 */
export function filterValue(value: string): string {
  if (value.includes('\\')) throw new RangeError(`a filter value cannot hold a backslash: ${JSON.stringify(value)}`);
  return `"${value.replace(/"/g, '\\"')}"`;
}

/** The list filters and the document fields they compare with (model and author compare case-insensitively: Meilisearch normalizes filter strings). */
const LIST_FILTERS = ['source', 'format', 'kind', 'year', 'model', 'author'] as const;

/** A list filter as `field IN [...]`; values that cannot be written (a backslash) are left out, so they match nothing. */
function listClause(name: string, values: readonly string[]): string {
  const written = values.filter((value) => !value.includes('\\')).map(filterValue);
  return written.length ? `${name} IN [${written.join(', ')}]` : `${name} IN []`;
}

/**
 * The filters as one Meilisearch expression (clauses joined by AND), or undefined when none.
 * `leaveOut` drops one facet's own filter (to count that facet's values).
 */
export function filterExpression(filters: SearchFilters, leaveOut?: FacetName): string | undefined {
  const clauses: string[] = [];
  for (const name of LIST_FILTERS) {
    const values = filters[name];
    if (values !== undefined && name !== leaveOut) clauses.push(listClause(name, values));
  }
  if (filters.from !== undefined) clauses.push(`day >= ${dayNumber(filters.from)}`);
  if (filters.to !== undefined) clauses.push(`day <= ${dayNumber(filters.to)}`);
  if (filters.since !== undefined) clauses.push(`updatedDay >= ${dayNumber(filters.since)}`);
  return clauses.length ? clauses.join(' AND ') : undefined;
}

/** The records after a position in date order: newest (date descending, then id) or oldest (the reverse). */
export function afterExpression(position: SearchPosition, order: 'newest' | 'oldest'): string {
  const day = dayNumber(position.date);
  const id = filterValue(position.id);
  return order === 'newest' ? `(day < ${day} OR (day = ${day} AND id > ${id}))` : `(day > ${day} OR (day = ${day} AND id < ${id}))`;
}

/** Expressions joined by AND, or undefined when there are none. */
export function allOf(expressions: readonly (string | undefined)[]): string | undefined {
  const present = expressions.filter((expression): expression is string => expression !== undefined);
  if (present.length <= 1) return present[0];
  return present.map((expression) => `(${expression})`).join(' AND ');
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
 * The words of a phrase as the documents write them (see cjkBigramText in documents.ts): a CJK
 * token becomes its code, and where a phrase steps from one run's last character into the next
 * run, that run's start code comes first. A lone character there is a run of one character, or
 * with a prefix at the end of the phrase, the start of a longer run: its start code alone.
 */
function phraseCodes(tokens: readonly string[], prefixLast: boolean): string[] {
  const codes: string[] = [];
  tokens.forEach((token, i) => {
    const previous = tokens[i - 1];
    const isCjk = CJK_CHARACTER.test(token);
    const entersRun = isCjk && previous !== undefined && [...previous].length === 1 && CJK_CHARACTER.test(previous);
    const characters = [...token];
    if (entersRun) codes.push(cjkRunStartCode(characters[0] as string));
    if (entersRun && characters.length === 1 && prefixLast && i === tokens.length - 1) return;
    codes.push(isCjk ? cjkCode(token) : token);
  });
  return codes;
}

/** A term as Meilisearch query syntax; a CJK token becomes its code (see documents.ts). */
function termText(term: QueryTerm): string {
  if (term.type === 'word') return term.word;
  const codes = phraseCodes(term.tokens, term.prefixLast);
  // Words joined by punctuation at the end of the text stay words, so the last one is still a prefix.
  if (term.prefixLast && !CJK_CHARACTER.test(term.tokens.at(-1) ?? '')) return codes.join(' ');
  return quoted(codes);
}

/**
 * Every choice of one alternative per group: the conjunctions an OR query stands for, each CJK
 * run with words (QueryTerm.words) asked as those words (runsAsWords). A record holding the run
 * holds each of its words, so the words find what the run does and what the embedded engine's
 * typo tier adds, in one query; Meilisearch ranks them by its own rules, which do not always put
 * the run as written first (docs/search.md).
 */
function combinations(query: ParsedQuery): QueryTerm[][] {
  let result: QueryTerm[][] = [[]];
  for (const group of query.groups) result = result.flatMap((chosen) => group.alternatives.map((alternative) => [...chosen, ...alternative]));
  return result.map((terms) => runsAsWords(terms) ?? terms);
}

/**
 * The `q` strings Meilisearch is asked, one per OR combination (none when the text holds only
 * exclusions, which then filter every record):
 * - a word stays a word (typos by length; the last word of the text also a prefix);
 * - a phrase is quoted (exact, consecutive), except words joined by punctuation at the end of the
 *   text, which stay words so the last one is a prefix;
 * - a CJK run is a quoted phrase of its bigram codes, a single character the quoted code of it;
 * - an excluded term is written with Meilisearch's negative operator, before the others.
 * The last word is a prefix only when it ends the text; otherwise the query ends with a space,
 * which Meilisearch reads as "no prefix". Operators typed by the reader reach Meilisearch only as
 * parsed here.
 */
export function queryTexts(query: ParsedQuery): string[] {
  const excluded = query.excluded.map((term) => `-${term.type === 'word' ? term.word : quoted(phraseCodes(term.tokens, term.prefixLast))}`);
  if (query.groups.length === 0) return excluded.length ? [`${excluded.join(' ')} `] : [];
  return combinations(query).map((terms) => {
    const last = terms.at(-1);
    const prefix = last !== undefined && ((last.type === 'word' && last.last && [...last.word].length >= PREFIX_WORD_LENGTH) || (last.type === 'phrase' && last.prefixLast && !last.quoted));
    const text = [...excluded, ...terms.map(termText)].join(' ');
    return prefix ? text : `${text} `;
  });
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
