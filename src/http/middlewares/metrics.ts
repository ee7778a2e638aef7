import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { HttpMetrics } from '../../metrics/archive-metrics.ts';

/** The route pattern a path would take, for requests answered before routing (a 429 from the rate limit). */
export type RouteFinder = (path: string, method: string) => string | undefined;

/** Finds the pattern the first of these routers that serves the path would match, as routing would. */
export function routePatternIn(routers: readonly Router[]): RouteFinder {
  return (path, method) => {
    for (const router of routers) {
      const layers = router.stack.filter((layer) => layer.methods.includes(method) && layer.match(path));
      const last = layers.at(-1);
      if (last) return String(last.path);
    }
    return undefined;
  };
}

/**
 * Counts every answered request by method, route pattern (so ids never become label values) and
 * the status actually sent, and observes its duration until the answer is written. A request
 * that no route matches is counted as "unmatched".
 */
export function measureRequests(metrics: HttpMetrics, findRoute: RouteFinder = () => undefined) {
  return async function requestMetrics(ctx: Context, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    let recorded = false;
    const record = (): void => {
      if (recorded) return;
      recorded = true;
      const matched = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
      const route = matched === undefined ? findRoute(ctx.path, ctx.method) : String(matched);
      metrics.observeRequest(ctx.method, route ?? 'unmatched', ctx.res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    };
    ctx.res.once('finish', record);
    ctx.res.once('close', record);
    await next();
  };
}
