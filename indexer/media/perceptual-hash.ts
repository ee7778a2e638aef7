/**
 * Perceptual hashing of previews: a 256-bit blockhash (16×16 blocks) computed on the image's content box,
 * so that a different border, padding or canvas size around the same drawing does not change the hash.
 *
 * The block hash itself is blockhash-core's `bmvbhash`.
 */
import { bmvbhash } from 'blockhash-core';

/** Blocks per side: the hash has HASH_GRID × HASH_GRID = 256 bits. */
export const HASH_GRID = 16;

/** Length of a hash written as hexadecimal digits. */
export const HASH_HEX_LENGTH = (HASH_GRID * HASH_GRID) / 4;

/**
 * Largest Hamming distance (of 256 bits) at which two previews are the same work: at or below it, "duplicate".
 * Chosen from the measured gap between copies of one drawing and different drawings; see docs/duplicates.md.
 */
export const DUPLICATE_MAX_DISTANCE = 22;

/**
 * Largest distance at which two previews may still be the same work: above DUPLICATE_MAX_DISTANCE and at
 * or below this, "ambiguous" (a person decides, needs_review). Above it, "distinct". See docs/duplicates.md.
 */
export const AMBIGUOUS_MAX_DISTANCE = 40;

/** An RGBA raster, 4 bytes a pixel, rows top to bottom without padding. */
export interface RgbaRaster {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A rectangle in pixel coordinates of a raster. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** How two hashes compare against the thresholds. */
export type DuplicateVerdict = 'duplicate' | 'ambiguous' | 'distinct';

/** Options of the content box search. */
export interface ContentBoxOptions {
  /** A pixel is content when one of its R, G, B channels differs from the background by more than this. */
  tolerance?: number;
  /** Share of border pixels that must match the background for the border to count as uniform. */
  minUniformBorder?: number;
  /**
   * Padding added around the content (clamped to the raster), as a share of the content box's longer side.
   * Default 0: padding that a tight crop cannot give back moves the box; see docs/duplicates.md.
   */
  padding?: number;
  /** Pixels added around the content besides `padding` (default 1), so a faint edge is never cut through. */
  paddingPixels?: number;
}

/** Default colour tolerance of the content box search (of 255). */
export const CONTENT_TOLERANCE = 48;

const HEX_PATTERN = /^[0-9a-f]{64}$/;

/** True for a 256-bit hash written as 64 lowercase hexadecimal digits. */
export function isPerceptualHash(value: unknown): value is string {
  return typeof value === 'string' && HEX_PATTERN.test(value);
}

/**
 * The blockhash of a whole raster (blockhash-core's `bmvbhash`): `bits`² bits as hexadecimal digits.
 * The raster must be at least `bits` pixels on each side.
 */
export function blockhash(raster: RgbaRaster, bits: number = HASH_GRID): string {
  const { width, height } = raster;
  if (width < bits || height < bits) throw new RangeError(`blockhash needs at least ${bits}×${bits} pixels, got ${width}×${height}`);
  return bmvbhash(raster, bits);
}

/** A copy of the raster composited over white, fully opaque, so partial transparency hashes as it looks. */
export function flattenOnWhite(raster: RgbaRaster): RgbaRaster {
  const { data } = raster;
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3] ?? 255;
    if (alpha === 255) {
      out[i] = data[i] ?? 0;
      out[i + 1] = data[i + 1] ?? 0;
      out[i + 2] = data[i + 2] ?? 0;
    } else {
      const white = 255 * (255 - alpha);
      out[i] = Math.round(((data[i] ?? 0) * alpha + white) / 255);
      out[i + 1] = Math.round(((data[i + 1] ?? 0) * alpha + white) / 255);
      out[i + 2] = Math.round(((data[i + 2] ?? 0) * alpha + white) / 255);
    }
    out[i + 3] = 255;
  }
  return { width: raster.width, height: raster.height, data: out };
}

function channelMedian(histogram: Uint32Array, count: number): number {
  let seen = 0;
  for (let value = 0; value < 256; value++) {
    seen += histogram[value] ?? 0;
    if (seen * 2 >= count) return value;
  }
  return 255;
}

/**
 * The background colour of an opaque raster: the per-channel median of its outermost ring of pixels,
 * with the share of ring pixels that match it within `tolerance`.
 */
