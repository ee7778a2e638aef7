import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import sharp from 'sharp';
import type { StoredMedia } from '../domain/record.ts';

import { THUMBNAIL_SIZE } from './thumbnail-size.ts';

export { THUMBNAIL_SIZE };

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Writes a file atomically and durably (temporary name, fsync, rename, fsync of the folder) unless
 * the same content-addressed file is already there. Durable because the record that names the file
 * is committed with synchronous=FULL right after: after a power loss the record must not outlive its file.
 */
async function writeOnce(path: string, bytes: Buffer): Promise<void> {
  if (await exists(path)) return;
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const file = await open(temporary, 'wx');
  try {
    await file.writeFile(bytes);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
  // The new name is durable once its folder is synced; platforms that cannot open a folder skip this.
  const folder = await open(dirname(path), 'r').catch(() => undefined);
  await folder?.sync().catch(() => undefined);
  await folder?.close();
}

/**
 * Stores a raster preview (re-encoded as PNG when its format is not one browsers all show) under its SHA-256 (ab/abcdef….ext) with a WebP thumbnail beside it.
 * The same bytes always land at the same path, so storing twice is harmless.
 */
export async function storePreview(mediaDir: string, original: Buffer, extension: 'png' | 'jpg' | 'webp' | 'gif', reencodeAsPng = false): Promise<StoredMedia> {
  const bytes = reencodeAsPng ? await sharp(original, { limitInputPixels: 50_000_000 }).png().toBuffer() : original;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const path = `${sha256.slice(0, 2)}/${sha256}.${extension}`;
  const thumbnailPath = `${sha256.slice(0, 2)}/${sha256}.thumb.webp`;
  const image = sharp(bytes, { limitInputPixels: 50_000_000 });
  const metadata = await image.metadata();
  const thumbnail = await sharp(bytes).resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true }).webp({ quality: 78, effort: 2 }).toBuffer();
  await writeOnce(join(mediaDir, path), bytes);
  await writeOnce(join(mediaDir, thumbnailPath), thumbnail);
  return { path, width: metadata.width ?? 0, height: metadata.height ?? 0, sha256, thumbnailPath };
}

/** Media paths as the archive writes them: relative, without `.` or `..` segments. */
const MEDIA_PATH = /^[a-z0-9_-][a-z0-9._-]*(\/[a-z0-9_-][a-z0-9._-]*)*$/i;

/**
 * Removes media files (previews, thumbnails) by their paths relative to the media folder, so
 * /media/ stops serving them; returns the paths of the files that were there and are gone. A path
 * the archive never writes is refused rather than followed out of the folder.
 */
export async function removeMediaFiles(mediaDir: string, paths: readonly string[]): Promise<string[]> {
  const root = resolve(mediaDir);
  const removed: string[] = [];
  for (const path of paths) {
    const file = resolve(root, path);
    if (!MEDIA_PATH.test(path) || !file.startsWith(root + sep)) throw new Error(`refusing to remove ${JSON.stringify(path)}: not a media path`);
    if (!(await exists(file))) continue;
    await rm(file);
    removed.push(path);
  }
  return removed;
}
