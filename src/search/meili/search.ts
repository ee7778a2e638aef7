/**
 * One archive search on Meilisearch, as the SearchIndex port defines it:
 * - exact totals (exhaustive page mode, uncapped: see MAX_TOTAL_HITS);
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
import { CJK_CHARACTER, parseSearchText } from '../search-text.ts';
import type { ParsedQuery } from '../search-text.ts';
import { SEARCHABLE_GROUP_NAMES } from './documents.ts';
import type { MeiliAnswer, MeiliHit, MeiliRequest } from './requests.ts';
import { runRequests } from './requests.ts';
import { afterExpression, allOf, filterExpression, filterValue, pageWindow, queryTexts, sortFor } from './query.ts';

/** Hits read on either side of a relevance cursor's position, to find its last record again after the catalog changed. */
export const RESYNC_SLACK = 10;

/** When the cursor's last record is not within RESYNC_SLACK of its place, a second read looks this far on either side. */
export const RESYNC_WIDE = 1000;

function facetCounts(names: readonly FacetName[], answers: ReadonlyMap<FacetName, MeiliAnswer>): FacetCounts {
  return Object.fromEntries(names.map((name) => [name, topFacetValues(Object.entries(answers.get(name)?.facets[name] ?? {}))]));
}

function positionOf(hit: MeiliHit | undefined, rank?: number[]): SearchPosition | undefined {
  return hit && { date: hit.date, id: hit.id, ...(rank ? { rank } : {}) };
}

/**
 * Whether a hit comes after a relevance position in Meilisearch's order: the model label's own
 * records first, then by ranking score (the buckets of every ranking rule but the sort rules, as
 * one number that orders exactly like them), then date descending, then id.
 */
function comesAfter(hit: MeiliHit, position: SearchPosition, score: number, part: number): boolean {
  const hitPart = hit.part ?? 0;
  if (hitPart !== part) return hitPart < part;
  if (hit.score !== score) return (hit.score ?? 0) < score;
  if (hit.date !== position.date) return hit.date < position.date;
  return hit.id > position.id;
}

/**
 * Where a relevance walk resumes in a window of the list (read from `from`, `asked` hits): just
 * after the position's record when the window holds it; otherwise, when the position carries its
 * score, at the first hit after it, provided the window reaches back before the position (or is
 * the list's start) and forward past it (or to the list's end). Undefined when the window cannot
 * tell.
 */
export function resumeAt(list: readonly MeiliHit[], from: number, asked: number, position: SearchPosition): number | undefined {
  const found = list.findIndex((hit) => hit.id === position.id);
  if (found >= 0) return from + found + 1;
  const [, score, part] = position.rank ?? [];
  if (score === undefined || part === undefined || list.some((hit) => hit.score === undefined)) return undefined;
  const next = list.findIndex((hit) => comesAfter(hit, position, score, part));
  if (next > 0 || (next === 0 && from === 0)) return from + next;
  if (next < 0 && list.length < asked) return from + list.length;
  return undefined;
}

/** Whether any term of a query, excluded ones too, holds a CJK character. */
function holdsCjk(query: ParsedQuery): boolean {
  const terms = [...query.groups.flatMap((group) => group.alternatives.flat()), ...query.excluded];
  return terms.some((term) => (term.type === 'word' ? CJK_CHARACTER.test(term.word) : term.tokens.some((token) => CJK_CHARACTER.test(token))));
}

