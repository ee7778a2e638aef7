import type { Middleware } from 'koa';

/**
 * An answer sent before the request's body was read to its end (a 401, 403 or 413 decided from the
 * headers) closes the connection. Else Node keeps the connection to read the rest of the body, and
 * a body that never comes is answered again after the request timeout: a 408 to a request the
 * client already has its answer to.
 */
export function closeWhenBodyUnread(): Middleware {
  return async function closeUnread(ctx, next) {
    await next();
    const declaresBody = (ctx.get('Content-Length') !== '' && ctx.get('Content-Length') !== '0') || ctx.get('Transfer-Encoding') !== '';
    if (declaresBody && !ctx.req.readableEnded) ctx.set('Connection', 'close');
  };
}
