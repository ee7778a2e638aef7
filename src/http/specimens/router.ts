import Router from '@koa/router';
import type { Context } from 'koa';
import { getSpecimen, listJson, listSpecimensJson, sourceTableOf } from '../../domain/specimens.ts';
import type { ListResponse, ListScope, ReadContext } from '../../domain/specimens.ts';
import { RECORD_ID_PATTERN } from '../../domain/ids.ts';
import { ProblemError } from '../../errors.ts';
import { parseRecordQuery, parseSearchParams } from '../../validation/read-params.ts';
import { queryOf } from '../query.ts';
import { jsonRead, linkToNextPage } from '../read-route.ts';
import { answerMoved, RecordMoved, throwRetired } from './retired.ts';
import type { JsonReadOptions } from '../read-route.ts';

/** GET /api/v1/specimens, /api/v1/specimens/{id} and /api/v1/timeline. */
export function specimensRouter(context: ReadContext, options: JsonReadOptions): Router {
  const router = new Router({ prefix: '/api/v1' });
  const exportsHint = `${context.baseUrl}/en/data/catalog.json`;
  const linkToNext = (list: ListResponse<Buffer>, ctx: Context): Record<string, string> => linkToNextPage(context.baseUrl, ctx, list.next);
  const list = (scope: ListScope) =>
    jsonRead(
      options,
      async (ctx, changeNumber) => {
        const { keys } = await sourceTableOf(context, changeNumber);
        return listSpecimensJson(context, parseSearchParams(queryOf(ctx), scope, { fromQueryString: true, exportsHint, sourceKeys: keys }), scope, changeNumber);
      },
      linkToNext,
      listJson,
    );

  router.all('/specimens', list('specimens'));
  router.all('/timeline', list('timeline'));

  const readRecord = jsonRead(options, async (ctx) => {
    const id = ctx.params.id ?? '';
    const { lang } = parseRecordQuery(queryOf(ctx));
    const record = RECORD_ID_PATTERN.test(id) ? await getSpecimen(context, id, lang) : undefined;
    if (!record && RECORD_ID_PATTERN.test(id)) return throwRetired(context.store, id);
    if (!record) throw new ProblemError('not-found', `No record has the id "${id.slice(0, 128)}".`);
    return record;
  });
  router.all('/specimens/:id', async (ctx, next) => {
    try {
      await readRecord(ctx, next);
    } catch (error) {
      if (!(error instanceof RecordMoved)) throw error;
      answerMoved(ctx, error, (id) => `${context.baseUrl}/api/v1/specimens/${id}`, options.maxAgeSeconds);
    }
  });

  return router;
}
