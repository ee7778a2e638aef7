import { cleanText, localizeRecord, mediaUrl } from './localize.ts';
import type { LocalizedRecord } from './localize.ts';
import type { RecordStore, SearchIndex } from './ports.ts';
import { BUILT_IN_SOURCE_TABLE, workKey } from './sources.ts';
import type { SourceTable } from './sources.ts';
import type { PresentedRecords } from './presented-records.ts';
import type { Format, Kind, Lang } from './record.ts';
import { encodeCursor, queryFingerprint } from './cursor.ts';
import type { CursorQuery, CursorState } from './cursor.ts';
import type { FacetCounts, FacetName, SearchFilters, SearchOrder } from './search-query.ts';

/** What the read commands need: the two ports and the public base address, and optionally the process's presented records. */
export interface ReadContext {
  store: RecordStore;
  search: SearchIndex;
  baseUrl: string;
  presented?: PresentedRecords;
  /**
   * The source table as the store keeps it at the catalog's change number (read from the store
   * when not given): the keys the source filter takes and the labels pages show. The built-in
   * table when absent (see sourceTableOf).
   */
  sources?: (changeNumber?: number) => Promise<SourceTable>;
}

/** The context's source table at this change number, or the built-in one when it has none. */
export async function sourceTableOf(context: ReadContext, changeNumber?: number): Promise<SourceTable> {
  return context.sources ? context.sources(changeNumber) : BUILT_IN_SOURCE_TABLE;
}

/** Validated parameters of a list (search or timeline). Mirrors schemas/search-params.schema.json. */
export interface SearchParams {
  q?: string;
  source?: string[];
  format?: Format[];
  kind?: Kind[];
  year?: string[];
  model?: string[];
  author?: string[];
  /** A work's address at its source, in any form: the work's records, by its work key (workPage). */
  sourceUrl?: string;
  from?: string;
  to?: string;
  since?: string;
  facets?: FacetName[];
  lang: Lang;
  sort?: SearchOrder;
  limit: number;
  offset: number;
  cursor?: string;
  /** The walk `cursor` continues, decoded and checked against this query by the validation. */
  after?: CursorState;
}

/** One page of matching records. Mirrors schemas/list-response.schema.json. */
export interface ListResponse<Item = LocalizedRecord> {
  total: number;
  offset: number;
  limit: number;
  items: Item[];
  /** The cursor of the next page, or null when this page ends the list. */
  next: string | null;
  facets?: FacetCounts;
}

/** Which list is read: every record, or the timeline (timeline records, chronological). */
export type ListScope = 'specimens' | 'timeline';

function defaultOrder(scope: ListScope, hasText: boolean): SearchOrder {
  if (scope === 'timeline') return 'oldest';
  return hasText ? 'relevance' : 'newest';
}

/** The search a list asks: filters from the parameters, the timeline fixed to timeline records. */
export function listQuery(params: Omit<SearchParams, 'limit' | 'offset'>, scope: ListScope): CursorQuery {
  // As record text is stored: a soft hyphen or zero-width space typed or pasted into q would split a word the index holds whole.
  const text = cleanText(params.q ?? '').trim() || undefined;
  const filters: SearchFilters = {
    source: params.source,
    format: params.format,
    kind: scope === 'timeline' ? ['timeline'] : params.kind,
    year: params.year,
    model: params.model,
    author: params.author,
    from: params.from,
    to: params.to,
    since: params.since,
  };
  for (const name of Object.keys(filters) as (keyof SearchFilters)[]) if (filters[name] === undefined) delete filters[name];
  return { scope, lang: params.lang, text, filters, order: params.sort ?? defaultOrder(scope, text !== undefined) };
}

/** Searches or lists records and presents one page of them in the asked language. */
export async function listSpecimens(context: ReadContext, params: SearchParams, scope: ListScope): Promise<ListResponse> {
  const { presented } = context;
  if (presented) {
    // Parsing a record's kept JSON costs a third of reading and localizing it again.
    const { changeNumber } = await context.store.catalogState();
    return listPage(context, params, scope, async (ids) => (await presented.json(ids, params.lang, changeNumber)).map((json) => JSON.parse(json.toString()) as LocalizedRecord));
  }
  return listPage(context, params, scope, async (ids) => (await context.store.getRecords(ids)).map((record) => localizeRecord(record, params.lang, context.baseUrl)));
}

/**
 * listSpecimens with each item as its JSON in UTF-8, taken from the process's presented records
 * (read from the store only when they are not there); listJson makes it the same bytes as
 * listSpecimens' answer serialized. changeNumber is the catalog's change number it answers at.
 */
export async function listSpecimensJson(context: ReadContext, params: SearchParams, scope: ListScope, changeNumber: number): Promise<ListResponse<Buffer>> {
  const { presented } = context;
  if (presented) return listPage(context, params, scope, (ids) => presented.json(ids, params.lang, changeNumber));
  return listPage(context, params, scope, async (ids) => (await context.store.getRecords(ids)).map((record) => Buffer.from(JSON.stringify(localizeRecord(record, params.lang, context.baseUrl)))));
}

