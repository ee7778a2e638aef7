import { recordPageUrl } from '../domain/localize.ts';
import type { RecordStore } from '../domain/ports.ts';
import { langPrefix } from './i18n.ts';
import { LANGUAGE_TAG } from './structured-data.ts';
import { xmlText } from './xml.ts';

/** The sitemaps.org limit of URLs in one sitemap file. */
export const URLS_PER_SITEMAP = 50_000;

/** Every record has a page in both languages, so a sitemap file holds this many records. */
export const RECORDS_PER_SITEMAP = URLS_PER_SITEMAP / 2;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const URLSET_OPEN = `${XML_DECLARATION}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n`;
const URLSET_CLOSE = '</urlset>\n';

/** The pages of the site other than records, as zh/en path pairs. */
const SITE_PAGES: readonly (readonly [string, string])[] = ['/', '/timeline/', '/developers/'].map((path) => [path, `${langPrefix('en')}${path}`] as const);

/** The sitemap files of a catalog of `total` records: the site's pages, then one file per `recordsPerFile` records. */
export function sitemapFiles(total: number, recordsPerFile = RECORDS_PER_SITEMAP): string[] {
  return ['pages.xml', ...Array.from({ length: Math.ceil(total / recordsPerFile) }, (_, index) => `records-${index + 1}.xml`)];
}

/** The sitemap index (`/sitemap.xml`): one entry per sitemap file. */
export function sitemapIndexXml(baseUrl: string, files: readonly string[], lastmod: string | null): string {
  const entries = files.map((file) => `  <sitemap><loc>${xmlText(`${baseUrl}/sitemaps/${file}`)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</sitemap>\n`);
  return `${XML_DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('')}</sitemapindex>\n`;
}

/** Two `<url>` entries, one per language, each naming both languages and the default (Chinese, at the root) as alternates. */
function pagePair(zh: string, en: string, lastmod: string | null): string {
  const alternates = `<xhtml:link rel="alternate" hreflang="${LANGUAGE_TAG.zh}" href="${xmlText(zh)}"/><xhtml:link rel="alternate" hreflang="${LANGUAGE_TAG.en}" href="${xmlText(en)}"/><xhtml:link rel="alternate" hreflang="x-default" href="${xmlText(zh)}"/>`;
  const modified = lastmod ? `<lastmod>${lastmod}</lastmod>` : '';
  return [zh, en].map((loc) => `  <url><loc>${xmlText(loc)}</loc>${modified}${alternates}</url>\n`).join('');
}

/** The sitemap of the site's own pages (gallery, timeline, developers) in both languages. */
export function pagesSitemapXml(baseUrl: string, lastmod: string | null): string {
  return `${URLSET_OPEN}${SITE_PAGES.map(([zh, en]) => pagePair(`${baseUrl}${zh}`, `${baseUrl}${en}`, lastmod)).join('')}${URLSET_CLOSE}`;
}

/**
 * Records sitemap number `file` (from 1): the pages of the records at positions
 * (file-1)·recordsPerFile … file·recordsPerFile − 1 in id order, both languages, with the
 * record's compilation date as lastmod. Streamed from the store.
 */
export async function* recordsSitemapXml(store: RecordStore, baseUrl: string, file: number, recordsPerFile = RECORDS_PER_SITEMAP): AsyncGenerator<string> {
  const first = (file - 1) * recordsPerFile;
  let position = 0;
  let chunk = URLSET_OPEN;
  for await (const record of store.streamRecords()) {
    if (position >= first + recordsPerFile) break;
    if (position >= first) chunk += pagePair(recordPageUrl(baseUrl, record.id, 'zh'), recordPageUrl(baseUrl, record.id, 'en'), record.updated);
    position += 1;
    if (chunk.length > 65536) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}${URLSET_CLOSE}`;
}
