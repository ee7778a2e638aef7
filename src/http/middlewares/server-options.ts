import type { Middleware } from 'koa';

/** Every method some address of the service takes. */
const SERVER_METHODS = 'GET, HEAD, POST, OPTIONS';

/**
 * `OPTIONS *` asks about the server as a whole rather than an address (RFC 9110 §9.3.7), as a
 * proxy or client may to see that the server is up and speaks HTTP/1.1: 204 with the methods some
 * address takes. Before, the routes looked for a path named `*` and answered 404.
 */
export function answerServerOptions(): Middleware {
  return async function serverOptions(ctx, next) {
    if (ctx.method !== 'OPTIONS' || ctx.url !== '*') return next();
    ctx.set('Allow', SERVER_METHODS);
    ctx.status = 204;
  };
}
