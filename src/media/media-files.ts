import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { StoredMedia } from '../domain/record.ts';

/** Longest side of a stored thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 480;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Writes a file atomically (temporary name, then rename) unless the same content-addressed file is already there. */
async function writeOnce(path: string, bytes: Buffer): Promise<void> {
  if (await exists(path)) return;
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, path);
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
  const thumbnail = await sharp(bytes).resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true }).webp({ quality: 78 }).toBuffer();
  await writeOnce(join(mediaDir, path), bytes);
  await writeOnce(join(mediaDir, thumbnailPath), thumbnail);
  return { path, width: metadata.width ?? 0, height: metadata.height ?? 0, sha256, thumbnailPath };
}
