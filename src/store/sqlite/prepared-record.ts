/**
 * A record made ready for the embedded store's write ahead of it, in plain strings: its JSON, its
 * key columns and its search-index row. The store prepares the records of each write this way;
 * a catalog import prepares them in a worker thread while the store writes the previous batch.
 */
import type { CanonicalRecord, StoredRecord } from '../../domain/record.ts';
import { workKey } from '../../domain/sources.ts';
import { facetValueKey } from '../../domain/search-query.ts';
import { indexRow } from '../../search/sqlite/index-row.ts';
import type { IndexRow } from '../../search/sqlite/index-row.ts';
import { SEARCH_COLUMNS } from './schema.ts';

export interface PreparedRecord {
  /** The canonical record as stored in `records.doc` (no change number). */
  doc: string;
  /** The `records` key columns: id, kind, source, format, date, source URL, model, work key, model key. */
  columns: [string, string, string, string, string, string, string, string, string];
  /** Its row in the embedded search index, when the store writes one. */
  index?: IndexRow;
}

/** A store that writes prepared records (the embedded store). */
export interface PreparedRecordWriter {
  /** Whether prepared records must carry their search-index row (the store writes an embedded index). */
  readonly indexesRecords: boolean;
  /** putRecords for prepared records: the same write, change numbers and index rows. */
  putPreparedRecords(records: readonly PreparedRecord[]): void;
  /** Tells the store a bulk write of this many records (a catalog import) is over, so it can settle its index. */
  finishBulkWrite(written: number): void;
}

/** Whether a store takes prepared records. */
export function isPreparedRecordWriter(store: object): store is PreparedRecordWriter {
  return typeof (store as Partial<PreparedRecordWriter>).putPreparedRecords === 'function';
}

export function prepareRecord(record: CanonicalRecord, withIndex: boolean): PreparedRecord {
  const { seq: _ignored, ...canonical } = record as StoredRecord;
  return {
    doc: JSON.stringify(canonical),
    columns: [record.id, record.kind, record.source, record.format, record.date, record.sourceUrl, record.model, workKey(record.sourceUrl), facetValueKey(record.model)],
    ...(withIndex ? { index: indexRow(canonical) } : {}),
  };
}

/**
 * Prepared records packed for a move to another thread: their strings end to end in one string,
 * with each one's length. Copying one long string costs a fraction of copying a thousand small
 * objects, and taking a slice of it is cheap.
 */
export interface PackedRecords {
  text: string;
  lengths: Int32Array;
  withIndex: boolean;
}

export function packRecords(records: readonly PreparedRecord[], withIndex: boolean): PackedRecords {
  const strings: string[] = [];
  for (const { doc, columns, index } of records) {
    strings.push(doc, ...columns);
    if (withIndex) {
      if (!index) throw new Error('a prepared record lacks its search-index row');
      strings.push(index.id, index.date, ...index.text, ...index.keys);
    }
  }
  return { text: strings.join(''), lengths: Int32Array.from(strings, (value) => value.length), withIndex };
}

export function unpackRecords({ text, lengths, withIndex }: PackedRecords): PreparedRecord[] {
  let at = 0;
  let next = 0;
  const take = (): string => {
    const length = lengths[next] ?? 0;
    next += 1;
    at += length;
    return text.slice(at - length, at);
  };
  const records: PreparedRecord[] = [];
  while (next < lengths.length) {
    const doc = take();
    const columns: PreparedRecord['columns'] = [take(), take(), take(), take(), take(), take(), take(), take(), take()];
    if (!withIndex) {
      records.push({ doc, columns });
      continue;
    }
    const id = take();
    const date = take();
    const rowText = Array.from({ length: SEARCH_COLUMNS.length }, take);
    records.push({ doc, columns, index: { id, date, text: rowText, keys: [take(), take(), take(), take(), take(), take()] } });
  }
  return records;
}
