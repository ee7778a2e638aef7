import type { Context, Middleware } from 'koa';
import { ProblemError } from '../errors.ts';
import { entityTag } from './response-cache.ts';
import type { ResponseCache } from './response-cache.ts';
import type { AnswersVersion } from './answers-version.ts';

/**
 * Lets the route's methods through ('proceed'), answers OPTIONS with 204 and Allow ('handled'),
 * and refuses any other method with 405 and Allow.
 */
export function allowOnly(ctx: Context, methods: readonly string[], why = ''): 'handled' | 'proceed' {
  if (methods.includes(ctx.method)) return 'proceed';
  const allow = [...methods, 'OPTIONS'].join(', ');
  ctx.set('Allow', allow);
  if (ctx.method === 'OPTIONS') {
    ctx.status = 204;
    return 'handled';
  }
  throw new ProblemError('method-not-allowed', `${ctx.method} is not allowed here${why ? `; ${why}` : '.'}`, { headers: { Allow: allow } });
}

/** allowOnly for read-only resources: GET and HEAD. */
export function readOnly(ctx: Context): 'handled' | 'proceed' {
  return allowOnly(ctx, ['GET', 'HEAD'], 'this resource is read-only.');
}

/** An entity tag without its weakness mark: what If-None-Match's weak comparison looks at. */
function opaqueTag(tag: string): string {
  return tag.trim().replace(/^W\//, '');
}

/** The entity tags a conditional field of the request lists (`*` among them when sent), none without the field. */
export function tagsListed(ctx: Context, field: 'If-None-Match' | 'If-Match'): string[] {
  const value = ctx.get(field);
  return value === '' ? [] : value.split(',').map((tag) => tag.trim());
}

/** Whether the request's If-None-Match names this entity tag (weak comparison, RFC 9110 §13.1.2) or is `*`. */
export function clientHoldsTag(ctx: Context, etag: string): boolean {
  return tagsListed(ctx, 'If-None-Match').some((tag) => tag === '*' || opaqueTag(tag) === opaqueTag(etag));
}

/** Sets the entity tag and answers 304 when the client already holds this version. */
export function sendWithEntityTag(ctx: Context, body: string | Buffer, etag: string, contentType: string, maxAgeSeconds: number): void {
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', `public, max-age=${maxAgeSeconds}`);
  if (clientHoldsTag(ctx, etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = contentType;
  ctx.body = body;
}

/** The address of the next page: the same parameters, the offset replaced by the page's cursor. */
export function nextPageUrl(baseUrl: string, ctx: Context, cursor: string): string {
  const query = new URLSearchParams(ctx.querystring);
  query.delete('offset');
  query.set('cursor', cursor);
  return `${baseUrl}${ctx.path}?${query.toString()}`;
}

/** The `Link: <…>; rel="next"` header of a page whose next cursor is `next`; none on the last page. */
export function linkToNextPage(baseUrl: string, ctx: Context, next: string | null): Record<string, string> {
  return next ? { Link: `<${nextPageUrl(baseUrl, ctx, next)}>; rel="next"` } : {};
}

export interface JsonReadOptions {
  /** The version of the catalog answers are computed from (answersVersion). */
  version: () => Promise<AnswersVersion>;
  cache: ResponseCache;
  maxAgeSeconds: number;
}

/**
 * A read-only JSON route: GET and HEAD run the handler (or reuse the response computed for the
 * same URL at the same catalog version, see answersVersion), with ETag, 304 and Cache-Control.
 * The handler is told the change number it answers at. `headersOf` adds headers that follow from
 * the answer (kept with it in the cache); `serialize` turns the answer into the body, as text or
 * already as UTF-8 (JSON.stringify by default).
 */
export function jsonRead<T>(
  options: JsonReadOptions,
  handler: (ctx: Context, changeNumber: number) => Promise<T>,
  headersOf?: (value: T, ctx: Context) => Record<string, string>,
  serialize: (value: T) => string | Buffer = (value) => JSON.stringify(value),
): Middleware {
  return async function jsonReadRoute(ctx: Context): Promise<void> {
    if (readOnly(ctx) === 'handled') return;
    const { changeNumber, key: version } = await options.version();
    const key = ctx.url;
    let response = options.cache.get(key, version);
    if (!response) {
      const value = await handler(ctx, changeNumber);
      // Encoded once: hashing the text and sending it would each encode it to UTF-8.
      const serialized = serialize(value);
      const body = typeof serialized === 'string' ? Buffer.from(serialized) : serialized;
      const headers = headersOf?.(value, ctx);
      response = { body, etag: entityTag(body), ...(headers && Object.keys(headers).length ? { headers } : {}) };
      if (options.cache.askedBefore(key)) options.cache.set(key, version, response);
    }
    if (response.headers) ctx.set(response.headers);
    sendWithEntityTag(ctx, response.body, response.etag, 'application/json; charset=utf-8', options.maxAgeSeconds);
  };
}
