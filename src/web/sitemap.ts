import { recordPageUrl } from '../domain/localize.ts';
import { RECORD_ID_PATTERN } from '../domain/ids.ts';
import type { RecordStore } from '../domain/ports.ts';
import type { StoredRecord } from '../domain/record.ts';
import { langPrefix } from './i18n.ts';
import { LANGUAGE_TAG } from './structured-data.ts';
import { xmlText } from './xml.ts';

/** The sitemaps.org limit of URLs in one sitemap file. */
export const URLS_PER_SITEMAP = 50_000;

/** Every record has a page in both languages, so a sitemap file holds this many records. */
export const RECORDS_PER_SITEMAP = URLS_PER_SITEMAP / 2;

/** Records read from the store per query while a file is written. */
const READ_BATCH = 500;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const URLSET_OPEN = `${XML_DECLARATION}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n`;
const URLSET_CLOSE = '</urlset>\n';

/** The pages of the site other than records, as zh/en path pairs. */
const SITE_PAGES: readonly (readonly [string, string])[] = ['/', '/timeline/', '/developers/'].map((path) => [path, `${langPrefix('en')}${path}`] as const);

/**
 * The sitemap files of a catalog whose records, in id order, are cut into files starting at these
 * ids (RecordStore.pageStarts): the site's pages, then one file per start, named by its first id,
 * so a file is read from its own first record on, whatever comes before it.
 */
export function sitemapFiles(recordFileStarts: readonly string[]): string[] {
  return ['pages.xml', ...recordFileStarts.map((id) => `records-${id}.xml`)];
}

/** The first id of a records sitemap file's name; undefined for a name that is not one. */
export function recordsFileStart(file: string): string | undefined {
  const id = /^records-(.+)\.xml$/.exec(file)?.[1];
  return id !== undefined && RECORD_ID_PATTERN.test(id) ? id : undefined;
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
 * A records sitemap file: the pages of at most `recordsPerFile` records in id order from the id
 * `first` on, both languages, with the record's compilation date as lastmod. Streamed from the
 * store, which reads only these records. Undefined when no record has the id `first` (a name the
 * index never gave, or a file whose first record was withdrawn since: the index names the files
 * of the moment).
 */
export async function recordsSitemapXml(store: RecordStore, baseUrl: string, first: string, recordsPerFile = RECORDS_PER_SITEMAP): Promise<AsyncGenerator<string> | undefined> {
  const records = store.streamRecords({ from: first, batchSize: Math.min(READ_BATCH, recordsPerFile) })[Symbol.asyncIterator]();
  const head = await records.next();
  if (head.done || head.value.id !== first) return undefined;
  return (async function* urlset(): AsyncGenerator<string> {
    let chunk = URLSET_OPEN;
    let record: StoredRecord | undefined = head.value;
    for (let written = 0; record && written < recordsPerFile; written += 1) {
      chunk += pagePair(recordPageUrl(baseUrl, record.id, 'zh'), recordPageUrl(baseUrl, record.id, 'en'), record.updated);
      if (chunk.length > 65536) {
        yield chunk;
        chunk = '';
      }
      // The next record is asked for only while the file has room: nothing past the file is read.
      record = written + 1 < recordsPerFile ? ((await records.next()).value ?? undefined) : undefined;
    }
    await records.return?.();
    yield `${chunk}${URLSET_CLOSE}`;
  })();
}
