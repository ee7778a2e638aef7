import { localizeRecord } from './localize.ts';
import type { LocalizedRecord } from './localize.ts';
import type { RecordStore, SearchIndex } from './ports.ts';
import type { Format, Kind, Lang } from './record.ts';
import type { SearchOrder } from './search-query.ts';

/** What the read commands need: the two ports and the public base address. */
export interface ReadContext {
  store: RecordStore;
  search: SearchIndex;
  baseUrl: string;
}

/** Validated parameters of a list (search or timeline). Mirrors schemas/search-params.schema.json. */
export interface SearchParams {
  q?: string;
  source?: string;
  format?: Format;
  kind?: Kind;
  year?: string;
  lang: Lang;
  sort?: SearchOrder;
  limit: number;
  offset: number;
}

/** One page of matching records. Mirrors schemas/list-response.schema.json. */
export interface ListResponse {
  total: number;
  offset: number;
  limit: number;
  items: LocalizedRecord[];
}

/** Which list is read: every record, or the timeline (timeline records, chronological). */
export type ListScope = 'specimens' | 'timeline';

function defaultOrder(scope: ListScope, hasText: boolean): SearchOrder {
  if (scope === 'timeline') return 'oldest';
  return hasText ? 'relevance' : 'newest';
}

/** Searches or lists records and presents one page of them in the asked language. */
export async function listSpecimens(context: ReadContext, params: SearchParams, scope: ListScope): Promise<ListResponse> {
  const text = params.q?.trim() || undefined;
  const hits = await context.search.search({
    lang: params.lang,
    text,
    filters: {
      source: params.source,
      format: params.format,
      kind: scope === 'timeline' ? 'timeline' : params.kind,
      year: params.year,
    },
    order: params.sort ?? defaultOrder(scope, text !== undefined),
    offset: params.offset,
    limit: params.limit,
  });
  const records = hits.ids.length ? await context.store.getRecords(hits.ids) : [];
  return {
    total: hits.total,
    offset: params.offset,
    limit: params.limit,
    items: records.map((record) => localizeRecord(record, params.lang, context.baseUrl)),
  };
}

/** One record in the asked language, or undefined for an unknown id. */
export async function getSpecimen(context: ReadContext, id: string, lang: Lang): Promise<LocalizedRecord | undefined> {
  const record = await context.store.getRecord(id);
  return record ? localizeRecord(record, lang, context.baseUrl) : undefined;
}
