import type { LocalizedRecord } from '../domain/localize.ts';

/** Columns of the CSV export, in order; one row per localized record. */
export const CSV_COLUMNS = ['id', 'kind', 'source', 'sourceUrl', 'url', 'markdown', 'title', 'notes', 'model', 'author', 'date', 'year', 'format', 'promptCategory', 'prompt', 'mediaStatus', 'media', 'thumbnail', 'citation', 'updated'] as const;

/** Columns of the bilingual CSV: the language-independent fields once, the localized ones per language. */
export const BILINGUAL_CSV_COLUMNS = ['id', 'kind', 'source', 'sourceUrl', 'url_zh', 'url_en', 'title_zh', 'title_en', 'notes_zh', 'notes_en', 'model', 'author', 'date', 'year', 'format', 'promptCategory', 'prompt', 'mediaStatus', 'media', 'thumbnail', 'citation_zh', 'citation_en', 'updated'] as const;

/** How cells are written: as the JSON has them (default), or made safe for spreadsheets. */
export interface CsvOptions {
  /**
   * Prefix cells that a spreadsheet would run as a formula (starting with =, +, -, @, tab or
   * carriage return) with an apostrophe. This changes values, so it is asked for explicitly.
   */
  neutralizeFormulas?: boolean;
}

/** Cells a spreadsheet would run as a formula start with one of these. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One RFC 4180 field: quoted when it holds a comma, quote or line break, quotes doubled. */
export function csvField(value: string, options: CsvOptions = {}): string {
  const cell = options.neutralizeFormulas && FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** One CRLF-terminated CSV line of cells. */
export function csvLine(cells: readonly string[], options: CsvOptions = {}): string {
  return `${cells.map((cell) => csvField(cell, options)).join(',')}\r\n`;
}

/** A value as a cell: absent and null become empty, media become their URLs separated by spaces. */
function cellOf(record: LocalizedRecord, column: keyof LocalizedRecord): string {
  if (column === 'media') return record.media.map((media) => media.url).join(' ');
  const value = record[column];
  return value === undefined || value === null ? '' : String(value);
}

/** The header line, CRLF-terminated. */
export function csvHeader(): string {
  return csvLine(CSV_COLUMNS);
}

/** One record as a CRLF-terminated CSV line. */
export function csvRow(record: LocalizedRecord, options: CsvOptions = {}): string {
  return csvLine(
    CSV_COLUMNS.map((column) => cellOf(record, column)),
    options,
  );
}

/** The bilingual header line. */
export function bilingualCsvHeader(): string {
  return csvLine(BILINGUAL_CSV_COLUMNS);
}

/** One record in both languages as one CSV line: each localized column as that language's record has it. */
export function bilingualCsvRow(zh: LocalizedRecord, en: LocalizedRecord, options: CsvOptions = {}): string {
  const cells = BILINGUAL_CSV_COLUMNS.map((column) => {
    const localized = /^(.+)_(zh|en)$/.exec(column);
    if (localized) return cellOf(localized[2] === 'zh' ? zh : en, localized[1] as keyof LocalizedRecord);
    return cellOf(en, column as keyof LocalizedRecord);
  });
  return csvLine(cells, options);
}
