import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import type { RecordFate, RecordStore } from '../domain/ports.ts';
import { loadRetiredIds } from '../domain/record-fates.ts';
import { cleanRecordText } from '../domain/localize.ts';
import { CATALOG_VERSION, isCalendarDate } from '../domain/record.ts';
import type { CanonicalRecord, StoredRecord } from '../domain/record.ts';
import { compile, describeErrors } from '../validation/schemas.ts';
import { CatalogSyntaxError, scanCatalogFile } from './catalog-stream.ts';
import type { CatalogEnvelope } from './catalog-stream.ts';
import { isPreparedRecordWriter } from '../store/sqlite/prepared-record.ts';
import { PreparedBatches } from './prepared-batches.ts';
import { CatalogFileError } from './catalog-file-error.ts';
import { importDateFloor, notEarlierThan } from './import-date.ts';
import canonicalRecordSchema from '../../schemas/canonical-record.schema.json' with { type: 'json' };
import catalogSchema from '../../schemas/catalog.schema.json' with { type: 'json' };

// In a module of its own so prepared-batches.ts, which this one imports, can throw it too; offered here with the rest.
export { CatalogFileError } from './catalog-file-error.ts';

/** A catalog file: version 1.0, its compilation date and canonical records. */
export interface CatalogFile {
  version: typeof CATALOG_VERSION;
  updated: string;
  total?: number;
  records: CanonicalRecord[];
}

const validateRecord = compile<CanonicalRecord>(canonicalRecordSchema);
const validateEnvelope = compile<CatalogFile>({ ...catalogSchema, $id: 'catalog-envelope.schema.json', properties: { ...catalogSchema.properties, records: { type: 'array' } } });

/**
 * Checks records one at a time (schema, calendar date, no id or source URL twice), remembering
 * every problem; the memory it keeps is the ids and source URLs seen, not the records.
 */
class RecordChecker {
  readonly problems: string[] = [];
  private readonly ids = new Set<string>();
  private readonly sources = new Set<string>();

  /** `sourceKeys`: the keys of the target store's source table, when a record may name no other. */
  constructor(private readonly sourceKeys?: readonly string[]) {}

  check(record: unknown, index: number): record is CanonicalRecord {
    if (!validateRecord(record)) {
      for (const error of describeErrors(validateRecord.errors, [], 'field', `records[${index}]`)) this.problems.push(`${error.field}: ${error.message}`);
      return false;
    }
    const before = this.problems.length;
    for (const field of textsLeftEmpty(record)) this.problems.push(`records[${index}].${field}: must not be blank (it holds only control, zero-width or direction characters)`);
    if (!isCalendarDate(record.date)) this.problems.push(`records[${index}].date: ${record.date} is not a calendar date`);
    if (this.ids.has(record.id)) this.problems.push(`records[${index}].id: ${record.id} appears twice`);
    if (this.sourceKeys && !this.sourceKeys.includes(record.source)) {
      this.problems.push(`records[${index}].source: ${record.source} is not a source of this archive (one of: ${this.sourceKeys.join(', ')}; add it first with npm run sources -- add)`);
    }
    const sourceKey = `${record.sourceUrl}\n${record.kind}`;
    if (this.sources.has(sourceKey)) this.problems.push(`records[${index}].sourceUrl: ${record.sourceUrl} appears twice as ${record.kind}`);
    this.ids.add(record.id);
    this.sources.add(sourceKey);
    return this.problems.length === before;
  }
}

/** The required texts of a record that cleaning would leave empty (they hold only characters cleanText removes). */
function textsLeftEmpty(record: CanonicalRecord): string[] {
  const cleaned = cleanRecordText(record);
  const texts: [string, string][] = [['model', cleaned.model], ['author', cleaned.author], ['title.zh', cleaned.title.zh], ['title.en', cleaned.title.en], ['notes.zh', cleaned.notes.zh], ['notes.en', cleaned.notes.en], ['promptCategory', cleaned.promptCategory]];
  return texts.flatMap(([field, text]) => (text === '' ? [field] : []));
}

