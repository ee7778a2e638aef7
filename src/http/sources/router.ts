import Router from '@koa/router';
import { presentSources } from '../../domain/source-list.ts';
import { sourceTableOf } from '../../domain/specimens.ts';
import type { ReadContext } from '../../domain/specimens.ts';
import { parseNoParameters } from '../../validation/read-params.ts';
import { queryOf } from '../query.ts';
import { jsonRead } from '../read-route.ts';
import type { JsonReadOptions } from '../read-route.ts';

/** GET /api/v1/sources: the archive's sources, the values the source filter takes, with their labels. */
export function sourcesRouter(context: ReadContext, options: JsonReadOptions): Router {
  const router = new Router({ prefix: '/api/v1' });
  router.all(
    '/sources',
    jsonRead(options, async (ctx, changeNumber) => {
      parseNoParameters(queryOf(ctx));
      return presentSources(await sourceTableOf(context, changeNumber));
    }),
  );
  return router;
}
