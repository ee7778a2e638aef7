import Router from '@koa/router';
import type { Backend } from '../../backend.ts';
import { SearchIndexLost, StoreFileGone } from '../../domain/ports.ts';
import { ProblemError, UNAVAILABLE_RETRY_SECONDS } from '../../errors.ts';
import { readOnly } from '../read-route.ts';

/** What /readyz says of a search index that is missing or lacks its settings (the log names which). */
export const SEARCH_INDEX_LOST = 'The search index is missing or lacks its settings (deleted while the service ran?); the index sync is restoring it.';

/** What /readyz says while the index sync fills a search index that was lost or emptied. */
export const SEARCH_INDEX_FILLING = 'The search index is being filled again from the store: searches miss records until it holds them all.';

/**
 * GET /healthz (the process answers) and GET /readyz (store and search index answer, a search
 * index that follows the store is not being filled again nor empty while the store holds records,
 * the store has not refused a write of this process's requests within the last 30 s, and the
 * process is not shutting down: `draining` tells).
 */
export function healthRouter(backend: Pick<Backend, 'store' | 'search' | 'writeRefusals'>, draining: () => boolean = () => false): Router {
  const router = new Router();
  router.all('/healthz', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
  router.all('/readyz', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    ctx.set('Cache-Control', 'no-store');
    if (draining()) throw new ProblemError('service-unavailable', 'This process is shutting down: it answers the requests it is sent, but send new ones elsewhere.', { headers: { 'Retry-After': String(UNAVAILABLE_RETRY_SECONDS) } });
    let filling: boolean;
    try {
      [, , filling] = await Promise.all([backend.store.ping(), backend.search.ping(), backend.search.filling?.() ?? false]);
    } catch (error) {
      // A store whose file is gone says what to do about it: waiting mends nothing.
      const detail = error instanceof StoreFileGone ? error.message : error instanceof SearchIndexLost ? SEARCH_INDEX_LOST : 'The store or the search index cannot be reached.';
      throw new ProblemError('service-unavailable', detail, { cause: error, headers: { 'Retry-After': String(UNAVAILABLE_RETRY_SECONDS) } });
    }
    if (backend.writeRefusals.recent()) {
      throw new ProblemError('service-unavailable', 'The store cannot take writes right now: its disk is full or its files cannot be written.', { headers: { 'Retry-After': String(UNAVAILABLE_RETRY_SECONDS) } });
    }
    // A search index that follows the store, being filled from it (FollowingSearchIndex.filling): after a refill began, or created empty by a start after it was deleted.
    if (filling) throw new ProblemError('service-unavailable', SEARCH_INDEX_FILLING, { headers: { 'Retry-After': String(UNAVAILABLE_RETRY_SECONDS) } });
    const catalog = await backend.store.catalogState();
    ctx.body = { status: 'ready', catalog: { version: catalog.version, updated: catalog.updated, total: catalog.total } };
  });
  return router;
}
