import { localizeRecord } from '../../domain/localize.ts';
import { atomFeed } from '../../web/feed.ts';
import { robotsText } from '../../web/robots.ts';
import { BUILT_IN_SOURCE_TABLE } from '../../domain/sources.ts';
import { pagesSitemapXml, sitemapFiles, sitemapIndexXml, URLS_PER_SITEMAP } from '../../web/sitemap.ts';
import { CACHE_HEADERS, NOT_MODIFIED, operation, pathParameter, problem, textResponse } from '../responses.ts';
import type { DocContext, JsonObject } from '../responses.ts';

/** /robots.txt, the sitemaps and the Atom feeds. */
export function discoveryPaths(doc: DocContext): JsonObject {
  const feed = (path: string, lang: 'zh' | 'en'): JsonObject => ({
    get: operation(doc, {
      path,
      operationId: lang === 'zh' ? 'getFeedZh' : 'getFeedEn',
      summary: `Atom feed of newly published works in ${lang === 'zh' ? 'Chinese' : 'English'} (the newest 50)`,
      description: 'Atom 1.0 (RFC 4287): one entry per work (gallery record), newest first, each with its page, original source, author, thumbnail, notes and citation. Query parameters are ignored.',
      tags: ['website'],
      responses: {
        200: textResponse('The feed.', 'application/atom+xml', atomFeed(lang, doc.baseUrl, [localizeRecord(doc.example, lang, doc.baseUrl)], doc.example.updated, BUILT_IN_SOURCE_TABLE), CACHE_HEADERS),
        304: NOT_MODIFIED,
        405: problem(doc, 405, path),
      },
    }),
  });
  return {
    '/robots.txt': {
      get: operation(doc, {
        path: '/robots.txt',
        operationId: 'getRobots',
        summary: 'Rules for crawlers, naming the sitemap',
        tags: ['website'],
        usesStore: false,
        responses: { 200: textResponse('The rules.', 'text/plain', robotsText(doc.baseUrl), CACHE_HEADERS), 304: NOT_MODIFIED, 405: problem(doc, 405, '/robots.txt') },
      }),
    },
    '/sitemap.xml': {
      get: operation(doc, {
        path: '/sitemap.xml',
        operationId: 'getSitemapIndex',
        summary: `Sitemap index: the pages file and one file per ${URLS_PER_SITEMAP.toLocaleString('en')} record URLs`,
        tags: ['website'],
        responses: { 200: textResponse('The sitemap index (sitemaps.org 0.9).', 'application/xml', sitemapIndexXml(doc.baseUrl, sitemapFiles([doc.firstRecordId]), doc.example.updated), CACHE_HEADERS), 304: NOT_MODIFIED, 405: problem(doc, 405, '/sitemap.xml') },
      }),
    },
    '/sitemaps/{file}': {
      get: operation(doc, {
        path: '/sitemaps/{file}',
        operationId: 'getSitemap',
        summary: 'One sitemap file: pages.xml, or records-{first id}.xml with the record pages in both languages (from that record on, in id order), hreflang alternates and lastmod',
        tags: ['website'],
        parameters: [pathParameter('file', 'A file the index names: pages.xml, or records- and the id of the file\'s first record.', `records-${doc.firstRecordId}.xml`, { type: 'string', pattern: '^(pages|records-[a-z0-9][a-z0-9-]{0,127})\\.xml$' })],
        responses: {
          200: textResponse('The sitemap (sitemaps.org 0.9 with xhtml:link alternates).', 'application/xml', pagesSitemapXml(doc.baseUrl, doc.example.updated), CACHE_HEADERS),
          304: NOT_MODIFIED,
          404: problem(doc, 404, '/sitemaps/{file}', { detail: `No sitemap file is named "records-svg-none-00000000.xml"; the index is ${doc.baseUrl}/sitemap.xml.` }),
          405: problem(doc, 405, '/sitemaps/{file}'),
        },
      }),
    },
    '/feed.atom': feed('/feed.atom', 'zh'),
    '/en/feed.atom': feed('/en/feed.atom', 'en'),
  };
}
