/**
 * Checks a fetched preview: a raster image that decodes, is not a decompression bomb, is not tiny, and
 * says whether it is blank; computes its perceptual hash from the same single decode.
 */
import sharp from 'sharp';
import type { Metadata } from 'sharp';
import { blockhash, contentRegion } from './perceptual-hash.ts';
import { colourSignature, LOW_DETAIL_MIN_BLOCKS, uninformativeBlocks } from './colour-signature.ts';
import type { Box, RgbaRaster } from './perceptual-hash.ts';

/** Raster formats accepted as previews (sharp's names). */
export const RASTER_FORMATS = ['png', 'jpeg', 'webp', 'gif'] as const;
export type RasterFormat = (typeof RASTER_FORMATS)[number];

/** File extension used by storePreview for each accepted format. */
export const EXTENSIONS: Record<RasterFormat, 'png' | 'jpg' | 'webp' | 'gif'> = { png: 'png', jpeg: 'jpg', webp: 'webp', gif: 'gif' };

/** Most pixels (width × height of one frame) a preview may have: larger ones are refused before decoding. */
export const MAX_INPUT_PIXELS = 40_000_000;

/** Shortest side a preview may have, in pixels. */
export const MIN_SIDE = 32;

/** Longest side of the raster the checks and the hash are computed on. */
export const ANALYSIS_SIZE = 256;

/** A channel standard deviation (of 255) below which the image counts as one flat colour. */
export const BLANK_STDEV = 2;

/** Why an image was refused. */
export type InspectionFailure = 'empty' | 'not-raster' | 'undecodable' | 'too-many-pixels' | 'too-small';

/** Figures measured on the analysis raster. */
export interface ImageStats {
  /** Size of the analysis raster (fit inside ANALYSIS_SIZE², scaled up when smaller). */
  sampleWidth: number;
  sampleHeight: number;
  /** Mean of R, G, B, A (0–255). */
  mean: [number, number, number, number];
  /** Standard deviation of R, G, B, A. */
  stdev: [number, number, number, number];
  /** Share of fully transparent pixels. */
  transparent: number;
  /** Content box the hash was computed on, in analysis-raster pixels. */
  contentBox: Box;
  /** Share of the analysis raster covered by the content box. */
  contentArea: number;
  /** Content blocks whose blockhash bit is decided by rounding (see colour-signature.ts). */
  uninformativeBlocks: number;
}

/** A preview that passed: its format, size, perceptual hash and whether it is blank. */
export interface ImageAccepted {
  ok: true;
  format: RasterFormat;
  /** Extension to store it under (storePreview's argument). */
  extension: 'png' | 'jpg' | 'webp' | 'gif';
  /** Size of the (first frame of the) image, after EXIF orientation. */
  width: number;
  height: number;
  /** Frames in an animated GIF or WebP, 1 otherwise; only the first is inspected. */
  pages: number;
  /** 256-bit perceptual hash of the content box, 64 hex digits (StoredMedia.blockhash). */
  blockhash: string;
  /** The colour-aware signature, when the blockhash has too few informative bits (StoredMedia.colourSignature). */
  colourSignature?: string;
  /** One flat colour (every channel's deviation below BLANK_STDEV) or fully transparent. */
  blank: boolean;
  stats: ImageStats;
}

/** A preview that was refused, with a reason a maintainer can read. */
export interface ImageRefused {
  ok: false;
  failure: InspectionFailure;
  reason: string;
}

export type ImageInspection = ImageAccepted | ImageRefused;

/** Options of inspectImage. */
export interface InspectOptions {
  maxPixels?: number;
  minSide?: number;
}

function startsWith(bytes: Buffer, signature: number[], offset = 0): boolean {
  return bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
}

/** The raster format the first bytes announce, by signature; Content-Type is never consulted. */
export function sniffRasterFormat(bytes: Buffer): RasterFormat | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a') return 'gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return undefined;
}

/** A short guess at what non-raster bytes are, for the refusal message. */
function describeNonRaster(bytes: Buffer): string {
  const head = bytes.subarray(0, 1024).toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
  if (head.startsWith('%pdf')) return 'a PDF document';
  if (/<svg[\s>]/.test(head) || (head.startsWith('<?xml') && head.includes('<svg'))) return 'an SVG image';
  if (head.startsWith('<!doctype html') || /<(html|head|body)[\s>]/.test(head)) return 'an HTML page';
  if (head.startsWith('<')) return 'an XML or HTML document';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'a TIFF image';
  if (bytes.subarray(4, 8).toString('latin1') === 'ftyp') return 'an ISO media file (AVIF, HEIC or video)';
  if (startsWith(bytes, [0x42, 0x4d])) return 'a BMP image';
  return 'not a known image format';
}

function refuse(failure: InspectionFailure, reason: string): ImageRefused {
  return { ok: false, failure, reason };
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}

