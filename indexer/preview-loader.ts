import { createHash } from 'node:crypto';
import type { StoredMedia } from '../src/domain/record.ts';
import type { LoadedPreview, MediaStore, PreviewLoader, PreviewResult } from '../src/domain/previews.ts';
import { removeUnfinishedWrites, storePreview } from '../src/media/media-files.ts';
import { fetchImage, ImageFetchError } from './media/safe-fetch.ts';
import { inspectImage } from './media/inspect-image.ts';

export interface PreviewLoaderOptions {
  /** Lets the fetcher reach loopback and private addresses: for the archive's tests and trying ingest on one's own machine, never a public deployment. */
  allowPrivate: boolean;
}

/** Fetches previews through the SSRF-safe client and inspects them from their bytes with sharp. */
export function createPreviewLoader(options: PreviewLoaderOptions): PreviewLoader {
  return {
    async load(url: string): Promise<PreviewResult> {
      let bytes: Buffer;
      try {
        ({ bytes } = await fetchImage(url, { allowPrivate: options.allowPrivate }));
      } catch (error) {
        if (error instanceof ImageFetchError) return { ok: false, url, reason: error.reason, transient: error.transient };
        return { ok: false, url, reason: `could not be fetched (${error instanceof Error ? error.message : String(error)})`, transient: true };
      }
      const inspection = await inspectImage(bytes);
      if (!inspection.ok) return { ok: false, url, reason: inspection.reason, transient: false };
      return {
        ok: true,
        preview: {
          url,
          bytes,
          format: inspection.format,
          width: inspection.width,
          height: inspection.height,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          blockhash: inspection.blockhash,
          ...(inspection.colourSignature ? { colourSignature: inspection.colourSignature } : {}),
          ...(inspection.blank ? { blank: true } : {}),
        },
      };
    },
  };
}

/**
 * How old a temporary media file must be before a starting publisher takes it for a stopped
 * write: a write lasts milliseconds, and another publisher on the folder may be writing now.
 */
const UNFINISHED_WRITE_AGE_MS = 60 * 60_000;

/** Stores previews content-addressed under the media folder, each with its WebP thumbnail. */
export function createMediaStore(mediaDir: string): MediaStore {
  return {
    async store(preview: LoadedPreview): Promise<StoredMedia> {
      const extension = preview.format === 'jpeg' ? 'jpg' : preview.format === 'png' || preview.format === 'webp' || preview.format === 'gif' ? preview.format : undefined;
      const stored = await storePreview(mediaDir, preview.bytes, extension ?? 'png', extension === undefined);
      return { ...stored, blockhash: preview.blockhash, ...(preview.colourSignature ? { colourSignature: preview.colourSignature } : {}) };
    },
    removeUnfinishedWrites: () => removeUnfinishedWrites(mediaDir, UNFINISHED_WRITE_AGE_MS),
  };
}
