import Router from '@koa/router';
import type { Context } from 'koa';
import { Readable } from 'node:stream';
import { localizeRecord } from '../../domain/localize.ts';
import { sourceTableOf } from '../../domain/specimens.ts';
import type { ReadContext } from '../../domain/specimens.ts';
import { ProblemError } from '../../errors.ts';
import { atomFeed, FEED_SIZE } from '../../web/feed.ts';
import { langPrefix } from '../../web/i18n.ts';
import { robotsText } from '../../web/robots.ts';
import { pagesSitemapXml, RECORDS_PER_SITEMAP, recordsFileStart, recordsSitemapXml, sitemapFiles, sitemapIndexXml } from '../../web/sitemap.ts';
import { clientHoldsTag, readOnly, sendWithEntityTag } from '../read-route.ts';
import { entityTag, streamedEntityTag, writtenWithOf } from '../response-cache.ts';
import type { ResponseCache } from '../response-cache.ts';

export interface DiscoveryOptions {
  cache: ResponseCache;
  maxAgeSeconds: number;
  /** Records per sitemap file (two URLs each); the sitemaps.org limit unless a test asks for less. */
  recordsPerSitemap?: number;
}

const XML = 'application/xml; charset=utf-8';

/**
 * What crawlers and feed readers ask for: /robots.txt, the sitemap index /sitemap.xml and its
 * files under /sitemaps/, and the Atom feeds of newly published works (/feed.atom, /en/feed.atom).
 * Query parameters are ignored (shared feed links carry utm_…).
 */
export function discoveryRouter(context: ReadContext, options: DiscoveryOptions): Router {
  const router = new Router();
  const writtenWith = writtenWithOf(context.baseUrl);
  const { store, baseUrl } = context;
  const recordsPerSitemap = options.recordsPerSitemap ?? RECORDS_PER_SITEMAP;

  /** Answers a small document built from the catalog, kept per worker until the catalog changes. */
  const cached = async (ctx: Context, type: string, build: (changeNumber: number) => Promise<string>): Promise<void> => {
    if (readOnly(ctx) === 'handled') return;
    const { changeNumber } = await store.catalogState();
    const key = `discovery:${ctx.path}`;
    let response = options.cache.get(key, changeNumber);
    if (!response) {
      const body = await build(changeNumber);
      response = { body, etag: entityTag(body) };
      options.cache.set(key, changeNumber, response);
    }
    sendWithEntityTag(ctx, response.body, response.etag, type, options.maxAgeSeconds);
  };

  const robots = robotsText(baseUrl);
  const robotsTag = entityTag(robots);
  router.all('/robots.txt', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    sendWithEntityTag(ctx, robots, robotsTag, 'text/plain; charset=utf-8', options.maxAgeSeconds);
  });

  router.all('/sitemap.xml', (ctx) =>
    cached(ctx, XML, async () => {
      const state = await store.catalogState();
      return sitemapIndexXml(baseUrl, sitemapFiles(await store.pageStarts(recordsPerSitemap)), state.updated);
    }),
  );

  router.all('/sitemaps/:file', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    const file = ctx.params.file ?? '';
    const state = await store.catalogState();
    if (file === 'pages.xml') {
      const body = pagesSitemapXml(baseUrl, state.updated);
      sendWithEntityTag(ctx, body, entityTag(body), XML, options.maxAgeSeconds);
      return;
    }
    const first = recordsFileStart(file);
    const body = first === undefined ? undefined : await recordsSitemapXml(store, baseUrl, first, recordsPerSitemap);
    if (!body) throw new ProblemError('not-found', `No sitemap file is named "${file.slice(0, 64)}"; the index is ${baseUrl}/sitemap.xml.`);
    const etag = streamedEntityTag(`sitemap-${file}`, state, writtenWith);
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', `public, max-age=${options.maxAgeSeconds}`);
    const notModified = clientHoldsTag(ctx, etag);
    if (notModified) ctx.status = 304;
    else ctx.type = XML;
    if (notModified || ctx.method === 'HEAD') {
      await body.return(undefined);
      // For HEAD an empty stream stands in for the file, so the answer names the content coding GET would use.
      if (!notModified) ctx.body = Readable.from([]);
      return;
    }
    ctx.body = Readable.from(body);
  });

  for (const lang of ['zh', 'en'] as const) {
    router.all(`${langPrefix(lang)}/feed.atom`, (ctx) =>
      cached(ctx, 'application/atom+xml; charset=utf-8', async (changeNumber) => {
        const [latest, state, sources] = await Promise.all([store.latestRecords('gallery', FEED_SIZE), store.catalogState(), sourceTableOf(context, changeNumber)]);
        return atomFeed(lang, baseUrl, latest.map((record) => localizeRecord(record, lang, baseUrl)), state.updated, sources);
      }),
    );
  }
  return router;
}