/** An address copied without its scheme (`twitter.com/…/status/…`, as browsers show it) read as https; other text as it is. */
function withScheme(text: string): string {
  const trimmed = text.trim();
  return /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:[/?#]|$)/i.test(trimmed) ? `https://${trimmed}` : trimmed;
}

/**
 * The records of the work a source address names, in any form its platform writes it: the
 * address made canonical by the source table and keyed as the duplicate check keys a work
 * (workKey), the records of that key read from the store (a gallery record, and the model's
 * timeline record when it is the first work), of the kinds asked (the timeline's alone on the
 * timeline), a page of them by offset and limit. No search runs; a work has few records, so the
 * list has no next page to walk. Text that is no http(s) address names no work.
 */
async function workPage<Item>(context: ReadContext, params: SearchParams & { sourceUrl: string }, scope: ListScope, present: (ids: readonly string[]) => Promise<Item[]>): Promise<ListResponse<Item>> {
  const canonical = (await sourceTableOf(context)).canonicalUrl(withScheme(params.sourceUrl));
  const kinds: readonly Kind[] | undefined = scope === 'timeline' ? ['timeline'] : params.kind;
  const records = canonical ? (await context.store.findByWorkKey(workKey(canonical))).filter((record) => !kinds || kinds.includes(record.kind)) : [];
  const page = records.slice(params.offset, params.offset + params.limit);
  return { total: records.length, offset: params.offset, limit: params.limit, items: page.length ? await present(page.map((record) => record.id)) : [], next: null };
}

/** The UTF-8 JSON of a list whose items are UTF-8 JSON: JSON.stringify of the list with the items parsed, byte for byte. */
export function listJson(list: ListResponse<Buffer>): Buffer {
  // The items' place is marked and filled in; only numbers (total, offset, limit) come before it.
  const marked = JSON.stringify(list, function (this: unknown, key, value: unknown) {
    return this === list && key === 'items' ? ITEMS_MARK : value;
  });
  const at = marked.indexOf(MARKED_ITEMS);
  const parts: Buffer[] = [Buffer.from(`${marked.slice(0, at)}[`)];
  list.items.forEach((item, i) => parts.push(...(i === 0 ? [item] : [COMMA, item])));
  parts.push(Buffer.from(`]${marked.slice(at + MARKED_ITEMS.length)}`));
  return Buffer.concat(parts);
}

const ITEMS_MARK = '\u0000items\u0000';
const MARKED_ITEMS = JSON.stringify(ITEMS_MARK);
const COMMA = Buffer.from(',');

async function listPage<Item>(context: ReadContext, params: SearchParams, scope: ListScope, present: (ids: readonly string[]) => Promise<Item[]>): Promise<ListResponse<Item>> {
  if (params.sourceUrl !== undefined) return workPage(context, { ...params, sourceUrl: params.sourceUrl }, scope, present);
  const query = listQuery(params, scope);
  // On the timeline every record is a timeline record: its kind is not a choice to count.
  const facets = params.facets?.filter((name) => scope !== 'timeline' || name !== 'kind');
  const hits = await context.search.search({
    lang: query.lang,
    ...(query.text === undefined ? {} : { text: query.text }),
    filters: query.filters,
    order: query.order,
    offset: params.after ? 0 : params.offset,
    limit: params.limit,
    ...(params.after ? { after: params.after.position } : {}),
    ...(facets?.length ? { facets } : {}),
  });
  const items = hits.ids.length ? await present(hits.ids) : [];
  const offset = params.after ? params.after.returned : params.offset;
  const response: ListResponse<Item> = {
    total: hits.total,
    offset,
    limit: params.limit,
    items,
    next: hits.next ? encodeCursor(queryFingerprint(query), { position: hits.next, returned: offset + hits.ids.length }) : null,
  };
  if (params.facets?.length) {
    const timelineKinds = hits.total > 0 ? { timeline: hits.total } : {};
    response.facets = Object.fromEntries(params.facets.map((name) => [name, scope === 'timeline' && name === 'kind' ? timelineKinds : (hits.facets?.[name] ?? {})]));
  }
  return response;
}

/** One record in the asked language, or undefined for an unknown id. */
export async function getSpecimen(context: ReadContext, id: string, lang: Lang): Promise<LocalizedRecord | undefined> {
  const record = await context.store.getRecord(id);
  return record ? localizeRecord(record, lang, context.baseUrl) : undefined;
}

/** A record as its web page shows it: in the asked language, with each preview's still (its WebP thumbnail, the first frame), null where none is stored. */
export interface SpecimenPage {
  record: LocalizedRecord;
  stills: (string | null)[];
}

/**
 * One record for its web page, or undefined for an unknown id. The stills are the page's alone (a
 * preview that may be animated is shown still until the reader plays it): the API gives the first
 * preview's thumbnail only, as it always did.
 */
export async function getSpecimenPage(context: ReadContext, id: string, lang: Lang): Promise<SpecimenPage | undefined> {
  const record = await context.store.getRecord(id);
  if (!record) return undefined;
  return { record: localizeRecord(record, lang, context.baseUrl), stills: record.media.map((media) => (media.thumbnailPath ? mediaUrl(context.baseUrl, media.thumbnailPath) : null)) };
}
