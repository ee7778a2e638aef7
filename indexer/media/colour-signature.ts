/**
 * The second duplicate signature, for low-detail previews (filled shapes, flat-colour logos and
 * emoji).
 *
 * A blockhash bit says whether a block is brighter than the median of its band. In a flat-colour
 * picture most content blocks have exactly the brightness of that median, so their bits are
 * decided by which side of the median a few edge blocks fall on: resizing the same filled shape
 * flips dozens of them (distances of 88–104 of 256 measured), while two shapes of one form in
 * different colours can hash the same. Such previews are recognised by counting those
 * uninformative content blocks, and are compared by a colour-aware signature instead: the mean
 * colour of an 8×8 grid in OKLab, the silhouette (share of non-background pixels) on a 16×16 grid,
 * and the aspect ratio of the content box. Measurements and thresholds: docs/duplicates.md.
 */
import type { RgbaRaster } from './perceptual-hash.ts';

/** Cells per side of the colour layout. */
export const COLOUR_GRID = 8;

/** Cells per side of the silhouette, and blocks per side of the detail measurement (the blockhash grid). */
export const SILHOUETTE_GRID = 16;

/**
 * A block is uninformative when its brightness lies within this share of the full range of its
 * band's median: its blockhash bit is then decided by rounding, not by the picture.
 */
export const UNINFORMATIVE_MARGIN = 0.02;

/**
 * A preview is low-detail when at least this many of its 256 blocks are content (not plain
 * background) and uninformative. Line drawings measured 3–64 (the background blocks of a sparse
 * drawing tie with the median too, but always the same way), filled shapes 74–236.
 */
export const LOW_DETAIL_MIN_BLOCKS = 70;

/** Signature distance at or below which two low-detail previews are the same work. */
export const SIGNATURE_DUPLICATE_MAX_DISTANCE = 9;

/** Signature distance at or below which two low-detail previews may be the same work (a person decides). */
export const SIGNATURE_AMBIGUOUS_MAX_DISTANCE = 12;

/** Largest difference of log2(width / height) of two content boxes that can still be the same work. */
export const ASPECT_MAX_DIFFERENCE = 0.15;

/** A pixel belongs to the silhouette when a channel differs from the background by more than this (as the content box search). */
const SILHOUETTE_TOLERANCE = 48;

const ASPECT_SCALE = 32;
const COLOUR_CELLS = COLOUR_GRID * COLOUR_GRID;
const SILHOUETTE_CELLS = SILHOUETTE_GRID * SILHOUETTE_GRID;

/** Hex digits of a signature: one aspect byte, three bytes a colour cell, one digit a silhouette cell. */
export const COLOUR_SIGNATURE_HEX_LENGTH = 2 + COLOUR_CELLS * 6 + SILHOUETTE_CELLS;

function cellOf(x: number, y: number, width: number, height: number, grid: number): number {
  return Math.min(grid - 1, Math.floor((y * grid) / height)) * grid + Math.min(grid - 1, Math.floor((x * grid) / width));
}

/**
 * How many of the 16×16 brightness blocks of a content region are content (not entirely the
 * background colour) and lie within UNINFORMATIVE_MARGIN of their band's median (4 bands of 4
 * block rows, as blockhash compares them).
 */
export function uninformativeBlocks(region: RgbaRaster, background?: readonly [number, number, number]): number {
  const { width, height, data } = region;
  const sums = new Float64Array(SILHOUETTE_CELLS);
  const counts = new Uint32Array(SILHOUETTE_CELLS);
  const plain = new Uint32Array(SILHOUETTE_CELLS);
  for (let y = 0; y < height; y++) {
    for (let x = 0, o = y * width * 4; x < width; x++, o += 4) {
      const block = cellOf(x, y, width, height, SILHOUETTE_GRID);
      const red = data[o] ?? 0;
      const green = data[o + 1] ?? 0;
      const blue = data[o + 2] ?? 0;
      sums[block] = (sums[block] ?? 0) + red + green + blue;
      counts[block] = (counts[block] ?? 0) + 1;
      if (background && red === background[0] && green === background[1] && blue === background[2]) plain[block] = (plain[block] ?? 0) + 1;
    }
  }
  const means = Array.from(sums, (sum, block) => sum / Math.max(1, counts[block] ?? 0));
  const margin = UNINFORMATIVE_MARGIN * 3 * 255;
  const bandSize = SILHOUETTE_CELLS / 4;
  let uninformative = 0;
  for (let band = 0; band < 4; band++) {
    const values = means.slice(band * bandSize, (band + 1) * bandSize);
    const sorted = [...values].sort((a, b) => a - b);
    const median = ((sorted[bandSize / 2 - 1] ?? 0) + (sorted[bandSize / 2] ?? 0)) / 2;
    values.forEach((value, index) => {
      const block = band * bandSize + index;
      if (Math.abs(value - median) <= margin && plain[block] !== counts[block]) uninformative++;
    });
  }
  return uninformative;
}