/** The problems of a catalog's top-level fields (records aside). */
function envelopeProblems(envelope: unknown): string[] {
  if (!validateEnvelope(envelope)) return describeErrors(validateEnvelope.errors, [], 'field').map((e) => `${e.field}: ${e.message}`);
  return isCalendarDate(envelope.updated) ? [] : [`updated: ${envelope.updated} is not a calendar date`];
}

/**
 * Checks a parsed catalog file and returns its records, each carrying the catalog's compilation
 * date, their texts cleaned of invisible characters (cleanRecordText) as every import stores them. With `sourceKeys` (the target store's source table), a record naming another source is a problem.
 */
export function checkCatalog(input: unknown, sourceKeys?: readonly string[]): CatalogFile {
  const envelope = envelopeProblems(input);
  if (envelope.length) throw new CatalogFileError(envelope);
  const catalog = input as CatalogFile;
  const checker = new RecordChecker(sourceKeys);
  catalog.records.forEach((record, index) => checker.check(record, index));
  if (checker.problems.length) throw new CatalogFileError(checker.problems);
  return { ...catalog, records: catalog.records.map((record) => ({ ...cleanRecordText(record), updated: catalog.updated })) };
}

/** Reads and checks a whole catalog file in memory (small files; importCatalogFile streams). */
export async function readCatalogFile(path: string): Promise<CatalogFile> {
  return checkCatalog(JSON.parse(await readFile(path, 'utf8')));
}

/** Imports a checked catalog in batches, dated as importDateFloor says; returns the number of records written. */
export async function importCatalog(store: RecordStore, catalog: CatalogFile, { batchSize = IMPORT_BATCH, now = new Date() }: { batchSize?: number; now?: Date } = {}): Promise<number> {
  const updated = notEarlierThan(catalog.updated, await importDateFloor(store, now));
  for (let start = 0; start < catalog.records.length; start += batchSize) {
    await store.putRecords(catalog.records.slice(start, start + batchSize).map((record) => ({ ...record, updated })));
  }
  await store.setCatalogUpdated(updated);
  return catalog.records.length;
}

/** Records written per store call during an import. */
const IMPORT_BATCH = 20_000;

/** How a catalog file is imported. */
export interface ImportOptions {
  /** Records written per store call. */
  batchSize?: number;
  /** The keys of the target store's source table: a record naming another source is a problem. */
  sourceKeys?: readonly string[];
  /** When the import happens (now when left out), for importDateFloor. */
  now?: Date;
}

/** What an import did: the records it wrote, and the ids of the file it left retired. */
export interface ImportReport {
  /** Records written. */
  written: number;
  /** Ids the archive withdrew (a takedown): not brought back. */
  withdrawn: string[];
  /** Ids that moved to another record holding their work: not written again, which would archive the work twice. */
  moved: string[];
  /** The compilation date the records were written with: the file's, or the import's day (importDateFloor). */
  updated: string;
}

/** Lets through the records whose id the archive never retired, and remembers the others' ids. */
class RetiredIdFilter {
  readonly withdrawn: string[] = [];
  readonly moved: string[] = [];

  constructor(private readonly retired: ReadonlyMap<string, RecordFate['status']>) {}

  /** Whether the record with this id may be written. */
  admits(id: string): boolean {
    const status = this.retired.get(id);
    if (status === undefined) return true;
    (status === 'withdrawn' ? this.withdrawn : this.moved).push(id);
    return false;
  }
}

/**
 * Imports a catalog file of any size in flat memory, in two passes over the file: the first checks
 * every record (and names every problem, writing nothing when there is one), the second writes
 * them in batches. Into the embedded store, a worker thread makes the second pass and prepares
 * each batch while the store writes the one before, the first one while this thread checks the
 * file. A record whose id the archive retired (withdrawn or moved) is not written: an older
 * export must not undo a takedown, nor archive a moved work a second time.
 */
