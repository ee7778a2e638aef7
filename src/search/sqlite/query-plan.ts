/**
 * A search as both planners read it: the parsed text, each filter as the facet tokens a hit must
 * carry one of, the sort keys hits lie in (dates, and the position a cursor walk continues
 * from), and the model label that ranks first. Built once per search from one database snapshot.
 */
import type { Lang } from '../../domain/record.ts';
import type { SearchPosition, SearchQuery } from '../../domain/search-query.ts';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import { SEARCH_TABLE } from '../../store/sqlite/schema.ts';
import { parseSearchText } from '../search-text.ts';
import type { ParsedQuery } from '../search-text.ts';
import { facetToken, LIST_FILTERS } from './facets.ts';
import type { ListFilter } from './facets.ts';
import { dateKeyRange, dayBase, dayNumber, intersectRanges, SLOTS_PER_DAY } from './sort-key.ts';
import type { KeyRange } from './sort-key.ts';

/**
 * Terms of one Chinese character matched as prefixes in a query, at most (the last ones; the others
 * as written): each opens up to 64 bigrams, or past them FTS5's prefix query over every row holding
 * one (7–21 ms at 100,000 records), and 100 of them cost up to 760 ms.
 */
export const SINGLE_CHARACTER_PREFIXES = 4;

/** Every key. */
export const ALL_KEYS: KeyRange = { min: -Infinity, max: Infinity };

export interface SearchPlan {
  lang: Lang;
  /** The text, or undefined when the search has none (or only exclusions, see `parsed.groups`). */
  parsed: ParsedQuery | undefined;
  /** Each list filter as the tokens a hit carries one of. */
  filters: Map<ListFilter, string[]>;
  /** The compilation-date tokens a hit carries one of (`since`); empty when no record is that recent. */
  since: string[] | undefined;
  /** The keys of the asked dates (from, to). */
  dates: KeyRange;
  /** The model token of a label equal to the text, whose records rank first. */
  boost: string | undefined;
  /** Date order of the page, or undefined for relevance with words. */
  dateOrder: 'newest' | 'oldest' | undefined;
}

/** Reads a query into a plan; undefined when its text holds nothing to search for. */
export function planSearch(db: SqliteDatabase, query: SearchQuery): SearchPlan | undefined {
  const text = query.text?.trim();
  const parsed = text ? parseSearchText(text, { singleCharacterPrefixes: SINGLE_CHARACTER_PREFIXES }) : undefined;
  if (parsed && parsed.groups.length === 0 && parsed.excluded.length === 0) return undefined;
  const filters = new Map<ListFilter, string[]>();
  for (const name of LIST_FILTERS) {
    const values = query.filters[name];
    if (values !== undefined) filters.set(name, [...new Set(values.map((value) => facetToken(name, value)))]);
  }
  const since = query.filters.since === undefined ? undefined : sinceTokens(db, query.filters.since);
  const hasWords = parsed !== undefined && parsed.groups.length > 0;
  const dateOrder = query.order === 'oldest' ? 'oldest' : query.order === 'newest' || !hasWords ? 'newest' : undefined;
  const boost = hasWords && !dateOrder && parsed.label ? facetToken('model', parsed.label) : undefined;
  return { lang: query.lang, parsed, filters, since, dates: dateKeyRange(query.filters.from, query.filters.to), boost, dateOrder };
}

/** The compilation-date tokens on or after a day, from the index's own terms. */
function sinceTokens(db: SqliteDatabase, since: string): string[] {
  const first = facetToken('updated', since);
  return db.prepare<[string], string>(`SELECT term FROM ${SEARCH_TABLE}_vocab WHERE term >= ? AND term < 'updated1'`).pluck().all(first);
}

/**
 * The keys after a walk's position in a date order: newest (keys ascending) continues with the
 * first key after the position's record, oldest (keys descending) with the last key before it.
 * The record itself may be gone, so the bound comes from its date and id.
 */
export function afterPosition(db: SqliteDatabase, position: SearchPosition, order: 'newest' | 'oldest'): KeyRange {
  const day = dayNumber(position.date);
  if (order === 'newest') {
    const next = db.prepare<[number, string], number | null>('SELECT min(sort_key) FROM search_keys WHERE day = ? AND id > ?').pluck().get(day, position.id);
    return { min: next ?? dayBase(day) + SLOTS_PER_DAY, max: Infinity };
  }
  const previous = db.prepare<[number, string], number | null>('SELECT max(sort_key) FROM search_keys WHERE day = ? AND id < ?').pluck().get(day, position.id);
  return { min: -Infinity, max: previous ?? dayBase(day) - 1 };
}

/** The plan's dates narrowed to a range. */
export function narrowed(plan: SearchPlan, range: KeyRange): KeyRange {
  return intersectRanges(plan.dates, range);
}