function toLinear(channel: number): number {
  const value = channel / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** A linear-light mean as an sRGB channel (0–255). */
function fromLinear(value: number): number {
  const encoded = value <= 0.0031308 ? value * 12.92 : 1.055 * value ** (1 / 2.4) - 0.055;
  return Math.max(0, Math.min(255, encoded * 255));
}

/** An sRGB colour (0–255 a channel) in OKLab, scaled to bytes: L over 0–1, a and b over −0.4–0.4. */
export function oklabBytes(red: number, green: number, blue: number): [number, number, number] {
  const r = toLinear(red);
  const g = toLinear(green);
  const b = toLinear(blue);
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  const lightness = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  const greenRed = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const blueYellow = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  const byte = (value: number): number => Math.max(0, Math.min(255, Math.round(value)));
  return [byte(lightness * 255), byte((greenRed + 0.4) * (255 / 0.8)), byte((blueYellow + 0.4) * (255 / 0.8))];
}

/**
 * The colour-aware signature of a content region (what the blockhash was computed on), as hex
 * digits: the content box's aspect ratio (given, since a small box is scaled up unevenly), the
 * mean colour of each cell of an 8×8 grid in OKLab (averaged in linear light, as the eye mixes a
 * cell), and each 16×16 cell's share of pixels that differ from the background (0–15).
 */
export function colourSignature(region: RgbaRaster, aspect: number, background?: readonly [number, number, number]): string {
  const { width, height, data } = region;
  const colour = new Float64Array(COLOUR_CELLS * 3);
  const colourCounts = new Uint32Array(COLOUR_CELLS);
  const shape = new Uint32Array(SILHOUETTE_CELLS);
  const shapeCounts = new Uint32Array(SILHOUETTE_CELLS);
  for (let y = 0; y < height; y++) {
    for (let x = 0, o = y * width * 4; x < width; x++, o += 4) {
      const red = data[o] ?? 0;
      const green = data[o + 1] ?? 0;
      const blue = data[o + 2] ?? 0;
      const cell = cellOf(x, y, width, height, COLOUR_GRID);
      colour[cell * 3] = (colour[cell * 3] ?? 0) + toLinear(red);
      colour[cell * 3 + 1] = (colour[cell * 3 + 1] ?? 0) + toLinear(green);
      colour[cell * 3 + 2] = (colour[cell * 3 + 2] ?? 0) + toLinear(blue);
      colourCounts[cell] = (colourCounts[cell] ?? 0) + 1;
      const block = cellOf(x, y, width, height, SILHOUETTE_GRID);
      shapeCounts[block] = (shapeCounts[block] ?? 0) + 1;
      const content = !background || Math.abs(red - background[0]) > SILHOUETTE_TOLERANCE || Math.abs(green - background[1]) > SILHOUETTE_TOLERANCE || Math.abs(blue - background[2]) > SILHOUETTE_TOLERANCE;
      if (content) shape[block] = (shape[block] ?? 0) + 1;
    }
  }
  let hex = Math.max(0, Math.min(255, Math.round((Math.log2(aspect) + 4) * ASPECT_SCALE))).toString(16).padStart(2, '0');
  for (let cell = 0; cell < COLOUR_CELLS; cell++) {
    const count = Math.max(1, colourCounts[cell] ?? 0);
    const mean = [0, 1, 2].map((channel) => fromLinear((colour[cell * 3 + channel] ?? 0) / count));
    for (const byte of oklabBytes(mean[0] ?? 0, mean[1] ?? 0, mean[2] ?? 0)) hex += byte.toString(16).padStart(2, '0');
  }
  for (let block = 0; block < SILHOUETTE_CELLS; block++) hex += Math.round((15 * (shape[block] ?? 0)) / Math.max(1, shapeCounts[block] ?? 0)).toString(16);
  return hex;
}

/** True for a signature as colourSignature writes it. */
export function isColourSignature(value: unknown): value is string {
  return typeof value === 'string' && value.length === COLOUR_SIGNATURE_HEX_LENGTH && /^[0-9a-f]+$/.test(value);
}

/** Difference of two signatures' aspect ratios, as log2(width / height). */
export function aspectDifference(a: string, b: string): number {
  return Math.abs(parseInt(a.slice(0, 2), 16) - parseInt(b.slice(0, 2), 16)) / ASPECT_SCALE;
}

/** The mean OKLab distance between the colour cells of two signatures (1 is about 1/255 of the lightness range). */
export function colourLayoutDistance(a: string, b: string): number {
  let total = 0;
  for (let offset = 2; offset < 2 + COLOUR_CELLS * 6; offset += 6) {
    let squares = 0;
    for (let channel = 0; channel < 3; channel++) {
      const at = offset + channel * 2;
      const difference = parseInt(a.slice(at, at + 2), 16) - parseInt(b.slice(at, at + 2), 16);
      squares += difference * difference;
    }
    total += Math.sqrt(squares);
  }
  return total / COLOUR_CELLS;
}

/** How much of the grid two silhouettes disagree on, in cells of 256 (so comparable with blockhash bits). */
export function silhouetteDistance(a: string, b: string): number {
  let total = 0;
  for (let offset = 2 + COLOUR_CELLS * 6; offset < COLOUR_SIGNATURE_HEX_LENGTH; offset++) total += Math.abs(parseInt(a[offset] ?? '0', 16) - parseInt(b[offset] ?? '0', 16));
  return (total / 15) * (256 / SILHOUETTE_CELLS);
}

/**
 * The distance of two colour-aware signatures: the larger of the colour layout distance and half
 * the silhouette distance, so two previews are near only when both their colours and their shapes
 * are; Infinity when their aspect ratios differ by more than ASPECT_MAX_DIFFERENCE.
 */
export function signatureDistance(a: string, b: string): number {
  if (!isColourSignature(a) || !isColourSignature(b)) throw new TypeError('signatureDistance needs two colour signatures');
  if (aspectDifference(a, b) > ASPECT_MAX_DIFFERENCE) return Infinity;
  return Math.max(colourLayoutDistance(a, b), silhouetteDistance(a, b) / 2);
}
