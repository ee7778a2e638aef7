import { localizeRecord } from '../domain/localize.ts';
import type { RecordStore, SubmissionQueue } from '../domain/ports.ts';
import { CATALOG_VERSION } from '../domain/record.ts';
import type { Lang, StoredRecord } from '../domain/record.ts';
import type { ReviewDecision, SubmissionRecord } from '../domain/submission.ts';
import { CSV_COLUMNS, csvLine, csvRow } from './csv.ts';
import type { CsvOptions } from './csv.ts';
import type { CsvExportOptions } from './public-export.ts';
import { exportJson } from './json-text.ts';

export type ExportFormat = 'json' | 'ndjson' | 'csv';
export type ExportLang = Lang | 'all';

/** A record's submission history as the authenticated export shows it: never a token or its hash. */
export interface SubmissionHistory {
  submissionId: string;
  submittedBy: string;
  status: string;
  submittedAt: string;
  updatedAt: string;
  attempts: number;
  checks: SubmissionRecord['checks'];
  /** Every maintainer decision on the submission, oldest first. */
  reviews: ReviewDecision[];
}

function history(record: SubmissionRecord | undefined): SubmissionHistory | null {
  if (!record) return null;
  return { submissionId: record.submissionId, submittedBy: record.tokenName, status: record.status, submittedAt: record.submittedAt, updatedAt: record.updatedAt, attempts: record.attempts, checks: record.checks, reviews: record.reviews };
}

/** A review decision as the JSON export lists it after the records, with the submission it was taken on. */
export interface ExportedDecision extends ReviewDecision {
  submissionId: string;
  submittedBy: string;
  /** The submission's status now (rejected, or published after an approval …). */
  status: string;
}

/** Every review decision on any submission (rejections have no record to carry them), newest submission first. */
async function* reviewDecisions(submissions: SubmissionQueue): AsyncGenerator<ExportedDecision> {
  let before: { submittedAt: string; submissionId: string } | undefined;
  for (;;) {
    const page = await submissions.listSubmissions({ limit: 500, ...(before ? { before } : {}) });
    for (const record of page) for (const decision of record.reviews) yield { submissionId: record.submissionId, submittedBy: record.tokenName, status: record.status, ...decision };
    const last = page.at(-1);
    if (!last || page.length < 500) return;
    before = { submittedAt: last.submittedAt, submissionId: last.submissionId };
  }
}

/** How many records' submissions the export reads in one call (one round trip on MongoDB). */
const SUBMISSIONS_READ_AT_ONCE = 256;

/**
 * The records of a stream, each with the submissions of its batch: read SUBMISSIONS_READ_AT_ONCE
 * records at a time with one getSubmissions call. Until 2026-11-26 each record's submission was
 * read on its own, a round trip per record on MongoDB.
 */
async function* withSubmissions(records: AsyncIterable<StoredRecord>, submissions: SubmissionQueue): AsyncGenerator<{ record: StoredRecord; submissionOf: ReadonlyMap<string, SubmissionRecord> }> {
  let batch: StoredRecord[] = [];
  for await (const record of records) {
    batch.push(record);
    if (batch.length < SUBMISSIONS_READ_AT_ONCE) continue;
    yield* withTheirSubmissions(batch, submissions);
    batch = [];
  }
  yield* withTheirSubmissions(batch, submissions);
}

/** A batch of records, each with a map of the batch's submissions by id, read in one call. */
async function* withTheirSubmissions(batch: readonly StoredRecord[], submissions: SubmissionQueue): AsyncGenerator<{ record: StoredRecord; submissionOf: ReadonlyMap<string, SubmissionRecord> }> {
  const ids = [...new Set(batch.flatMap((record) => (record.submissionId ? [record.submissionId] : [])))];
  const submissionOf = new Map((ids.length ? await submissions.getSubmissions(ids) : []).map((submission) => [submission.submissionId, submission]));
  for (const record of batch) yield { record, submissionOf };
}

