import type { Context, Next } from 'koa';

/**
 * The pages' Content-Security-Policy: everything from the archive itself, no inline script or
 * style. Record previews are absolute URLs under the configured base URL, so its origin may serve
 * images too: a page reached by another name (127.0.0.1 for localhost, an address behind a proxy)
 * still shows them.
 */
export function contentSecurityPolicy(baseUrl: string): string {
  const media = new URL(baseUrl).origin;
  return `default-src 'self'; img-src 'self' data: ${media}; script-src 'self'; style-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
}

/**
 * HSTS for an archive whose base URL is https: a year, this host alone (a proxy terminates TLS in
 * front of the service, and the base URL says it does). Browsers ignore the field over http, and
 * an archive served over http says nothing.
 */
export const STRICT_TRANSPORT = 'max-age=31536000';

/** Headers every response carries, HSTS when the base URL is https, and the Content-Security-Policy on HTML. */
export function securityHeaders(baseUrl: string) {
  const policy = contentSecurityPolicy(baseUrl);
  const secure = new URL(baseUrl).protocol === 'https:';
  return async function securityHeadersMiddleware(ctx: Context, next: Next): Promise<void> {
    await next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (secure) ctx.set('Strict-Transport-Security', STRICT_TRANSPORT);
    if (ctx.response.is('html')) {
      ctx.set('Content-Security-Policy', policy);
      ctx.set('X-Frame-Options', 'DENY');
    }
  };
}
