import Koa from 'koa';
import type { Context } from 'koa';
import compress from 'koa-compress';
import { constants as zlib } from 'node:zlib';
import type { Backend } from '../backend.ts';
import type { Config } from '../config.ts';
import { ProblemError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { healthRouter } from './health/router.ts';
import { mediaRouter } from './media/router.ts';
import { openCors } from './middlewares/cors.ts';
import { rejectGenericUserAgents } from './middlewares/user-agent.ts';
import { securityHeaders } from './middlewares/security-headers.ts';
import { compressHeadAsGet, identityWhenNoCodingAccepted, isCompressibleType } from './middlewares/content-coding.ts';
import { problems } from './middlewares/problems.ts';
import { closeWhenBodyUnread } from './middlewares/close-unread-body.ts';
import { canonicalAddresses } from './middlewares/canonical-address.ts';
import { evaluateIfMatch } from './middlewares/if-match.ts';
import { answerServerOptions } from './middlewares/server-options.ts';
import { requireOneHost } from './middlewares/one-host.ts';
import { noteWriteRefusals } from './middlewares/write-refusals.ts';
import { requestLog } from './middlewares/request-log.ts';
import { chargeCalls, limitByClient } from './middlewares/rate-limit.ts';
import { LocalRateLimiter } from '../rate-limit/limiter.ts';
import type { RateLimiter } from '../rate-limit/limiter.ts';
import { ResponseCache } from './response-cache.ts';
import { HttpMetrics } from '../metrics/archive-metrics.ts';
import { timedSearch } from '../metrics/instrumented-search.ts';
import { measureRequests, routePatternIn } from './middlewares/metrics.ts';
import { answersVersion } from './answers-version.ts';
import { SERVICE_VERSION } from './service-version.ts';
import { specimensRouter } from './specimens/router.ts';
import { sourcesRouter } from './sources/router.ts';
import { removalsRouter } from './removals/router.ts';
import { guidesRouter } from './guides/router.ts';
import { problemsRouter } from './problems/router.ts';
import { exportsRouter, fullExportRouter } from './exports/router.ts';
import { discoveryRouter } from './discovery/router.ts';
import { ingestRouter } from './ingest/router.ts';
import { negotiateErrorPage, notFoundHtml, problemPageHtml, webRouter } from './web/router.ts';
import { mcpRoute } from '../mcp/koa-route.ts';
import { PresentedRecords } from '../domain/presented-records.ts';
import Router from '@koa/router';
import { SourceTableCache } from '../domain/source-table-cache.ts';

export type AppConfig = Pick<Config, 'baseUrl' | 'mediaDir' | 'responseCacheBytes' | 'cacheMaxAgeSeconds' | 'allowedOrigins'> &
  Partial<Pick<Config, 'recordCacheBytes' | 'rejectGenericUserAgents' | 'rateLimitReads' | 'rateLimitIngest' | 'ingestDailyQuota' | 'trustProxy'>>;

/** The record cache's bound when the configuration leaves it out (tests build apps from partial configurations). */
const DEFAULT_RECORD_CACHE_BYTES = 80 * 1024 * 1024;

/** Hooks the process that runs the app passes in. */
export interface AppHooks {
  /** Called after submissions were accepted, to wake the publisher. */
  submitted?: () => void;
  /** Shared request counting (the cluster primary's); without it the app counts in its own process. */
  rateLimiter?: RateLimiter;
  /** Where this process keeps its HTTP metrics; without it the app keeps its own, never served. */
  metrics?: HttpMetrics;
  /** True once the process is shutting down: /readyz then answers 503. */
  draining?: () => boolean;
}

/** The one Koa application: read API, MCP, ingest, exports, guides, health and media. */
export function createApp(config: AppConfig, backend: Backend, logger: Logger, hooks: AppHooks = {}): Koa {
  const app = new Koa(config.trustProxy ? { proxy: true, maxIpsCount: 1 } : { proxy: false });
  const limiter = hooks.rateLimiter ?? new LocalRateLimiter();
  const metrics = hooks.metrics ?? new HttpMetrics();
  const refused = (policy: string): void => metrics.rateLimitRefusals.inc({ policy });
  app.silent = true;
  const presented = new PresentedRecords(backend.store, config.baseUrl, config.recordCacheBytes ?? DEFAULT_RECORD_CACHE_BYTES);
  const sourceTable = new SourceTableCache(backend.sources, backend.store);
  const readContext = { store: backend.store, search: timedSearch(backend.search, metrics), baseUrl: config.baseUrl, presented, sources: (changeNumber?: number) => sourceTable.current(changeNumber) };
  const cache = new ResponseCache(config.responseCacheBytes);
  const version = answersVersion(backend);
  const readOptions = { version, cache, maxAgeSeconds: config.cacheMaxAgeSeconds };

  const routers: Router[] = [];
  app.use(measureRequests(metrics, routePatternIn(routers)));
  app.use(requestLog(logger));
  app.use(securityHeaders(config.baseUrl));
  app.use(closeWhenBodyUnread());
  // Outside the problems middleware: every answer passes the compression, an error of any
  // middleware below included (a 429, a 503 page), so every one says Vary: Accept-Encoding, the one
  // place that does, and a long error page is compressed as any page is. negotiateErrorPage adds
  // Accept where Accept chose the answer.
  app.use(identityWhenNoCodingAccepted());
  app.use(
    compressHeadAsGet(
      compress({
        filter: isCompressibleType,
        threshold: 2048,
        gzip: { flush: zlib.Z_SYNC_FLUSH },
        br: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
        deflate: false,
      }),
    ),
  );
  app.use(problems(config.baseUrl, logger, (error) => backend.isUnavailable(error), problemPageHtml));
  app.use(requireOneHost());
  app.use(noteWriteRefusals(backend.writeRefusals));
  app.use(openCors());
  const clientPolicy = config.rateLimitReads ? { name: 'client', limit: config.rateLimitReads, windowMs: 60_000 } : undefined;
  if (clientPolicy) app.use(limitByClient(limiter, clientPolicy, refused));
  if (config.rejectGenericUserAgents) app.use(rejectGenericUserAgents());

  app.use(answerServerOptions());
  app.use(canonicalAddresses());
  app.use(evaluateIfMatch());

  const guide = { readsPerMinute: config.rateLimitReads ?? 0 };
  const mcp = new Router();
  // Each call of a batch counts against the client's limit, as a request of its own would.
  const batchCalls = clientPolicy ? { chargeCalls: (ctx: Context, calls: number) => chargeCalls(ctx, limiter, clientPolicy, calls, refused) } : {};
  mcp.all('/mcp', mcpRoute(readContext, { allowedOrigins: config.allowedOrigins, version: SERVICE_VERSION, logger, guide, isUnavailable: (error) => backend.isUnavailable(error), results: { cache, version }, ...batchCalls }));
  const ingest = ingestRouter({ tokens: backend.tokens, submissions: backend.submissions, store: backend.store, sources: backend.sources, baseUrl: config.baseUrl, ...(hooks.submitted ? { notify: hooks.submitted } : {}), limiter, requestsPerMinute: config.rateLimitIngest ?? 0, dailyQuota: config.ingestDailyQuota ?? 0, refused });
  for (const router of [healthRouter(backend, hooks.draining), specimensRouter(readContext, readOptions), sourcesRouter(readContext, readOptions), removalsRouter(readContext, readOptions), mcp, ingest, guidesRouter(config.baseUrl, config.cacheMaxAgeSeconds, guide), problemsRouter(config.baseUrl, config.cacheMaxAgeSeconds), exportsRouter(backend.store, config.baseUrl, config.cacheMaxAgeSeconds), fullExportRouter({ ...backend, baseUrl: config.baseUrl }), mediaRouter(config.mediaDir), discoveryRouter(readContext, { cache, maxAgeSeconds: config.cacheMaxAgeSeconds }), webRouter(readContext, { version, cache, maxAgeSeconds: config.cacheMaxAgeSeconds })]) {
    routers.push(router);
    app.use(router.routes());
  }
  app.use(async (ctx) => {
    if (negotiateErrorPage(ctx)) {
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = notFoundHtml(ctx);
      return;
    }
    throw new ProblemError('not-found', `Nothing is served at ${ctx.path}.`);
  });
  return app;
}