/** Runs one search against the index of the query's language. */
export async function searchIndex(client: Meilisearch, indexUid: string, query: SearchQuery): Promise<SearchHits> {
  const parsed = query.text?.trim() ? parseSearchText(query.text) : undefined;
  const facetNames = query.facets ?? [];
  if (parsed && parsed.groups.length === 0 && parsed.excluded.length === 0) {
    return { total: 0, ids: [], ...(facetNames.length ? { facets: Object.fromEntries(facetNames.map((name) => [name, {}])) } : {}) };
  }
  const texts = parsed ? queryTexts(parsed) : [''];
  // Text without CJK characters is matched in the text fields alone: the CJK fields hold codes made
  // of Latin letters (documents.ts), which a word typed as `qx` or `qyab` would otherwise find.
  const searchOn = parsed && !holdsCjk(parsed) ? SEARCHABLE_GROUP_NAMES : undefined;
  const send = (batch: readonly MeiliRequest[]): Promise<MeiliAnswer[]> => runRequests(client, indexUid, batch, searchOn);
  const hasText = parsed !== undefined && parsed.groups.length > 0;
  const dateOrder = query.order === 'oldest' ? 'oldest' : query.order === 'newest' || !hasText ? 'newest' : undefined;
  const sort = sortFor(query.order, hasText);
  const filter = filterExpression(query.filters);
  const limit = Math.max(1, query.limit);
  const keyset = dateOrder !== undefined && query.after !== undefined;
  const separate = facetNames.filter((name) => query.filters[name] !== undefined);
  const shared = facetNames.filter((name) => query.filters[name] === undefined);
  // A relevance position is compared by ranking score; a federated search (OR) merges its
  // queries' hits by a score of its own, so its positions are found by their record alone.
  const scored = dateOrder === undefined && texts.length === 1;

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
    page = ask({ ...(filter ? { filter } : {}), ...(sort ? { sort } : {}), page: window.page, hitsPerPage: window.hitsPerPage, facets: shared, ...(scored ? { score: true } : {}) });
  }
  const count = keyset ? ask({ ...(filter ? { filter } : {}), page: 1, hitsPerPage: 0, facets: shared }) : page;
  const facetAnswers = new Map<FacetName, number>(shared.map((name) => [name, count]));
  for (const name of separate) {
    const leftOut = filterExpression(query.filters, name);
    facetAnswers.set(name, ask({ ...(leftOut ? { filter: leftOut } : {}), page: 1, hitsPerPage: 0, facets: [name] }));
  }
  const label = hasText && !dateOrder && parsed && !parsed.label.includes('\\') ? parsed.label : undefined;
  const boosted = label ? ask({ filter: allOf([filter, `model = ${filterValue(label)}`]) ?? '', page: 1, hitsPerPage: 0 }) : undefined;

  const answers = await send(requests);
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
  const boostCount = boosted === undefined ? 0 : answer(boosted).total;
  const read = async (from: number, size: number): Promise<MeiliHit[]> => {
    if (boostCount > 0 && label) return boostedWindow(send, texts, filter, label, boostCount, from, size, scored);
    const window = pageWindow(from, size);
    const [wide] = await send([{ texts, ...(filter ? { filter } : {}), ...(sort ? { sort } : {}), page: window.page, hitsPerPage: window.hitsPerPage, ...(scored ? { score: true } : {}) }]);
    return (wide?.hits ?? []).slice(window.skip, window.skip + size);
  };
  let list = boostCount > 0 ? await read(windowStart, windowLength) : answer(page).hits;
  let start = query.after?.rank?.[0] ?? query.offset;
  if (query.after) {
    let resumed = resumeAt(list, windowStart, windowLength, query.after);
    if (resumed === undefined) {
      // More than RESYNC_SLACK records were published or removed before the position: look further.
      windowStart = Math.max(0, start - RESYNC_WIDE);
      windowLength = start - windowStart + limit + RESYNC_WIDE;
      list = await read(windowStart, windowLength);
      resumed = resumeAt(list, windowStart, windowLength, query.after);
    }
    // Beyond that, the place in the list it had (a record may repeat or be skipped).
    if (resumed !== undefined) start = resumed;
  }
  const hits = list.slice(start - windowStart, start - windowStart + query.limit);
  const end = start + hits.length;
  const more = hits.length > 0 && end < total;
  const last = hits.at(-1);
  const next = more ? positionOf(last, dateOrder ? undefined : [end, ...(scored && last?.score !== undefined ? [last.score, last.part ?? 0] : [])]) : undefined;
  return withFacets({ total, ids: hits.map((hit) => hit.id), ...(next ? { next } : {}) });
}

/**
 * A window of the relevance list when the text equals a model label: that model's records first
 * (in relevance order), then the others.
 */
async function boostedWindow(send: (requests: readonly MeiliRequest[]) => Promise<MeiliAnswer[]>, texts: readonly string[], filter: string | undefined, label: string, boostCount: number, from: number, size: number, score: boolean): Promise<MeiliHit[]> {
  const own = `model = ${filterValue(label)}`;
  const requests: MeiliRequest[] = [];
  if (from < boostCount) {
    const window = pageWindow(from, Math.min(size, boostCount - from));
    requests.push({ texts, filter: allOf([filter, own]) ?? own, page: window.page, hitsPerPage: window.hitsPerPage, score });
  }
  const restFrom = Math.max(0, from - boostCount);
  const restSize = size - Math.max(0, Math.min(size, boostCount - from));
  if (restSize > 0) {
    const window = pageWindow(restFrom, restSize);
    requests.push({ texts, filter: allOf([filter, `NOT ${own}`]) ?? `NOT ${own}`, page: window.page, hitsPerPage: window.hitsPerPage, score });
  }
  const answers = await send(requests);
  const slices: MeiliHit[] = [];
  let index = 0;
  if (from < boostCount) {
    const window = pageWindow(from, Math.min(size, boostCount - from));
    slices.push(...(answers[index]?.hits ?? []).slice(window.skip, window.skip + Math.min(size, boostCount - from)).map((hit) => ({ ...hit, part: 1 })));
    index += 1;
  }
  if (restSize > 0) {
    const window = pageWindow(restFrom, restSize);
    slices.push(...(answers[index]?.hits ?? []).slice(window.skip, window.skip + restSize));
  }
  return slices;
}
