/**
 * One archive search on Meilisearch, as the SearchIndex port defines it:
 * - exact totals (exhaustive page mode, and past maxTotalHits the `kind` facet counts);
 * - facet counts, each facet with its own filter left out (a search per filtered facet, sent with
 *   the others in one request), at most FACET_VALUE_LIMIT values, ties ordered by value;
 * - OR queries as federated multi-searches of their combinations (see requests.ts);
 * - date orders page by keyset (a filter on day and id after the cursor's record), to any depth;
 *   relevance pages by position, re-found from the cursor's last record (see docs/search.md);
 * - a text equal to a model label (case-insensitive) lists that model's records first.
 */
import type { Meilisearch } from 'meilisearch';
import { topFacetValues } from '../../domain/search-query.ts';
import type { FacetCounts, FacetName, SearchHits, SearchPosition, SearchQuery } from '../../domain/search-query.ts';
import { parseSearchText } from '../search-text.ts';
import type { MeiliAnswer, MeiliHit, MeiliRequest } from './requests.ts';
import { runRequests } from './requests.ts';
import { afterExpression, allOf, filterExpression, filterValue, pageWindow, queryTexts, sortFor } from './query.ts';
import { MAX_TOTAL_HITS } from './settings.ts';

/** Hits read on either side of a relevance cursor's position, to find its last record again after the catalog changed. */
export const RESYNC_SLACK = 10;

function facetCounts(names: readonly FacetName[], answers: ReadonlyMap<FacetName, MeiliAnswer>): FacetCounts {
  return Object.fromEntries(names.map((name) => [name, topFacetValues(Object.entries(answers.get(name)?.facets[name] ?? {}))]));
}

function positionOf(hit: MeiliHit | undefined, rank?: number[]): SearchPosition | undefined {
  return hit && { date: hit.date, id: hit.id, ...(rank ? { rank } : {}) };
}

