import type { CheckVerdict } from '../submission.ts';
import type { LoadedPreview, PreviewLoader } from '../previews.ts';

export interface ImagesFinding {
  verdict: CheckVerdict;
  /** Every preview that loaded, blank ones included (a maintainer's approval may keep them). */
  previews: LoadedPreview[];
  /** URLs that could not be loaded at all. */
  missing: string[];
  /** Only transient faults (host down, timeout): worth trying again later. */
  transient: boolean;
}

/**
 * Images: every preview URL is fetched through the SSRF-safe client and decoded from its bytes:
 * raster, within the pixel limit, at least 32×32, not blank. Availability only, not a quality
 * score of the model. Called only with URLs whose hosts passed the ownership check's host part.
 */
export async function checkImages(loader: PreviewLoader, urls: readonly string[]): Promise<ImagesFinding> {
  const results = await Promise.all(urls.map((url) => loader.load(url)));
  const previews = results.flatMap((result) => (result.ok ? [result.preview] : []));
  const failures = results.flatMap((result) => (result.ok ? [] : [result]));
  const blank = previews.filter((preview) => preview.blank);
  const missing = failures.map((failure) => failure.url);
  if (failures.length === 0 && blank.length === 0) {
    const sizes = previews.map((preview) => `${preview.width}×${preview.height} ${preview.format}`).join(', ');
    return { verdict: { name: 'images', outcome: 'pass', detail: `${previews.length} preview${previews.length === 1 ? '' : 's'} decoded and not blank (${sizes}).` }, previews, missing, transient: false };
  }
  const problems = [...failures.map((failure) => `${failure.url}: ${failure.reason}`), ...blank.map((preview) => `${preview.url}: is blank: one flat colour or fully transparent`)];
  const detail = problems.join('; ');
  const permanent = blank.length > 0 || failures.some((failure) => !failure.transient);
  if (permanent) return { verdict: { name: 'images', outcome: 'fail', detail }, previews, missing, transient: false };
  return { verdict: { name: 'images', outcome: 'error', detail }, previews, missing, transient: true };
}
