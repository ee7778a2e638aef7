import { localizeRecord } from '../domain/localize.ts';
import type { RecordStore } from '../domain/ports.ts';
import { CATALOG_VERSION } from '../domain/record.ts';
import type { Lang } from '../domain/record.ts';
import { bilingualCsvHeader, bilingualCsvRow, csvHeader, csvRow } from './csv.ts';
import type { CsvOptions } from './csv.ts';
import { exportJson } from './json-text.ts';

/** How a CSV export is written for its reader. */
export interface CsvExportOptions extends CsvOptions {
  /** Start with a UTF-8 byte-order mark (Excel reads UTF-8 only after one). */
  byteOrderMark?: boolean;
}

/** One public export file: its address, language (or both) and format. */
export interface PublicExport {
  path: string;
  lang: Lang | 'bilingual';
  format: 'json' | 'ndjson' | 'csv';
}

/** Every public export file. */
export const PUBLIC_EXPORTS: readonly PublicExport[] = [
  { path: '/data/catalog.json', lang: 'zh', format: 'json' },
  { path: '/data/catalog.csv', lang: 'zh', format: 'csv' },
  { path: '/data/catalog.ndjson', lang: 'zh', format: 'ndjson' },
  { path: '/en/data/catalog.json', lang: 'en', format: 'json' },
  { path: '/en/data/catalog.csv', lang: 'en', format: 'csv' },
  { path: '/en/data/catalog.ndjson', lang: 'en', format: 'ndjson' },
  { path: '/data/catalog.bilingual.csv', lang: 'bilingual', format: 'csv' },
];

const CHUNK_CHARACTERS = 65536;

/** Joins lines into chunks of about 64 KB, so a stream is written in few large pieces. */
async function* chunked(lines: AsyncIterable<string>, first = ''): AsyncGenerator<string> {
  let chunk = first;
  for await (const line of lines) {
    chunk += line;
    if (chunk.length > CHUNK_CHARACTERS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/**
 * The public catalog in one language as JSON: version, compilation date, every record (the same
 * object the API returns) and the total. Streamed from the store in batches, so memory stays flat;
 * the total comes last and always equals the number of items written.
 */
export async function* catalogJson(store: RecordStore, lang: Lang, baseUrl: string): AsyncGenerator<string> {
  const state = await store.catalogState();
  let total = 0;
  async function* items(): AsyncGenerator<string> {
    for await (const record of store.streamRecords()) {
      yield `${total === 0 ? '\n' : ',\n'}${exportJson(localizeRecord(record, lang, baseUrl))}`;
      total += 1;
    }
  }
  yield* chunked(items(), `{"version":${JSON.stringify(CATALOG_VERSION)},"updated":${JSON.stringify(state.updated)},"items":[`);
  yield `\n],"total":${total}}\n`;
}

/** The public catalog in one language as NDJSON: one record (the API's object) per line. */
export async function* catalogNdjson(store: RecordStore, lang: Lang, baseUrl: string): AsyncGenerator<string> {
  async function* lines(): AsyncGenerator<string> {
    for await (const record of store.streamRecords()) yield `${exportJson(localizeRecord(record, lang, baseUrl))}\n`;
  }
  yield* chunked(lines());
}

/** The public catalog in one language as RFC 4180 CSV with a header row. */
export async function* catalogCsv(store: RecordStore, lang: Lang, baseUrl: string, options: CsvExportOptions = {}): AsyncGenerator<string> {
  async function* lines(): AsyncGenerator<string> {
    for await (const record of store.streamRecords()) yield csvRow(localizeRecord(record, lang, baseUrl), options);
  }
  yield* chunked(lines(), `${options.byteOrderMark ? '\ufeff' : ''}${csvHeader()}`);
}

/** The public catalog as one CSV in both languages: title, notes, url and citation per language in one row. */
export async function* catalogBilingualCsv(store: RecordStore, baseUrl: string, options: CsvExportOptions = {}): AsyncGenerator<string> {
  async function* lines(): AsyncGenerator<string> {
    for await (const record of store.streamRecords()) yield bilingualCsvRow(localizeRecord(record, 'zh', baseUrl), localizeRecord(record, 'en', baseUrl), options);
  }
  yield* chunked(lines(), `${options.byteOrderMark ? '\ufeff' : ''}${bilingualCsvHeader()}`);
}
