/**
 * Perceptual hashing of previews: a 256-bit blockhash (16×16 blocks) computed on the image's content box,
 * so that a different border, padding or canvas size around the same drawing does not change the hash.
 *
 * The block hash is a TypeScript port of blockhash-core 0.1.0 `bmvbhash` (MIT, © Linus Unnebäck, after
 * blockhash.io), checked bit for bit against that package; see test/indexer/media/perceptual-hash.test.ts.
 */

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

function median(values: Float64Array): number {
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  if (sorted.length % 2 === 0) return ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return sorted[middle] ?? 0;
}

function blocksToHex(blocks: Float64Array, pixelsPerBlock: number): string {
  const halfBlockValue = (pixelsPerBlock * 256 * 3) / 2;
  const bandSize = blocks.length / 4;
  const bits = new Uint8Array(blocks.length);
  for (let band = 0; band < 4; band++) {
    const m = median(blocks.subarray(band * bandSize, (band + 1) * bandSize));
    for (let j = band * bandSize; j < (band + 1) * bandSize; j++) {
      const v = blocks[j] ?? 0;
      // As in blockhash: brighter than the band's median is 1; a block equal to a median near white is 1 too,
      // so that images dominated by one colour do not hash to all zeros.
      bits[j] = v > m || (Math.abs(v - m) < 1 && m > halfBlockValue) ? 1 : 0;
    }
  }
  let hex = '';
  for (let i = 0; i < bits.length; i += 4) {
    hex += (((bits[i] ?? 0) << 3) | ((bits[i + 1] ?? 0) << 2) | ((bits[i + 2] ?? 0) << 1) | (bits[i + 3] ?? 0)).toString(16);
  }
  return hex;
}

function pixelValue(data: Uint8Array, offset: number): number {
  // blockhash counts a fully transparent pixel as white and ignores partial alpha.
  return data[offset + 3] === 0 ? 765 : (data[offset] ?? 0) + (data[offset + 1] ?? 0) + (data[offset + 2] ?? 0);
}

/**
 * The blockhash of a whole raster (blockhash-core `bmvbhash`): `bits`² bits as hexadecimal digits.
 * The raster must be at least `bits` pixels on each side.
 */
export function blockhash(raster: RgbaRaster, bits: number = HASH_GRID): string {
  const { width, height, data } = raster;
  if (width < bits || height < bits) throw new RangeError(`blockhash needs at least ${bits}×${bits} pixels, got ${width}×${height}`);
  const blocks = new Float64Array(bits * bits);
  const evenX = width % bits === 0;
  const evenY = height % bits === 0;
  if (evenX && evenY) {
    const sizeX = Math.floor(width / bits);
    const sizeY = Math.floor(height / bits);
    for (let y = 0; y < bits; y++) {
      for (let x = 0; x < bits; x++) {
        let total = 0;
        for (let iy = 0; iy < sizeY; iy++) {
          for (let ix = 0; ix < sizeX; ix++) total += pixelValue(data, ((y * sizeY + iy) * width + x * sizeX + ix) * 4);
        }
        blocks[y * bits + x] = total;
      }
    }
    return blocksToHex(blocks, sizeX * sizeY);
  }
  const blockWidth = width / bits;
  const blockHeight = height / bits;
  const add = (row: number, column: number, value: number): void => {
    // The reference implementation writes past the last column into an ignored array slot; do the same.
    if (column < bits && row < bits) blocks[row * bits + column] = (blocks[row * bits + column] ?? 0) + value;
  };
  for (let y = 0; y < height; y++) {
    let blockTop: number;
    let blockBottom: number;
    let weightTop: number;
    let weightBottom: number;
    if (evenY) {
      blockTop = blockBottom = Math.floor(y / blockHeight);
      weightTop = 1;
      weightBottom = 0;
    } else {
      const yMod = (y + 1) % blockHeight;
      const yFrac = yMod - Math.floor(yMod);
      const yInt = yMod - yFrac;
      weightTop = 1 - yFrac;
      weightBottom = yFrac;
      if (yInt > 0 || y + 1 === height) {
        blockTop = blockBottom = Math.floor(y / blockHeight);
      } else {
        blockTop = Math.floor(y / blockHeight);
        blockBottom = Math.ceil(y / blockHeight);
      }
    }
    for (let x = 0; x < width; x++) {
      const value = pixelValue(data, (y * width + x) * 4);
      let blockLeft: number;
      let blockRight: number;
      let weightLeft: number;
      let weightRight: number;
      if (evenX) {
        blockLeft = blockRight = Math.floor(x / blockWidth);
        weightLeft = 1;
        weightRight = 0;
      } else {
        const xMod = (x + 1) % blockWidth;
        const xFrac = xMod - Math.floor(xMod);
        const xInt = xMod - xFrac;
        weightLeft = 1 - xFrac;
        weightRight = xFrac;
        if (xInt > 0 || x + 1 === width) {
          blockLeft = blockRight = Math.floor(x / blockWidth);
        } else {
          blockLeft = Math.floor(x / blockWidth);
          blockRight = Math.ceil(x / blockWidth);
        }
      }
      add(blockTop, blockLeft, value * weightTop * weightLeft);
      add(blockTop, blockRight, value * weightTop * weightRight);
      add(blockBottom, blockLeft, value * weightBottom * weightLeft);
      add(blockBottom, blockRight, value * weightBottom * weightRight);
    }
  }
  return blocksToHex(blocks, blockWidth * blockHeight);
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
  const flat = flattenOnWhite(raster);
  const analysis = analyseContent(flat, options);
  const found = options.trim === false ? { left: 0, top: 0, width: flat.width, height: flat.height } : analysis.box;
  const box = atLeast(found, HASH_GRID, flat);
  const region = cropRaster(flat, box, HASH_GRID);
  if (options.snap !== false && analysis.background) snapToBackground(region, analysis.background, options.tolerance ?? CONTENT_TOLERANCE);
  return { hash: blockhash(region), box };
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