export function borderBackground(raster: RgbaRaster, tolerance: number = CONTENT_TOLERANCE): { colour: [number, number, number]; uniformity: number } {
  const { width, height, data } = raster;
  const red = new Uint32Array(256);
  const green = new Uint32Array(256);
  const blue = new Uint32Array(256);
  const ring: number[] = [];
  for (let x = 0; x < width; x++) ring.push(x, (height - 1) * width + x);
  for (let y = 1; y < height - 1; y++) ring.push(y * width, y * width + width - 1);
  for (const pixel of ring) {
    const o = pixel * 4;
    const r = data[o] ?? 0;
    const g = data[o + 1] ?? 0;
    const b = data[o + 2] ?? 0;
    red[r] = (red[r] ?? 0) + 1;
    green[g] = (green[g] ?? 0) + 1;
    blue[b] = (blue[b] ?? 0) + 1;
  }
  const colour: [number, number, number] = [channelMedian(red, ring.length), channelMedian(green, ring.length), channelMedian(blue, ring.length)];
  let matching = 0;
  for (const pixel of ring) {
    const o = pixel * 4;
    if (Math.abs((data[o] ?? 0) - colour[0]) <= tolerance && Math.abs((data[o + 1] ?? 0) - colour[1]) <= tolerance && Math.abs((data[o + 2] ?? 0) - colour[2]) <= tolerance) matching++;
  }
  return { colour, uniformity: ring.length === 0 ? 0 : matching / ring.length };
}

/** The content box of a raster and the uniform background around it, if there is one. */
export interface ContentAnalysis {
  box: Box;
  /** The border colour, when the border is uniform. */
  background?: [number, number, number];
}

/**
 * Finds the box around everything that differs from a uniform border (optionally padded); the whole raster
 * when the border is not uniform (a photograph, a full-bleed picture) or when nothing differs from it (a
 * blank image). The raster should be opaque (see flattenOnWhite).
 */
export function analyseContent(raster: RgbaRaster, options: ContentBoxOptions = {}): ContentAnalysis {
  const { width, height, data } = raster;
  const tolerance = options.tolerance ?? CONTENT_TOLERANCE;
  const whole: Box = { left: 0, top: 0, width, height };
  const border = borderBackground(raster, tolerance);
  if (border.uniformity < (options.minUniformBorder ?? 0.6)) return { box: whole };
  const [br, bg, bb] = border.colour;
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    let rowLeft = -1;
    let rowRight = -1;
    for (let x = 0, o = y * width * 4; x < width; x++, o += 4) {
      if (Math.abs((data[o] ?? 0) - br) > tolerance || Math.abs((data[o + 1] ?? 0) - bg) > tolerance || Math.abs((data[o + 2] ?? 0) - bb) > tolerance) {
        if (rowLeft < 0) rowLeft = x;
        rowRight = x;
      }
    }
    if (rowLeft >= 0) {
      if (top > y) top = y;
      bottom = y;
      if (rowLeft < left) left = rowLeft;
      if (rowRight > right) right = rowRight;
    }
  }
  if (bottom < 0) return { box: whole, background: border.colour };
  const pad = Math.round((options.padding ?? 0) * Math.max(right - left + 1, bottom - top + 1)) + (options.paddingPixels ?? 1);
  left = Math.max(0, left - pad);
  top = Math.max(0, top - pad);
  right = Math.min(width - 1, right + pad);
  bottom = Math.min(height - 1, bottom + pad);
  return { box: { left, top, width: right - left + 1, height: bottom - top + 1 }, background: border.colour };
}

/** The content box alone (see analyseContent). */
export function findContentBox(raster: RgbaRaster, options: ContentBoxOptions = {}): Box {
  return analyseContent(raster, options).box;
}

/** Sets every pixel within `tolerance` of the background to exactly the background, in place: removes compression noise and faint halos. */
function snapToBackground(raster: RgbaRaster, background: [number, number, number], tolerance: number): void {
  const { data } = raster;
  const [br, bg, bb] = background;
  for (let o = 0; o < data.length; o += 4) {
    if (Math.abs((data[o] ?? 0) - br) <= tolerance && Math.abs((data[o + 1] ?? 0) - bg) <= tolerance && Math.abs((data[o + 2] ?? 0) - bb) <= tolerance) {
      data[o] = br;
      data[o + 1] = bg;
      data[o + 2] = bb;
    }
  }
}

