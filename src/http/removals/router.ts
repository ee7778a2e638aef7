import Router from '@koa/router';
import type { RecordStore } from '../../domain/ports.ts';
import { listRemovals } from '../../domain/removals.ts';
import { parseRemovalsParams } from '../../validation/read-params.ts';
import { queryOf } from '../query.ts';
import { jsonRead, linkToNextPage } from '../read-route.ts';
import type { JsonReadOptions } from '../read-route.ts';

/** GET /api/v1/removals: the ids withdrawn or moved since a day, which a client syncing with /api/v1/specimens?since= deletes. */
export function removalsRouter(context: { store: Pick<RecordStore, 'fatesSince'>; baseUrl: string }, options: JsonReadOptions): Router {
  const router = new Router({ prefix: '/api/v1' });
  router.all(
    '/removals',
    jsonRead(
      options,
      async (ctx) => listRemovals(context.store, parseRemovalsParams(queryOf(ctx))),
      (list, ctx) => linkToNextPage(context.baseUrl, ctx, list.next),
    ),
  );
  return router;
}
