import type { Context, Middleware, Next } from 'koa';

/**
 * Sends the body without a content coding when the client's Accept-Encoding refuses every coding
 * the archive offers and identity too (`identity;q=0`, `*;q=0`), as RFC 9110 §12.5.3 advises,
 * instead of letting the compression middleware fail on a coding it cannot name.
 */
export function identityWhenNoCodingAccepted() {
  return async function identityWhenNoCodingAcceptedMiddleware(ctx: Context, next: Next): Promise<void> {
    if (ctx.get('Accept-Encoding') && !ctx.acceptsEncodings('br', 'gzip', 'identity')) ctx.compress = false;
    await next();
  };
}

/**
 * Whether an answer of this media type is worth compressing: text, JSON of every kind (problem
 * details, NDJSON, which the mime registry the compression middleware consults by default does not
 * mark compressible), XML (feeds, sitemaps, SVG) and scripts; never images, which are compressed
 * already.
 */
export function isCompressibleType(type: string): boolean {
  return /^text\/|^application\/(?:[\w.-]+\+)?(?:json|x-ndjson|xml|javascript)\b|^image\/svg\+xml\b/i.test(type);
}

/**
 * Runs the compression middleware for HEAD as for GET, so that a HEAD answer carries the header
 * fields the GET would (Content-Encoding, no Content-Length when the body would be compressed),
 * as RFC 9110 §9.3.2 asks; the compression middleware leaves HEAD alone. The compressed stream
 * made for HEAD is never sent: Koa answers HEAD without a body and destroys it.
 */
export function compressHeadAsGet(compression: Middleware): Middleware {
  return async function compressHeadAsGetMiddleware(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'HEAD') return compression(ctx, next);
    try {
      await compression(ctx, async () => {
        await next();
        ctx.method = 'GET';
      });
    } finally {
      ctx.method = 'HEAD';
    }
  };
}
