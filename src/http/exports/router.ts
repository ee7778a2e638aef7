import Router from '@koa/router';
import { Readable } from 'node:stream';
import type { RecordStore } from '../../domain/ports.ts';
import type { Lang } from '../../domain/record.ts';
import { ProblemError } from '../../errors.ts';
import type { FieldError } from '../../errors.ts';
import { catalogCsv, catalogJson } from '../../exports/public-export.ts';
import { readOnly } from '../read-route.ts';
import type { SubmissionQueue, TokenStore } from '../../domain/ports.ts';
import { fullExport } from '../../exports/full-export.ts';
import { parseExportParams } from '../../validation/read-params.ts';
import type { RawQuery } from '../../validation/read-params.ts';
import { authorize } from '../middlewares/auth.ts';

const ROUTES: { path: string; lang: Lang; format: 'json' | 'csv' }[] = [
  { path: '/data/catalog.json', lang: 'zh', format: 'json' },
  { path: '/data/catalog.csv', lang: 'zh', format: 'csv' },
  { path: '/en/data/catalog.json', lang: 'en', format: 'json' },
  { path: '/en/data/catalog.csv', lang: 'en', format: 'csv' },
];

/** The public bulk exports, streamed; the ETag follows the catalog's change number. */
export function exportsRouter(store: RecordStore, baseUrl: string, maxAgeSeconds: number): Router {
  const router = new Router();
  for (const route of ROUTES) {
    router.all(route.path, async (ctx) => {
      if (readOnly(ctx) === 'handled') return;
      const errors: FieldError[] = [];
      for (const [name, value] of Object.entries(ctx.query)) {
        if (route.format === 'csv' && name === 'bom') {
          if (value !== '1' && value !== '0') errors.push({ parameter: 'bom', message: 'must be 1 or 0' });
        } else {
          errors.push({ parameter: name, message: route.format === 'csv' ? 'is not a known parameter; known: bom' : 'is not a known parameter; this export takes none' });
        }
      }
      if (errors.length) throw new ProblemError('invalid-parameters', `Invalid parameters: ${errors.map((error) => error.parameter).join(', ')}.`, { errors });
      const withBom = ctx.query.bom === '1';
      const { changeNumber } = await store.catalogState();
      const etag = `"catalog-${changeNumber}-${route.lang}-${route.format}${withBom ? '-bom' : ''}"`;
      ctx.set('ETag', etag);
      ctx.set('Cache-Control', `public, max-age=${maxAgeSeconds}`);
      if (ctx.get('If-None-Match').split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
        ctx.status = 304;
        return;
      }
      const filename = `catalog-${route.lang}.${route.format}`;
      ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
      ctx.type = route.format === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8; header=present';
      if (ctx.method === 'HEAD') {
        ctx.status = 200;
        return;
      }
      ctx.body = Readable.from(route.format === 'json' ? catalogJson(store, route.lang, baseUrl) : catalogCsv(store, route.lang, baseUrl, withBom));
    });
  }
  return router;
}

const CONTENT_TYPES = { json: 'application/json; charset=utf-8', ndjson: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8; header=present' } as const;

/** GET /api/v1/export: canonical records with their submission history, for tokens with the export scope. */
export function fullExportRouter(deps: { store: RecordStore; submissions: SubmissionQueue; tokens: TokenStore; baseUrl: string }): Router {
  const router = new Router();
  router.all('/api/v1/export', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    await authorize(ctx, deps.tokens, 'export');
    const { format, lang } = parseExportParams(ctx.query as RawQuery);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Content-Disposition', `attachment; filename="archive-export-${lang}.${format}"`);
    ctx.type = CONTENT_TYPES[format];
    if (ctx.method === 'HEAD') {
      ctx.status = 200;
      return;
    }
    ctx.body = Readable.from(fullExport(deps.store, deps.submissions, format, lang, deps.baseUrl));
  });
  return router;
}
