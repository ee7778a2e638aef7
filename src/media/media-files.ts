import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import sharp from 'sharp';
import { MediaStoreError } from '../domain/previews.ts';
import type { StoredMedia } from '../domain/record.ts';

import { THUMBNAIL_SIZE } from './thumbnail-size.ts';

export { THUMBNAIL_SIZE };

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The temporary name of a write (writeDurably): the file's name, a dot, twelve random hex digits, `.tmp`. */
const UNFINISHED_WRITE = /\.[0-9a-f]{12}\.tmp$/;

/**
 * Writes a file atomically and durably: a temporary name, fsync, rename over the old file, fsync
 * of the folder. A reader sees the old content or the new, and after a power loss the new content
 * is there once this returns.
 */
export async function writeDurably(path: string, bytes: Buffer): Promise<void> {
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
 * Writes a media file durably (writeDurably) unless the same content-addressed file is already
 * there. Durable because the record that names the file is committed with synchronous=FULL right
 * after: after a power loss the record must not outlive its file.
 */
async function writeOnce(path: string, bytes: Buffer): Promise<void> {
  if (!(await exists(path))) await writeDurably(path, bytes);
}

/** What a record holds of a preview stored as these bytes (storePreview), without writing anything: its paths under its SHA-256, its size. */
export async function describePreview(bytes: Buffer, extension: 'png' | 'jpg' | 'webp' | 'gif'): Promise<StoredMedia & { thumbnailPath: string }> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const path = `${sha256.slice(0, 2)}/${sha256}.${extension}`;
  const thumbnailPath = `${sha256.slice(0, 2)}/${sha256}.thumb.webp`;
  const metadata = await sharp(bytes, { limitInputPixels: 50_000_000 }).metadata();
  return { path, width: metadata.width ?? 0, height: metadata.height ?? 0, sha256, thumbnailPath };
}

/**
 * Stores a raster preview (re-encoded as PNG when its format is not one browsers all show) under its SHA-256 (ab/abcdef….ext) with a WebP thumbnail beside it.
 * The same bytes always land at the same path, so storing twice is harmless.
 */
export async function storePreview(mediaDir: string, original: Buffer, extension: 'png' | 'jpg' | 'webp' | 'gif', reencodeAsPng = false): Promise<StoredMedia> {
  const bytes = reencodeAsPng ? await sharp(original, { limitInputPixels: 50_000_000 }).png().toBuffer() : original;
  const media = await describePreview(bytes, extension);
  const { path, thumbnailPath } = media;
  const thumbnail = await sharp(bytes).resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true }).webp({ quality: 78, effort: 2 }).toBuffer();
  try {
    await writeOnce(join(mediaDir, path), bytes);
    await writeOnce(join(mediaDir, thumbnailPath), thumbnail);
  } catch (error) {
    throw mediaWriteFailure(error, mediaDir);
  }
  return media;
}

/** What the usual file-system errors of a media write most likely mean. */
const WRITE_FAILURE_MEANINGS: Record<string, string> = {
  EACCES: 'the media folder is not writable',
  EPERM: 'the media folder is not writable',
  EROFS: 'the media folder is on a read-only file system',
  ENOSPC: 'the disk holding the media folder is full',
  EDQUOT: 'the disk quota of the media folder is used up',
  ENOTDIR: 'a file stands where the media folder or one of its folders should be',
  EEXIST: 'a file stands where one of the media folders should be',
  EMFILE: 'the process has no file descriptors left',
  ENFILE: 'the system has no file descriptors left',
  EIO: 'a disk I/O error',
};

/**
 * A file-system error that stopped a media write, as a MediaStoreError naming its code, the call
 * and the path under the media folder (never the absolute path) and what it most likely means;
 * any other error as it is.
 */
function mediaWriteFailure(error: unknown, mediaDir: string): unknown {
  const { code, syscall, path } = error as { code?: unknown; syscall?: unknown; path?: unknown };
  if (typeof code !== 'string') return error;
  const where = typeof path === 'string' ? ['media', relative(mediaDir, path)].filter(Boolean).join('/') : undefined;
  const meaning = WRITE_FAILURE_MEANINGS[code];
  const detail = [code, typeof syscall === 'string' ? syscall : undefined, where].filter(Boolean).join(' ');
  return new MediaStoreError(`could not store the preview files: ${detail}${meaning ? ` (${meaning})` : ''}`, { cause: error });
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

/**
 * Removes what writes stopped between their temporary file and its rename left in the media
 * folder (a kill, a power loss, a full disk): files named as writeDurably names its temporary
 * files, in the folder and the folders of its first level (where previews go), last changed more
 * than `olderThanMs` ago, so a write still under way in another process is left alone. Returns
 * the paths removed, relative to the folder. Nothing else is touched: a preview a record does not
 * name yet may belong to a submission being published.
 */
export async function removeUnfinishedWrites(mediaDir: string, olderThanMs: number, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  const entries = await readdir(mediaDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const candidates = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  for (const folder of entries.filter((entry) => entry.isDirectory())) {
    const inside = await readdir(join(mediaDir, folder.name), { withFileTypes: true });
    for (const entry of inside) if (entry.isFile()) candidates.push(`${folder.name}/${entry.name}`);
  }
  for (const path of candidates) {
    if (!UNFINISHED_WRITE.test(path)) continue;
    const file = join(mediaDir, path);
    const changed = await stat(file).then((stats) => stats.mtimeMs, () => undefined);
    if (changed === undefined || now - changed < olderThanMs) continue;
    await rm(file, { force: true });
    removed.push(path);
  }
  return removed;
}