/** One export item: the canonical bilingual record (lang all) or the localized one, with its submission history. */
function item(record: StoredRecord, lang: ExportLang, baseUrl: string, submissionOf: ReadonlyMap<string, SubmissionRecord>): Record<string, unknown> {
  const submission = history(record.submissionId ? submissionOf.get(record.submissionId) : undefined);
  if (lang === 'all') {
    const { seq: _seq, ...canonical } = record;
    return { ...canonical, submission };
  }
  return { ...localizeRecord(record, lang, baseUrl), submission };
}

const CANONICAL_CSV_COLUMNS = ['id', 'kind', 'source', 'sourceUrl', 'date', 'model', 'author', 'format', 'title_zh', 'title_en', 'notes_zh', 'notes_en', 'prompt', 'promptCategory', 'mediaStatus', 'media', 'updated'] as const;
const SUBMISSION_CSV_COLUMNS = ['submissionId', 'submittedBy', 'submittedAt', 'submissionStatus'] as const;

function submissionCells(submission: SubmissionHistory | null): string[] {
  return submission ? [submission.submissionId, submission.submittedBy, submission.submittedAt, submission.status] : ['', '', '', ''];
}

/** The CSV header of an authenticated export in one language, or of both (lang all). */
export function fullCsvHeader(lang: ExportLang): string {
  const columns = lang === 'all' ? [...CANONICAL_CSV_COLUMNS] : [...CSV_COLUMNS];
  return `${[...columns, ...SUBMISSION_CSV_COLUMNS].join(',')}\r\n`;
}

/** One canonical (lang all) record with its submission history as a CSV line. */
export function canonicalCsvRow(row: Record<string, unknown>, options: CsvOptions = {}): string {
  const record = row as unknown as StoredRecord & { submission: SubmissionHistory | null };
  const cells = [
    record.id, record.kind, record.source, record.sourceUrl, record.date, record.model, record.author, record.format,
    record.title.zh, record.title.en, record.notes.zh, record.notes.en, record.prompt ?? '', record.promptCategory, record.mediaStatus,
    record.media.map((media) => media.path).join(' '), record.updated, ...submissionCells(record.submission),
  ];
  return csvLine(cells, options);
}

/**
 * The whole catalog for an export-scoped token: canonical bilingual records (or one language)
 * with their submission history, streamed from the store in id order.
 */
export async function* fullExport(store: RecordStore, submissions: SubmissionQueue, format: ExportFormat, lang: ExportLang, baseUrl: string, csv: CsvExportOptions = {}): AsyncGenerator<string> {
  const state = await store.catalogState();
  if (format === 'json') yield `{"version":${JSON.stringify(CATALOG_VERSION)},"updated":${JSON.stringify(state.updated)},"lang":${JSON.stringify(lang)},"items":[`;
  if (format === 'csv') yield `${csv.byteOrderMark ? '\ufeff' : ''}${fullCsvHeader(lang)}`;
  let total = 0;
  let chunk = '';
  for await (const { record, submissionOf } of withSubmissions(store.streamRecords(), submissions)) {
    const row = item(record, lang, baseUrl, submissionOf);
    if (format === 'json') chunk += `${total === 0 ? '\n' : ',\n'}${exportJson(row)}`;
    else if (format === 'ndjson') chunk += `${exportJson(row)}\n`;
    else if (lang === 'all') chunk += canonicalCsvRow(row, csv);
    else chunk += `${csvRow(row as unknown as Parameters<typeof csvRow>[0], csv).slice(0, -2)},${csvLine(submissionCells(row.submission as SubmissionHistory | null), csv)}`;
    total += 1;
    if (chunk.length > 65536) {
      yield chunk;
      chunk = '';
    }
  }
  if (format === 'json') {
    // Every review decision, rejections included (a rejected work has no record to carry its history).
    chunk += `\n],"total":${total},"decisions":[`;
    let decisions = 0;
    for await (const decision of reviewDecisions(submissions)) {
      chunk += `${decisions === 0 ? '\n' : ',\n'}${exportJson(decision)}`;
      decisions += 1;
      if (chunk.length > 65536) {
        yield chunk;
        chunk = '';
      }
    }
    chunk += `${decisions ? '\n' : ''}]}\n`;
  }
  yield chunk;
}
