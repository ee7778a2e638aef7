/**
 * The MCP resources: the guide in both languages, the catalog description, the facets of the
 * whole catalog, and every record through two URI templates (Chinese and English).
 */
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { describeCatalog } from '../domain/catalog-description.ts';
import { RECORD_ID_PATTERN } from '../domain/ids.ts';
import { retiredIdNote } from '../domain/record-fates.ts';
import { LANGS } from '../domain/record.ts';
import type { Lang } from '../domain/record.ts';
import { FACET_NAMES } from '../domain/search-query.ts';
import type { FacetCounts } from '../domain/search-query.ts';
import { getSpecimen, sourceTableOf } from '../domain/specimens.ts';
import type { ReadContext } from '../domain/specimens.ts';
import { guideText } from '../guides/llms-text.ts';
import type { GuideSettings } from '../guides/llms-text.ts';
import { recordMarkdown } from '../web/markdown.ts';
import { ProtocolError } from './protocol-error.ts';
import { recordUri, resourceUris } from './resource-list.ts';

/** The JSON-RPC error the MCP specification names for a resource that does not exist. */
export const RESOURCE_NOT_FOUND = -32002;

const RECORD_URI = /^archive:\/\/(en\/)?specimens\/([^/?#]+)$/;

/** The whole catalog's counts per value of each facet, and the labels of the sources counted. */
export async function catalogFacets(context: ReadContext): Promise<{ total: number; models: Record<string, number>; sources: Record<string, number>; sourceLabels: Record<string, { zh: string; en: string }>; years: Record<string, number>; formats: Record<string, number>; kinds: Record<string, number> }> {
  const hits = await context.search.search({ lang: 'en', filters: {}, order: 'newest', offset: 0, limit: 1, facets: FACET_NAMES });
  const facets: FacetCounts = hits.facets ?? {};
  const table = await sourceTableOf(context);
  const sources = facets.source ?? {};
  const sourceLabels = Object.fromEntries(Object.keys(sources).map((key) => [key, { zh: table.label(key, 'zh'), en: table.label(key, 'en') }]));
  return { total: hits.total, models: facets.model ?? {}, sources, sourceLabels, years: facets.year ?? {}, formats: facets.format ?? {}, kinds: facets.kind ?? {} };
}

/** A record as a resource: its Markdown twin, or undefined for an unknown id. */
/**
 * Why an id gives no record, for a tool, resource or prompt error: where a moved id went, why a
 * withdrawn one left (as over HTTP, 301 and 410), or that no record ever had it.
 */
export async function missingRecordMessage(context: ReadContext, id: string): Promise<string> {
  return (await retiredIdNote(context.store, id)) ?? `No record has the id "${id.slice(0, 128)}". Use search_specimens to find ids.`;
}

export async function recordResource(context: ReadContext, id: string, lang: Lang): Promise<ReadResourceResult['contents'][number] | undefined> {
  const record = RECORD_ID_PATTERN.test(id) ? await getSpecimen(context, id, lang) : undefined;
  return record && { uri: recordUri(id, lang), mimeType: 'text/markdown', text: recordMarkdown(record, lang) };
}

/** Reads one resource by URI; an unknown URI or record is a resource-not-found error. */
export async function readResource(context: ReadContext, uri: string, guide: GuideSettings): Promise<ReadResourceResult> {
  const uris = resourceUris(context.baseUrl);
  const json = async (value: Promise<unknown>): Promise<ReadResourceResult> => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(await value, null, 1) }] });
  if (uri === uris.guideZh || uri === uris.guideEn) return { contents: [{ uri, mimeType: 'text/markdown', text: guideText(uri === uris.guideZh ? 'zh' : 'en', context.baseUrl, guide) }] };
  if (uri === uris.catalog) return json(describeCatalog(context));
  if (uri === uris.facets) return json(catalogFacets(context));
  const match = RECORD_URI.exec(uri);
  if (match) {
    const lang: Lang = match[1] ? 'en' : 'zh';
    const id = match[2] ?? '';
    const content = await recordResource(context, id, lang);
    if (content) return { contents: [content] };
    throw new ProtocolError(RESOURCE_NOT_FOUND, await missingRecordMessage(context, id));
  }
  throw new ProtocolError(RESOURCE_NOT_FOUND, `Unknown resource "${uri.slice(0, 200)}". Resources: ${Object.values(uris).join(', ')}, ${LANGS.map((lang) => recordUri('{id}', lang)).join(', ')}.`);
}
