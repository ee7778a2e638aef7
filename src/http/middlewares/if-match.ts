import type { Middleware } from 'koa';
import { Readable } from 'node:stream';
import { ProblemError } from '../../errors.ts';
import { tagsListed } from '../read-route.ts';

/**
 * Evaluates If-Match on a GET or HEAD answered 2xx or 304 (RFC 9110 §13.1.1, §13.2.2): the
 * answer stands when the field is `*` or lists the answer's entity tag by strong comparison, and
 * is otherwise replaced by a 412. Strong comparison never matches a weak tag, so of the service's
 * answers only a media file (whose tag is strong) can pass a listed tag; the rest, tagged weakly,
 * pass `*` alone. Before, If-Match was ignored and a client that made a read conditional on the
 * version it held got another version. Other methods and other statuses ignore it, as the RFC asks.
 */
export function evaluateIfMatch(): Middleware {
  return async function ifMatch(ctx, next) {
    await next();
    const listed = tagsListed(ctx, 'If-Match');
    if (listed.length === 0 || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return;
    if (!((ctx.status >= 200 && ctx.status < 300) || ctx.status === 304)) return;
    const current = ctx.response.get('ETag');
    if (listed.includes('*') || (current !== '' && !current.startsWith('W/') && listed.includes(current))) return;
    if (ctx.body instanceof Readable) ctx.body.destroy();
    for (const name of ['Content-Range', 'Accept-Ranges', 'Content-Disposition', 'Cache-Control']) ctx.remove(name);
    const held = current === '' ? 'has no entity tag' : current.startsWith('W/') ? `is tagged ${current}, a weak tag, which If-Match never matches (strong comparison)` : `is tagged ${current}`;
    throw new ProblemError('precondition-failed', `If-Match names no version this answer has: it ${held}. Send If-Match: * or leave If-Match out.`);
  };
}
