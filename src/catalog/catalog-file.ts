import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import type { RecordStore } from '../domain/ports.ts';
import { CATALOG_VERSION, isCalendarDate } from '../domain/record.ts';
import type { CanonicalRecord, StoredRecord } from '../domain/record.ts';
import { compile, describeErrors } from '../validation/schemas.ts';
import canonicalRecordSchema from '../../schemas/canonical-record.schema.json' with { type: 'json' };
import catalogSchema from '../../schemas/catalog.schema.json' with { type: 'json' };

/** A catalog file: version 1.0, its compilation date and canonical records. */
export interface CatalogFile {
  version: typeof CATALOG_VERSION;
  updated: string;
  total?: number;
  records: CanonicalRecord[];
}

const validateRecord = compile<CanonicalRecord>(canonicalRecordSchema);
const validateEnvelope = compile<CatalogFile>({ ...catalogSchema, $id: 'catalog-envelope.schema.json', properties: { ...catalogSchema.properties, records: { type: 'array' } } });

export class CatalogFileError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid catalog file:\n- ${problems.slice(0, 20).join('\n- ')}${problems.length > 20 ? `\n- … and ${problems.length - 20} more` : ''}`);
    this.name = 'CatalogFileError';
  }
}

/** Checks a parsed catalog file and returns its records, each carrying the catalog's compilation date. */
export function checkCatalog(input: unknown): CatalogFile {
  if (!validateEnvelope(input)) throw new CatalogFileError(describeErrors(validateEnvelope.errors, [], 'field').map((e) => `${e.field}: ${e.message}`));
  const problems: string[] = [];
  if (!isCalendarDate(input.updated)) problems.push(`updated: ${input.updated} is not a calendar date`);
  const ids = new Set<string>();
  const sources = new Set<string>();
  input.records.forEach((record, index) => {
    if (!validateRecord(record)) {
      for (const error of describeErrors(validateRecord.errors, [], 'field')) problems.push(`records[${index}].${error.field}: ${error.message}`);
      return;
    }
    if (!isCalendarDate(record.date)) problems.push(`records[${index}].date: ${record.date} is not a calendar date`);
    if (ids.has(record.id)) problems.push(`records[${index}].id: ${record.id} appears twice`);
    const sourceKey = `${record.sourceUrl}\n${record.kind}`;
    if (sources.has(sourceKey)) problems.push(`records[${index}].sourceUrl: ${record.sourceUrl} appears twice as ${record.kind}`);
    ids.add(record.id);
    sources.add(sourceKey);
  });
  if (problems.length) throw new CatalogFileError(problems);
  return { ...input, records: input.records.map((record) => ({ ...record, updated: input.updated })) };
}

export async function readCatalogFile(path: string): Promise<CatalogFile> {
  return checkCatalog(JSON.parse(await readFile(path, 'utf8')));
}

/** Imports a checked catalog in batches; returns the number of records written. */
export async function importCatalog(store: RecordStore, catalog: CatalogFile, batchSize = 5000): Promise<number> {
  for (let start = 0; start < catalog.records.length; start += batchSize) {
    await store.putRecords(catalog.records.slice(start, start + batchSize));
  }
  await store.setCatalogUpdated(catalog.updated);
  return catalog.records.length;
}

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
