import Router from '@koa/router';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { ProblemError } from '../../errors.ts';
import { clientHoldsTag, readOnly } from '../read-route.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
};

/** Stored previews and thumbnails under /media/. Files are content-addressed, so they never change. */
export function mediaRouter(mediaDir: string): Router {
  const router = new Router();
  const root = resolve(mediaDir);
  router.all('/media/*path', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    const captured: unknown = ctx.params.path;
    const relative = Array.isArray(captured) ? captured.join('/') : String(captured ?? '');
    const file = resolve(root, relative);
    const type = CONTENT_TYPES[extname(file).toLowerCase()];
    if (!type || !file.startsWith(root + sep) || !/^[a-z0-9/._-]+$/i.test(relative)) throw new ProblemError('not-found', 'No such media file.');
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw new ProblemError('not-found', 'No such media file.');
    const etag = `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`;
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    // A stored preview holds the bytes its source sent, which an image may carry more than: opened
    // on its own it may run nothing and reach nothing, whatever a browser took it for.
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    if (clientHoldsTag(ctx, etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = type;
    ctx.set('Accept-Ranges', 'bytes');
    // A range is served only of the version the client holds (If-Range), as RFC 9110 §13.1.5 says.
    const ifRange = ctx.get('If-Range');
    const range = ifRange === '' || ifRange === etag ? byteRange(ctx.get('Range'), info.size) : undefined;
    if (range === 'unsatisfiable') {
      throw new ProblemError('range-not-satisfiable', `The file has ${info.size} bytes; the range asked for lies outside them.`, { headers: { 'Content-Range': `bytes */${info.size}` } });
    }
    // Set before the body, so that HEAD (no body) answers what GET would instead of Koa's 404.
    ctx.status = range ? 206 : 200;
    if (range) ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
    ctx.length = range ? range.end - range.start + 1 : info.size;
    if (ctx.method === 'GET') ctx.body = createReadStream(file, range);
  });
  return router;
}

/**
 * The one byte range a Range header asks of a file of `size` bytes (RFC 9110 §14.1.2):
 * `bytes=first-last`, `bytes=first-` or `bytes=-suffix`. Undefined (the whole file is sent) for no
 * header, another unit, several ranges or a header that does not parse; unsatisfiable when the
 * range starts past the end.
 */
export function byteRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [first, last] = [match[1] ?? '', match[2] ?? ''];
  if (first === '') {
    const suffix = Number(last);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  return start >= size ? 'unsatisfiable' : { start, end };
}
