import type { CanonicalRecord, StoredRecord } from './record.ts';
import type { SearchHits, SearchQuery } from './search-query.ts';

/** The catalog as a whole: version, compilation date, change number and size. */
export interface CatalogState {
  version: string;
  /** Compilation date of the catalog (YYYY-MM-DD), or null while it is empty. */
  updated: string | null;
  /** Highest change number written so far; changes whenever any record does. */
  changeNumber: number;
  total: number;
}

/** Canonical storage of records. Implemented by the embedded (SQLite) and MongoDB adapters. */
export interface RecordStore {
  /** Inserts or replaces records by id, each getting a new change number. */
  putRecords(records: readonly CanonicalRecord[]): Promise<void>;
  /** Removes records by id; unknown ids are ignored. */
  deleteRecords(ids: readonly string[]): Promise<void>;
  getRecord(id: string): Promise<StoredRecord | undefined>;
  /** The records with these ids, in the order asked; unknown ids are left out. */
  getRecords(ids: readonly string[]): Promise<StoredRecord[]>;
  /** Every record in id order, read in batches so memory stays flat. */
  streamRecords(batchSize?: number): AsyncIterable<StoredRecord>;
  /** Records changed after a change number, in change order (the change feed). */
  changesSince(changeNumber: number, limit: number): Promise<StoredRecord[]>;
  catalogState(): Promise<CatalogState>;
  /** Records the catalog compilation date. */
  setCatalogUpdated(date: string): Promise<void>;
  /** Throws when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Full-text search over localized records. Implemented by the embedded (FTS5) and Meilisearch adapters. */
export interface SearchIndex {
  /** Indexes records in both languages, replacing earlier versions with the same id. */
  upsert(records: readonly CanonicalRecord[]): Promise<void>;
  remove(ids: readonly string[]): Promise<void>;
  search(query: SearchQuery): Promise<SearchHits>;
  /** Number of indexed records. */
  count(): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
