import type { Middleware } from 'koa';
import { ProblemError } from '../../errors.ts';

/**
 * An HTTP/1.1 request names its host in exactly one Host field; without one, or with more than
 * one, a server must answer 400 (RFC 9112 §3.2). Node answered the first with a bare 400 of its
 * own, outside problem+json (its `requireHostHeader`, turned off in serverLimits so that this
 * answers instead), and served the second by the first field. An HTTP/1.0 request may omit it.
 */
export function requireOneHost(): Middleware {
  return async function oneHost(ctx, next) {
    const { rawHeaders, httpVersionMajor, httpVersionMinor } = ctx.req;
    let hosts = 0;
    for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === 'host') hosts += 1;
    const needsOne = httpVersionMajor > 1 || (httpVersionMajor === 1 && httpVersionMinor >= 1);
    // Closed after, as every malformed-request answer is (its help says so): what else the client sends on it is suspect too.
    const closing = { headers: { Connection: 'close' } };
    if (hosts > 1) throw new ProblemError('malformed-request', `The request has ${hosts} Host fields; send one, naming the host of the address.`, closing);
    if (hosts === 0 && needsOne) throw new ProblemError('malformed-request', 'An HTTP/1.1 request names its host in a Host field; this one has none.', closing);
    await next();
  };
}
