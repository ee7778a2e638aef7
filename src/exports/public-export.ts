import { localizeRecord } from '../domain/localize.ts';
import type { RecordStore } from '../domain/ports.ts';
import { CATALOG_VERSION } from '../domain/record.ts';
import type { Lang } from '../domain/record.ts';
import { csvHeader, csvRow } from './csv.ts';

/**
 * The public catalog in one language as JSON: version, compilation date, every record (the same
 * object the API returns) and the total. Streamed from the store in batches, so memory stays flat;
 * the total comes last and always equals the number of items written.
 */
export async function* catalogJson(store: RecordStore, lang: Lang, baseUrl: string): AsyncGenerator<string> {
  const state = await store.catalogState();
  yield `{"version":${JSON.stringify(CATALOG_VERSION)},"updated":${JSON.stringify(state.updated)},"items":[`;
  let total = 0;
  let chunk = '';
  for await (const record of store.streamRecords()) {
    chunk += `${total === 0 ? '\n' : ',\n'}${JSON.stringify(localizeRecord(record, lang, baseUrl))}`;
    total += 1;
    if (chunk.length > 65536) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}\n],"total":${total}}\n`;
}

/** The public catalog in one language as RFC 4180 CSV with a header row, optionally after a byte-order mark. */
export async function* catalogCsv(store: RecordStore, lang: Lang, baseUrl: string, byteOrderMark: boolean): AsyncGenerator<string> {
  let chunk = `${byteOrderMark ? '\ufeff' : ''}${csvHeader()}`;
  for await (const record of store.streamRecords()) {
    chunk += csvRow(localizeRecord(record, lang, baseUrl));
    if (chunk.length > 65536) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}
