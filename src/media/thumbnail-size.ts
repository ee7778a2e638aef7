/** Longest side of a stored thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 480;

/**
 * The size of a preview's thumbnail: fitted inside THUMBNAIL_SIZE², never enlarged, each side
 * rounded and at least one pixel (what sharp's `fit: 'inside'` resize writes).
 */
export function thumbnailDimensions(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, THUMBNAIL_SIZE / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