export async function importCatalogFile(store: RecordStore, path: string, { batchSize = IMPORT_BATCH, sourceKeys, now = new Date() }: ImportOptions = {}): Promise<ImportReport> {
  const dateFloor = await importDateFloor(store, now);
  // Started first: the worker loads its modules and prepares the first batch while this thread checks the file.
  const prepared = isPreparedRecordWriter(store)
    ? { writer: store, batches: new PreparedBatches({ path, batchSize, chunkSize: PREPARED_CHUNK, withIndex: store.indexesRecords, ahead: Math.ceil(batchSize / PREPARED_CHUNK), dateFloor }) }
    : undefined;
  try {
    const retired = new RetiredIdFilter(await loadRetiredIds(store));
    const fileDate = await checkCatalogFile(path, sourceKeys);
    const updated = notEarlierThan(fileDate, dateFloor);
    const admits = (id: string): boolean => retired.admits(id);
    const read = prepared ? await prepared.batches.writeAll({ file: fileDate, records: updated }, admits, (batch) => prepared.writer.putPreparedRecords(batch)) : await writeCatalogFile(store, path, updated, batchSize, admits);
    const written = read - retired.withdrawn.length - retired.moved.length;
    prepared?.writer.finishBulkWrite(written);
    await store.setCatalogUpdated(updated);
    return { written, withdrawn: retired.withdrawn, moved: retired.moved, updated };
  } finally {
    await prepared?.batches.stop();
  }
}

/** The first pass of an import: checks every record of the file; returns the catalog's date. */
async function checkCatalogFile(path: string, sourceKeys: readonly string[] | undefined): Promise<string> {
  const checker = new RecordChecker(sourceKeys);
  let head: CatalogEnvelope;
  try {
    head = await scanCatalogFile(path, (record, index) => {
      if (checker.problems.length < MAX_PROBLEMS) checker.check(record, index);
    });
  } catch (error) {
    if (error instanceof CatalogSyntaxError) throw new CatalogFileError([`not a catalog file: ${error.message}`]);
    throw error;
  }
  const problems = [...envelopeProblems({ ...head.fields, ...(head.hasRecords ? { records: [] } : {}) }), ...checker.problems];
  if (typeof head.fields.total === 'number' && head.fields.total !== head.records) problems.push(`total: the file says ${head.fields.total} records and holds ${head.records}`);
  if (problems.length) throw new CatalogFileError(problems);
  return head.fields.updated as string;
}

/** The second pass of an import into any store, in this thread: writes the checked records it admits in batches; returns the number read. */
async function writeCatalogFile(store: RecordStore, path: string, updated: string, batchSize: number, admits: (id: string) => boolean): Promise<number> {
  let batch: CanonicalRecord[] = [];
  const { records } = await scanCatalogFile(path, async (record) => {
    if (!admits((record as CanonicalRecord).id)) return;
    batch.push({ ...cleanRecordText(record as CanonicalRecord), updated });
    if (batch.length < batchSize) return;
    const full = batch;
    batch = [];
    await store.putRecords(full);
  });
  if (batch.length) await store.putRecords(batch);
  return records;
}

/** Records the worker thread posts at a time; it keeps at most a batch's worth of them ahead of the writer. */
const PREPARED_CHUNK = 1000;

/** Problems listed before the check stops looking at more records. */
const MAX_PROBLEMS = 1000;

/** The catalog-file form of a stored record: canonical fields in a fixed order, no change number. */
export function toCatalogRecord(record: StoredRecord | CanonicalRecord): CanonicalRecord {
  const { seq: _seq, ...canonical } = record as StoredRecord;
  return canonical;
}

/** Writes the whole store as a catalog file, streaming records so memory stays flat. */
export async function exportCatalog(store: RecordStore, path: string): Promise<number> {
  const state = await store.catalogState();
  const out = createWriteStream(path, { encoding: 'utf8' });
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`{"version":${JSON.stringify(CATALOG_VERSION)},"updated":${JSON.stringify(state.updated ?? new Date().toISOString().slice(0, 10))},"total":${state.total},"records":[`);
  let count = 0;
  for await (const record of store.streamRecords()) {
    await write(`${count === 0 ? '\n' : ',\n'}${JSON.stringify(toCatalogRecord(record))}`);
    count += 1;
  }
  await write('\n]}\n');
  out.end();
  await once(out, 'finish');
  return count;
}