/** Grows a box around its centre to at least `size` pixels a side, within the raster when the raster allows. */
function atLeast(box: Box, size: number, raster: RgbaRaster): Box {
  const grow = (start: number, length: number, limit: number): [number, number] => {
    if (length >= size) return [start, length];
    const wanted = Math.min(size, limit);
    const begin = Math.max(0, Math.min(limit - wanted, Math.round(start + length / 2 - wanted / 2)));
    return [begin, wanted];
  };
  const [left, width] = grow(box.left, box.width, raster.width);
  const [top, height] = grow(box.top, box.height, raster.height);
  return { left, top, width, height };
}

/** The pixels of a box of a raster, as a raster of their own; scaled up by repetition to at least `minSide` a side. */
export function cropRaster(raster: RgbaRaster, box: Box, minSide = 1): RgbaRaster {
  const scaleX = Math.max(1, Math.ceil(minSide / box.width));
  const scaleY = Math.max(1, Math.ceil(minSide / box.height));
  const width = box.width * scaleX;
  const height = box.height * scaleY;
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sourceRow = box.top + Math.floor(y / scaleY);
    if (scaleX === 1) {
      const start = (sourceRow * raster.width + box.left) * 4;
      out.set(raster.data.subarray(start, start + box.width * 4), y * width * 4);
      continue;
    }
    for (let x = 0; x < width; x++) {
      const source = (sourceRow * raster.width + box.left + Math.floor(x / scaleX)) * 4;
      out.set(raster.data.subarray(source, source + 4), (y * width + x) * 4);
    }
  }
  return { width, height, data: out };
}

/** The perceptual hash of a raster with the box it was computed on. */
export interface ContentHash {
  hash: string;
  box: Box;
}

/** The region of a raster that its perceptual hash is computed on, and where it lies. */
export interface ContentRegion {
  region: RgbaRaster;
  box: Box;
  /** The uniform border colour the region was snapped to, when the border is uniform. */
  background?: [number, number, number];
}

/** Options of contentHash. */
export interface ContentHashOptions extends ContentBoxOptions {
  /** Trim to the content box (default true). */
  trim?: boolean;
  /** Set near-background pixels to the background before hashing (default true). */
  snap?: boolean;
}

/**
 * The 256-bit perceptual hash of a raster's content: composited over white, trimmed to its content box,
 * near-background pixels set to the background, then block-hashed. The same drawing with another border,
 * padding, size or compression hashes the same or nearly so.
 */
export function contentHash(raster: RgbaRaster, options: ContentHashOptions = {}): ContentHash {
  const { region, box } = contentRegion(raster, options);
  return { hash: blockhash(region), box };
}

/**
 * What contentHash hashes: the raster composited over white, cut to its content box (at least
 * HASH_GRID pixels a side) and snapped to the background. The colour signature reads it too.
 */
export function contentRegion(raster: RgbaRaster, options: ContentHashOptions = {}): ContentRegion {
  const flat = flattenOnWhite(raster);
  const analysis = analyseContent(flat, options);
  const found = options.trim === false ? { left: 0, top: 0, width: flat.width, height: flat.height } : analysis.box;
  const box = atLeast(found, HASH_GRID, flat);
  const region = cropRaster(flat, box, HASH_GRID);
  if (options.snap !== false && analysis.background) snapToBackground(region, analysis.background, options.tolerance ?? CONTENT_TOLERANCE);
  return { region, box, ...(analysis.background ? { background: analysis.background } : {}) };
}

function popcount32(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Number of differing bits between two hashes of equal length written in hexadecimal (64 digits for 256 bits). */
export function hammingDistance(a: string, b: string): number {
  if (a.length !== b.length || a.length % 8 !== 0 || !/^[0-9a-fA-F]*$/.test(a) || !/^[0-9a-fA-F]*$/.test(b)) {
    throw new TypeError('hammingDistance needs two hexadecimal hashes of the same length (a multiple of 8 digits)');
  }
  let distance = 0;
  for (let i = 0; i < a.length; i += 8) distance += popcount32((parseInt(a.slice(i, i + 8), 16) ^ parseInt(b.slice(i, i + 8), 16)) >>> 0);
  return distance;
}

/** Where a Hamming distance falls against DUPLICATE_MAX_DISTANCE and AMBIGUOUS_MAX_DISTANCE. */
export function classifyDistance(distance: number): DuplicateVerdict {
  if (distance <= DUPLICATE_MAX_DISTANCE) return 'duplicate';
  if (distance <= AMBIGUOUS_MAX_DISTANCE) return 'ambiguous';
  return 'distinct';
}
