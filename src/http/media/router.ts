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
    if (clientHoldsTag(ctx, etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = type;
    ctx.length = info.size;
    if (ctx.method === 'GET') ctx.body = createReadStream(file);
  });
  return router;
}
