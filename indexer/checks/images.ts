import type { CheckVerdict } from '../../src/domain/submission.ts';
import type { LoadedPreview, PreviewLoader } from '../previews.ts';

export interface ImagesFinding {
  verdict: CheckVerdict;
  previews: LoadedPreview[];
  /** Only transient faults (host down, timeout): worth trying again later. */
  transient: boolean;
}

/**
 * Images: every preview URL is fetched through the SSRF-safe client and decoded from its bytes:
 * raster, within the pixel limit, at least 32×32, not blank. Availability only, not a quality
 * score of the model.
 */
export async function checkImages(loader: PreviewLoader, urls: readonly string[]): Promise<ImagesFinding> {
  const results = await Promise.all(urls.map((url) => loader.load(url)));
  const previews = results.flatMap((result) => (result.ok ? [result.preview] : []));
  const failures = results.flatMap((result) => (result.ok ? [] : [result]));
  if (failures.length === 0) {
    const sizes = previews.map((preview) => `${preview.width}×${preview.height} ${preview.format}`).join(', ');
    return { verdict: { name: 'images', outcome: 'pass', detail: `${previews.length} preview${previews.length === 1 ? '' : 's'} decoded and not blank (${sizes}).` }, previews, transient: false };
  }
  const permanent = failures.filter((failure) => !failure.transient);
  const detail = failures.map((failure) => `${failure.url}: ${failure.reason}`).join('; ');
  if (permanent.length) return { verdict: { name: 'images', outcome: 'fail', detail }, previews, transient: false };
  return { verdict: { name: 'images', outcome: 'error', detail }, previews, transient: true };
}
