/**
 * What resources/list and resources/templates/list offer: the guide in both languages, the
 * catalog description, its facets, and the two record templates. The guide (/llms.txt) lists the
 * same, from here.
 */
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { Lang } from '../domain/record.ts';

/** Fixed resource URIs: the guide in both languages, the catalog description and its facets. */
export function resourceUris(baseUrl: string): { guideZh: string; guideEn: string; catalog: string; facets: string } {
  return { guideZh: `${baseUrl}/llms.txt`, guideEn: `${baseUrl}/en/llms.txt`, catalog: 'archive://catalog', facets: 'archive://facets' };
}

/** The URI of a record in one language, as the templates write it. */
export function recordUri(id: string, lang: Lang): string {
  return lang === 'zh' ? `archive://specimens/${id}` : `archive://en/specimens/${id}`;
}

/** The record templates, one per language; a record's Markdown with its citation. */
export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  { uriTemplate: 'archive://specimens/{id}', name: 'record-zh', title: '档案记录（中文）', description: 'One record in Chinese, as Markdown with its citation.', mimeType: 'text/markdown' },
  { uriTemplate: 'archive://en/specimens/{id}', name: 'record-en', title: 'Archive record (English)', description: 'One record in English, as Markdown with its citation.', mimeType: 'text/markdown' },
];

/** The fixed resources, in the order resources/list gives them. */
export function resourceList(baseUrl: string): Resource[] {
  const uris = resourceUris(baseUrl);
  return [
    { uri: uris.guideZh, name: 'guide-zh', title: '档案馆指南（中文）', description: 'The archive guide in Chinese, the text of /llms.txt.', mimeType: 'text/markdown' },
    { uri: uris.guideEn, name: 'guide-en', title: 'Archive guide (English)', description: 'The archive guide in English, the text of /en/llms.txt.', mimeType: 'text/markdown' },
    { uri: uris.catalog, name: 'catalog', title: 'Catalog description', description: 'Version, compilation date, counts per kind and format, the search parameters and their allowed values, the sources with their labels.', mimeType: 'application/json' },
    { uri: uris.facets, name: 'facets', title: 'Catalog facets', description: 'Records per model, source (with its labels), year, format and kind over the whole catalog (top 100 values each).', mimeType: 'application/json' },
  ];
}
