/** The archive's record model: canonical bilingual records as stored, and their enumerations. */

export const LANGS = ['zh', 'en'] as const;
export type Lang = (typeof LANGS)[number];

export const KINDS = ['gallery', 'timeline'] as const;
export type Kind = (typeof KINDS)[number];

export const FORMATS = ['svg', 'animation', '3d', 'game', 'video'] as const;
export type Format = (typeof FORMATS)[number];

export const MEDIA_STATUSES = ['local-media', 'text', 'interactive', 'deleted-source'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** Text given in both archive languages. */
export interface Bilingual {
  zh: string;
  en: string;
}

/** A preview image kept by the archive, addressed by content. Paths are relative to the media folder. */
export interface StoredMedia {
  path: string;
  width: number;
  height: number;
  sha256: string;
  /** 256-bit perceptual hash as 64 hex digits, when computed. */
  blockhash?: string;
  /** Colour-aware signature of a low-detail preview, whose blockhash says little (docs/duplicates.md). */
  colourSignature?: string;
  /** WebP thumbnail of this preview, relative to the media folder. */
  thumbnailPath?: string;
}

/** What describes a work, as a maintainer submits it and as a record keeps it. */
export interface WorkDescription {
  sourceUrl: string;
  /** Date of the work (YYYY-MM-DD). */
  date: string;
  /** Model label exactly as the source gives it. */
  model: string;
  author: string;
  format: Format;
  title: Bilingual;
  notes: Bilingual;
  /** Absent when the source gives none; never inferred. */
  prompt?: string;
}

/** A record as the store keeps it: both languages, canonical source URL, stored previews. */
export interface CanonicalRecord extends WorkDescription {
  id: string;
  kind: Kind;
  source: string;
  promptCategory: string;
  mediaStatus: MediaStatus;
  media: StoredMedia[];
  /** Catalog compilation date, not the date of the work. */
  updated: string;
  /** Set when the record came through ingest. */
  submissionId?: string;
}

/** A canonical record with the store's monotonic change number. */
export interface StoredRecord extends CanonicalRecord {
  seq: number;
}

export const CATALOG_VERSION = '1.0';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/** The year of a YYYY-MM-DD date. */
export function yearOf(date: string): string {
  return date.slice(0, 4);
}

/** Days since 1970-01-01 of a YYYY-MM-DD date. */
export function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
}

/** The UTC day of a moment, written YYYY-MM-DD: the compilation date of a record written then. */
export function compilationDay(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}

/** True for a real calendar date written as YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}
