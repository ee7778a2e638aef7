import type { Context, Next } from 'koa';

/**
 * Open CORS for the public read side: any origin may read; nothing is credentialed. Preflights
 * allow reads alone and no Authorization: ingest, review and the authenticated export are for
 * programs and the shell, and a web page should never hold an archive token.
 */
export function openCors() {
  return async function corsMiddleware(ctx: Context, next: Next): Promise<void> {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Expose-Headers', 'ETag, Link, Location, Retry-After, RateLimit, RateLimit-Policy, Content-Disposition, Content-Range');
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      ctx.set('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', 'Accept, Content-Type, If-None-Match, User-Agent');
      ctx.set('Access-Control-Max-Age', '86400');
    }
    await next();
  };
}
