import type { Context, Next } from 'koa';

/** The pages' Content-Security-Policy: everything from the archive itself, no inline script or style. */
export const CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Headers every response carries, and the Content-Security-Policy on HTML. */
export function securityHeaders() {
  return async function securityHeadersMiddleware(ctx: Context, next: Next): Promise<void> {
    await next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (ctx.response.is('html')) {
      ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      ctx.set('X-Frame-Options', 'DENY');
    }
  };
}
