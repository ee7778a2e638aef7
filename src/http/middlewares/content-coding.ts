import type { Context, Next } from 'koa';

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
