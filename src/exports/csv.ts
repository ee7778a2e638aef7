import type { LocalizedRecord } from '../domain/localize.ts';

/** Columns of the CSV export, in order; one row per localized record. */
export const CSV_COLUMNS = ['id', 'kind', 'source', 'sourceUrl', 'url', 'markdown', 'title', 'notes', 'model', 'author', 'date', 'year', 'format', 'promptCategory', 'prompt', 'mediaStatus', 'media', 'thumbnail', 'citation', 'updated'] as const;

/** Cells a spreadsheet would run as a formula start with one of these. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 field: quoted when it holds a comma, quote or line break, quotes doubled. A cell
 * that a spreadsheet would read as a formula is neutralised with a leading apostrophe.
 */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function cellOf(record: LocalizedRecord, column: (typeof CSV_COLUMNS)[number]): string {
  if (column === 'media') return record.media.map((media) => media.url).join(' ');
  const value = record[column];
  return value === undefined || value === null ? '' : String(value);
}

/** The header line, CRLF-terminated. */
export function csvHeader(): string {
  return `${CSV_COLUMNS.join(',')}\r\n`;
}

/** One record as a CRLF-terminated CSV line. */
export function csvRow(record: LocalizedRecord): string {
  return `${CSV_COLUMNS.map((column) => csvField(cellOf(record, column))).join(',')}\r\n`;
}
