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
}

export type PreviewResult = { ok: true; preview: LoadedPreview } | { ok: false; url: string; reason: string; transient: boolean };

/** Fetches and inspects preview images; the publisher sees nothing of HTTP or sharp. */
export interface PreviewLoader {
  load(url: string): Promise<PreviewResult>;
}