/** Runs one search against the index of the query's language. */
export async function searchIndex(client: Meilisearch, indexUid: string, query: SearchQuery): Promise<SearchHits> {
  const parsed = query.text?.trim() ? parseSearchText(query.text) : undefined;
  const facetNames = query.facets ?? [];
  if (parsed && parsed.groups.length === 0 && parsed.excluded.length === 0) {
    return { total: 0, ids: [], ...(facetNames.length ? { facets: Object.fromEntries(facetNames.map((name) => [name, {}])) } : {}) };
  }
  const texts = parsed ? queryTexts(parsed) : [''];
  const hasText = parsed !== undefined && parsed.groups.length > 0;
  const dateOrder = query.order === 'oldest' ? 'oldest' : query.order === 'newest' || !hasText ? 'newest' : undefined;
  const sort = sortFor(query.order, hasText);
  const filter = filterExpression(query.filters);
  const limit = Math.max(1, query.limit);
  const keyset = dateOrder !== undefined && query.after !== undefined;
  const separate = facetNames.filter((name) => query.filters[name] !== undefined);
  const shared = facetNames.filter((name) => query.filters[name] === undefined);

  const requests: MeiliRequest[] = [];
  const ask = (request: Omit<MeiliRequest, 'texts'>): number => requests.push({ texts, ...request }) - 1;
  // The page: after the cursor's record (date orders), or a window of positions.
  let windowStart = 0;
  let windowLength = limit;
  let page: number;
  if (keyset && dateOrder && query.after) {
    page = ask({ filter: allOf([filter, afterExpression(query.after, dateOrder)]), ...(sort ? { sort } : {}), page: 1, hitsPerPage: limit });
  } else {
    const start = query.after?.rank?.[0] ?? query.offset;
    windowStart = query.after ? Math.max(0, start - RESYNC_SLACK) : start;
    const window = pageWindow(windowStart, query.after ? limit + 2 * RESYNC_SLACK : limit);
    windowStart -= window.skip;
    windowLength = window.hitsPerPage;
    page = ask({ ...(filter ? { filter } : {}), ...(sort ? { sort } : {}), page: window.page, hitsPerPage: window.hitsPerPage, facets: shared });
  }
  const count = keyset ? ask({ ...(filter ? { filter } : {}), page: 1, hitsPerPage: 0, facets: shared }) : page;
  const facetAnswers = new Map<FacetName, number>(shared.map((name) => [name, count]));
  for (const name of separate) {
    const leftOut = filterExpression(query.filters, name);
    facetAnswers.set(name, ask({ ...(leftOut ? { filter: leftOut } : {}), page: 1, hitsPerPage: 0, facets: [name] }));
  }
  const label = hasText && !dateOrder && parsed && !parsed.label.includes('\\') ? parsed.label : undefined;
  const boosted = label ? ask({ filter: allOf([filter, `model = ${filterValue(label)}`]) ?? '', page: 1, hitsPerPage: 0 }) : undefined;

  const answers = await runRequests(client, indexUid, requests);
  const answer = (index: number): MeiliAnswer => answers[index] as MeiliAnswer;
  const total = answer(count).total;
  const facets = facetNames.length ? facetCounts(facetNames, new Map([...facetAnswers].map(([name, index]) => [name, answer(index)]))) : undefined;
  const withFacets = (hits: SearchHits): SearchHits => (facets ? { ...hits, facets } : hits);

  if (keyset) {
    const hits = answer(page).hits.slice(0, query.limit);
    const more = answer(page).total > hits.length;
    return withFacets({ total, ids: hits.map((hit) => hit.id), ...(more && hits.length ? { next: positionOf(hits.at(-1)) } : {}) });
  }

  // Relevance (or an offset page in date order): the list of positions, the model's own records first.
  let list = answer(page).hits;
  const boostCount = boosted === undefined ? 0 : answer(boosted).total;
  if (boostCount > 0 && label) {
    list = await boostedWindow(client, indexUid, texts, filter, label, boostCount, windowStart, windowLength);
  }
  let start = query.after?.rank?.[0] ?? query.offset;
  if (query.after) {
    const found = list.findIndex((hit) => hit.id === query.after?.id);
    if (found >= 0) start = windowStart + found + 1;
  }
  const hits = list.slice(start - windowStart, start - windowStart + query.limit);
  const end = start + hits.length;
  const more = hits.length > 0 && end < Math.min(total, dateOrder ? Infinity : MAX_TOTAL_HITS);
  const next = more ? positionOf(hits.at(-1), dateOrder ? undefined : [end]) : undefined;
  return withFacets({ total, ids: hits.map((hit) => hit.id), ...(next ? { next } : {}) });
}

/**
 * A window of the relevance list when the text equals a model label: that model's records first
 * (in relevance order), then the others.
 */
async function boostedWindow(client: Meilisearch, indexUid: string, texts: readonly string[], filter: string | undefined, label: string, boostCount: number, from: number, size: number): Promise<MeiliHit[]> {
  const own = `model = ${filterValue(label)}`;
  const requests: MeiliRequest[] = [];
  if (from < boostCount) {
    const window = pageWindow(from, Math.min(size, boostCount - from));
    requests.push({ texts, filter: allOf([filter, own]) ?? own, page: window.page, hitsPerPage: window.hitsPerPage });
  }
  const restFrom = Math.max(0, from - boostCount);
  const restSize = size - Math.max(0, Math.min(size, boostCount - from));
  if (restSize > 0) {
    const window = pageWindow(restFrom, restSize);
    requests.push({ texts, filter: allOf([filter, `NOT ${own}`]) ?? `NOT ${own}`, page: window.page, hitsPerPage: window.hitsPerPage });
  }
  const answers = await runRequests(client, indexUid, requests);
  const slices: MeiliHit[] = [];
  let index = 0;
  if (from < boostCount) {
    const window = pageWindow(from, Math.min(size, boostCount - from));
    slices.push(...(answers[index]?.hits ?? []).slice(window.skip, window.skip + Math.min(size, boostCount - from)));
    index += 1;
  }
  if (restSize > 0) {
    const window = pageWindow(restFrom, restSize);
    slices.push(...(answers[index]?.hits ?? []).slice(window.skip, window.skip + restSize));
  }
  return slices;
}
