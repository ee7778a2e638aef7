import type { Context, Next } from 'koa';
import type { Logger } from '../../logger.ts';
import { withoutSecrets } from '../../auth/secrets.ts';

/**
 * One JSON log line per request: method, path, status, time and size. No headers, tokens or
 * bodies; a token a client put in the address (`?access_token=mwa_…`, `/api/v1/ingest/mwa_…`) is
 * logged as `mwa_…`.
 */
export function requestLog(logger: Logger) {
  return async function requestLogMiddleware(ctx: Context, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const done = (): void => {
        logger.info('request', {
          method: ctx.method,
          path: withoutSecrets(ctx.path),
          query: ctx.querystring ? withoutSecrets(ctx.querystring) : undefined,
          status: ctx.status,
          ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          bytes: ctx.response.length,
          ip: ctx.ip,
          userAgent: ctx.get('User-Agent') || undefined,
        });
      };
      if (ctx.res.writableFinished || ctx.res.headersSent) done();
      else ctx.res.once('finish', done);
    }
  };
}
