import Router from '@koa/router';
import { Readable } from 'node:stream';
import type { RecordStore } from '../../domain/ports.ts';
import { catalogBilingualCsv, catalogCsv, catalogJson, catalogNdjson } from '../../exports/public-export.ts';
import type { CsvExportOptions, PublicExport } from '../../exports/public-export.ts';
import { PUBLIC_EXPORTS } from '../../exports/public-export.ts';
import { clientHoldsTag, readOnly } from '../read-route.ts';
import { streamedEntityTag, writtenWithOf } from '../response-cache.ts';
import type { SubmissionQueue, TokenStore } from '../../domain/ports.ts';
import { fullExport } from '../../exports/full-export.ts';
import { parseExportParams, parsePublicExportParams } from '../../validation/read-params.ts';
import { queryOf } from '../query.ts';
import { authorize } from '../middlewares/auth.ts';

const CONTENT_TYPES = { json: 'application/json; charset=utf-8', ndjson: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8; header=present' } as const;

function publicStream(store: RecordStore, route: PublicExport, baseUrl: string, csv: CsvExportOptions): AsyncGenerator<string> {
  if (route.lang === 'bilingual') return catalogBilingualCsv(store, baseUrl, csv);
  if (route.format === 'json') return catalogJson(store, route.lang, baseUrl);
  if (route.format === 'ndjson') return catalogNdjson(store, route.lang, baseUrl);
  return catalogCsv(store, route.lang, baseUrl, csv);
}

/** The public bulk exports, streamed; the ETag follows the catalog's change number and its mark (streamedEntityTag). */
export function exportsRouter(store: RecordStore, baseUrl: string, maxAgeSeconds: number): Router {
  const router = new Router();
  const writtenWith = writtenWithOf(baseUrl);
  for (const route of PUBLIC_EXPORTS) {
    router.all(route.path, async (ctx) => {
      if (readOnly(ctx) === 'handled') return;
      const { excel, bom } = parsePublicExportParams(queryOf(ctx), route.format);
      const csv: CsvExportOptions = { byteOrderMark: excel || bom, neutralizeFormulas: excel };
      const catalog = await store.catalogState();
      const variant = excel ? '-excel' : bom ? '-bom' : '';
      // Weak: the same tag goes with every content coding of the stream (see entityTag).
      const etag = streamedEntityTag(`catalog-${route.lang}-${route.format}${variant}`, catalog, writtenWith);
      ctx.set('ETag', etag);
      ctx.set('Cache-Control', `public, max-age=${maxAgeSeconds}`);
      if (clientHoldsTag(ctx, etag)) {
        ctx.status = 304;
        return;
      }
      const filename = `catalog-${route.lang}${excel ? '-excel' : ''}.${route.format}`;
      ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
      ctx.type = CONTENT_TYPES[route.format];
      // For HEAD an empty stream stands in for the export, so the answer names the content coding GET would use.
      ctx.body = ctx.method === 'HEAD' ? Readable.from([]) : Readable.from(publicStream(store, route, baseUrl, csv));
    });
  }
  return router;
}

/** GET /api/v1/export: canonical records with their submission history, for tokens with the export scope. */
export function fullExportRouter(deps: { store: RecordStore; submissions: SubmissionQueue; tokens: TokenStore; baseUrl: string }): Router {
  const router = new Router();
  router.all('/api/v1/export', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    await authorize(ctx, deps.tokens, 'export');
    const { format, lang, excel, bom } = parseExportParams(queryOf(ctx));
    const spreadsheet = excel === '1';
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Content-Disposition', `attachment; filename="archive-export-${lang}${spreadsheet ? '-excel' : ''}.${format}"`);
    ctx.type = CONTENT_TYPES[format];
    if (ctx.method === 'HEAD') {
      // An empty stream stands in for the export, so the answer names the content coding GET would use.
      ctx.body = Readable.from([]);
      return;
    }
    ctx.body = Readable.from(fullExport(deps.store, deps.submissions, format, lang, deps.baseUrl, { byteOrderMark: spreadsheet || bom === '1', neutralizeFormulas: spreadsheet }));
  });
  return router;
}
