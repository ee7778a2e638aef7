/**
 * Preview images as the publish command sees them, behind three ports: fetching and inspecting
 * (PreviewLoader), the published previews to compare with (PreviewCatalog) and content-addressed
 * storage (MediaStore). The command sees nothing of HTTP, sharp or the file system.
 */
import type { CanonicalRecord, StoredMedia } from './record.ts';

/** A preview image fetched and decoded: what the publisher checks and stores. */
export interface LoadedPreview {
  url: string;
  bytes: Buffer;
  /** Decoded format as sharp reports it (png, jpeg, webp, gif …), never the Content-Type. */
  format: string;
  width: number;
  height: number;
  sha256: string;
  /** 256-bit perceptual hash of the content box, 64 hex digits. */
  blockhash: string;
  /** The colour-aware signature, present when the preview is low-detail (its blockhash says little). */
  colourSignature?: string;
  /** One flat colour or fully transparent: refused by the images check unless a maintainer approved the work. */
  blank?: boolean;
}

export type PreviewResult = { ok: true; preview: LoadedPreview } | { ok: false; url: string; reason: string; transient: boolean };

/** Fetches and inspects preview images. */
export interface PreviewLoader {
  load(url: string): Promise<PreviewResult>;
}

/** How a submitted preview resembles a published one. */
export type PreviewLikeness =
  /** The same bytes (SHA-256). */
  | 'identical'
  /** Near by the 256-bit blockhash of the content box. */
  | 'perceptual'
  /** Both low-detail, and near by their colour-aware signatures. */
  | 'colour';

/** A published preview that resembles a submitted one. */
export interface PreviewMatch {
  mediaUrl: string;
  recordId: string;
  source: string;
  likeness: PreviewLikeness;
  /** 0 for identical bytes; the blockhash's Hamming distance, or the colour-aware signatures' distance. */
  distance: number;
  /** Whether the distance says the same work, or only perhaps (a person decides). */
  verdict: 'duplicate' | 'ambiguous';
}

/** What a preview is compared by. */
export type ComparedPreview = Pick<LoadedPreview, 'url' | 'sha256' | 'blockhash' | 'colourSignature'>;

/** The published previews, for the duplicate and ownership checks. */
export interface PreviewCatalog {
  /** Reads what other publishers published since the last refresh. */
  refresh(): Promise<void>;
  /** The catalog change number the last refresh read up to: records written later are not known unless remembered. */
  readonly changeNumber: number;
  /** Published previews equal or near to these, leaving out records of this submission (a retry). */
  lookup(previews: readonly ComparedPreview[], submissionId: string): PreviewMatch[];
  /** lookup among the previews of these records alone (records written since the last refresh, read inside a write). */
  lookupAmong(records: readonly CanonicalRecord[], previews: readonly ComparedPreview[], submissionId: string): PreviewMatch[];
  /** Adds records this publisher has just written. */
  remember(records: readonly CanonicalRecord[]): void;
}

/** Stores previews content-addressed, each with its thumbnail; throws MediaStoreError when the files cannot be written now. */
export interface MediaStore {
  store(preview: LoadedPreview): Promise<StoredMedia>;
  /** Removes what stopped writes left behind (temporary files older than a write takes); the paths removed. */
  removeUnfinishedWrites(): Promise<string[]>;
}

/**
 * The media store could not write a preview's files (a folder that cannot be written, a full
 * disk): a fault of the archive's own machine, not of the work, which may pass once an operator
 * mends it. The message says what failed in words a submitter may read, with no absolute path.
 */
export class MediaStoreError extends Error {
  override readonly name = 'MediaStoreError';
}

/** How a match reads in a check's detail: "byte-identical to", "a perceptual copy (blockhash distance 12 of 256) of" … */
export function describeLikeness(match: Pick<PreviewMatch, 'likeness' | 'distance' | 'verdict'>): string {
  if (match.likeness === 'identical') return 'byte-identical to';
  const measure = match.likeness === 'perceptual' ? `blockhash distance ${match.distance} of 256` : `colour-aware signature distance ${match.distance.toFixed(1)}`;
  return match.verdict === 'duplicate' ? `a perceptual copy (${measure}) of` : `perceptually similar (${measure}) to`;
}