/**
 * Inspects preview bytes: signature sniffing (PNG, JPEG, WebP, GIF only — SVG, PDF, HTML and anything else
 * are refused without being handed to a decoder), header check of the pixel count against decompression
 * bombs, minimum size, then one decode to a small RGBA raster on which blankness and the perceptual hash
 * are computed.
 */
export async function inspectImage(bytes: Buffer, options: InspectOptions = {}): Promise<ImageInspection> {
  const maxPixels = options.maxPixels ?? MAX_INPUT_PIXELS;
  const minSide = options.minSide ?? MIN_SIDE;
  if (bytes.length === 0) return refuse('empty', 'the file is empty');
  const sniffed = sniffRasterFormat(bytes);
  if (!sniffed) return refuse('not-raster', `not a PNG, JPEG, WebP or GIF image: ${describeNonRaster(bytes)}`);

  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    return refuse('undecodable', `the ${sniffed.toUpperCase()} header cannot be read: ${errorText(error)}`);
  }
  if (metadata.format !== sniffed) return refuse('undecodable', `the file starts like ${sniffed.toUpperCase()} but decodes as ${String(metadata.format)}`);
  const rawWidth = metadata.width ?? 0;
  const rawHeight = metadata.pageHeight ?? metadata.height ?? 0;
  const pixels = rawWidth * rawHeight;
  if (pixels > maxPixels) {
    return refuse('too-many-pixels', `${rawWidth}×${rawHeight} is ${(pixels / 1e6).toFixed(1)} megapixels, more than the ${(maxPixels / 1e6).toFixed(0)} allowed`);
  }
  const rotated = (metadata.orientation ?? 1) >= 5;
  const width = rotated ? rawHeight : rawWidth;
  const height = rotated ? rawWidth : rawHeight;
  if (width < minSide || height < minSide) return refuse('too-small', `${width}×${height} is smaller than ${minSide}×${minSide}`);

  let sample: RgbaRaster;
  try {
    sample = await decodeAnalysisRaster(bytes, maxPixels);
  } catch (error) {
    return refuse('undecodable', `the ${sniffed.toUpperCase()} image cannot be decoded: ${errorText(error)}`);
  }
  const channels = measureChannels(sample.data);
  const blank = channels.transparent === 1 || channels.stdev.every((deviation) => deviation < BLANK_STDEV);
  const { region, box, background } = contentRegion(sample);
  const hash = blockhash(region);
  const uninformative = uninformativeBlocks(region, background);
  const lowDetail = uninformative >= LOW_DETAIL_MIN_BLOCKS;
  return {
    ok: true,
    format: sniffed,
    extension: EXTENSIONS[sniffed],
    width,
    height,
    pages: metadata.pages ?? 1,
    blockhash: hash,
    ...(lowDetail ? { colourSignature: colourSignature(region, box.width / box.height, background) } : {}),
    blank,
    stats: {
      sampleWidth: sample.width,
      sampleHeight: sample.height,
      mean: channels.mean,
      stdev: channels.stdev,
      transparent: channels.transparent,
      contentBox: box,
      contentArea: (box.width * box.height) / (sample.width * sample.height),
      uninformativeBlocks: uninformative,
    },
  };
}

/** Mean and standard deviation of each RGBA channel, and the share of fully transparent pixels. */
export function measureChannels(data: Uint8Array): { mean: [number, number, number, number]; stdev: [number, number, number, number]; transparent: number } {
  const sum = [0, 0, 0, 0];
  const squares = [0, 0, 0, 0];
  let transparent = 0;
  for (let i = 0; i < data.length; i += 4) {
    const r = data[i] ?? 0;
    const g = data[i + 1] ?? 0;
    const b = data[i + 2] ?? 0;
    const a = data[i + 3] ?? 0;
    sum[0]! += r;
    sum[1]! += g;
    sum[2]! += b;
    sum[3]! += a;
    squares[0]! += r * r;
    squares[1]! += g * g;
    squares[2]! += b * b;
    squares[3]! += a * a;
    if (a === 0) transparent++;
  }
  const count = Math.max(1, data.length / 4);
  const mean = sum.map((s) => s / count) as [number, number, number, number];
  const stdev = squares.map((s, c) => Math.sqrt(Math.max(0, s / count - (mean[c] ?? 0) ** 2))) as [number, number, number, number];
  return { mean, stdev, transparent: transparent / count };
}

/**
 * Decodes the first frame of an image once, EXIF-oriented, to an RGBA raster that fits inside
 * ANALYSIS_SIZE² (smaller images are scaled up to it). Throws when sharp cannot decode it or it has more
 * than `maxPixels` pixels.
 */
export async function decodeAnalysisRaster(bytes: Buffer, maxPixels: number = MAX_INPUT_PIXELS): Promise<RgbaRaster> {
  const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', pages: 1 })
    .autoOrient()
    .resize(ANALYSIS_SIZE, ANALYSIS_SIZE, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}
