/**
 * How records, submissions and tokens look as MongoDB documents, and back. Pure functions: the
 * adapters do the I/O. Records keep their canonical field names, so a document reads like the
 * catalog; `_id` is left to MongoDB for records and is the natural key elsewhere.
 */
import type { CanonicalRecord, StoredRecord } from '../../domain/record.ts';
import type { RecordFate, RecordWithdrawal, RefusedItem } from '../../domain/ports.ts';
import { workKey } from '../../domain/sources.ts';
import { facetValueKey } from '../../domain/search-query.ts';
import type { SourceDefinition } from '../../domain/sources.ts';
import type { ReviewDecision, Submission, SubmissionRecord, SubmissionStatus, TokenRecord, TokenScope } from '../../domain/submission.ts';

/**
 * A record as stored: its canonical fields plus the change number, its work key, by which the
 * duplicate check finds it (sources.ts workKey), and its model key, by which the timeline rule
 * groups a label's records (search-query.ts facetValueKey); documents written before either key
 * existed get it when a process that creates the indexes starts, see MongoArchiveDatabase.
 */
export type RecordDocument = StoredRecord & { workKey: string; modelKey?: string };

/** A removal kept in the change feed. */
export interface RemovalDocument {
  seq: number;
  id: string;
}

/** The catalog's counters: one document, updated in the transaction of every record write. */
export interface CatalogCounterDocument {
  _id: 'catalog';
  changeNumber: number;
  /** CatalogState.changeStamp: written with every change number; absent until the first since it was kept. */
  changeStamp?: string;
  total: number;
}

/** The catalog compilation date, kept apart from the counter so setting it never contends with writes. */
export interface CatalogDateDocument {
  _id: 'catalog-updated';
  updated: string;
}

export interface CheckpointDocument {
  _id: string;
  changeNumber: number;
  /** For the index sync's checkpoint: the document mapping version the index was written with (RecordStore.readMappingVersion). */
  mappingVersion?: number;
}

export interface SubmissionDocument {
  _id: string;
  tokenName: string;
  status: SubmissionStatus;
  submission: Submission;
  submittedAt: string;
  updatedAt: string;
  attempts: number;
  /** Milliseconds since the epoch from which the submission may be claimed. */
  dueAt: number;
  /** The claiming process, for people reading the queue. */
  leaseOwner: string | null;
  /** The current claim's random token, named in the filter of every update of that claim. */
  leaseToken: string | null;
  /** Milliseconds since the epoch, by the database's clock, at which the current claim lapses. */
  leaseUntil: number | null;
  checks: SubmissionRecord['checks'];
  recordIds: string[];
  duplicateOf: string | null;
  reason: string | null;
  /** Absent in documents written before reviews existed. */
  reviews?: ReviewDecision[];
  batchId?: string | null;
}

export interface BatchDocument {
  _id: string;
  tokenName: string;
  submittedAt: string;
  items: { index: number; submissionId: string }[];
  refused: RefusedItem[];
}

export interface IdempotencyKeyDocument {
  tokenName: string;
  key: string;
  requestSha256: string;
  /** The submissions the first request created, in order. */
  submissionIds?: string[];
  batchId?: string | null;
  /** The first answer's text, in keys written before the ids were kept instead (read for 24 hours after an upgrade). */
  body?: string;
  /** A BSON date, so a TTL index can drop the key after 24 hours. */
  createdAt: Date;
}

/** The submission ids an idempotency key stands for. */
export function idempotentSubmissionIds(document: IdempotencyKeyDocument): string[] {
  if (document.submissionIds) return document.submissionIds;
  const first = JSON.parse(document.body ?? '{}') as { submissionId?: string; items?: { submissionId?: string }[] };
  return first.items ? first.items.flatMap((item) => (item.submissionId ? [item.submissionId] : [])) : first.submissionId ? [first.submissionId] : [];
}

/** What became of a retired record id (`_id`). */
export interface RecordFateDocument {
  _id: string;
  movedTo: string | null;
  reason: string;
  at: string;
  sourceUrl: string;
  title: { zh: string; en: string };
  /** The work key of sourceUrl (sources.ts workKey), so a withdrawal is found by work; given to older documents at start. */
  workKey?: string;
}

export function fromRecordFateDocument(document: RecordFateDocument): RecordFate {
  if (document.movedTo) return { id: document._id, status: 'moved', movedTo: document.movedTo, reason: document.reason, at: document.at };
  return fromWithdrawnFateDocument(document);
}

/** A fate document read as a withdrawal (the caller asked for documents without movedTo). */
export function fromWithdrawnFateDocument(document: RecordFateDocument): RecordWithdrawal {
  return { id: document._id, status: 'withdrawn', reason: document.reason, at: document.at, sourceUrl: document.sourceUrl, title: document.title };
}

/** A source of the source table, by key. */
export interface SourceDocument {
  _id: string;
  definition: SourceDefinition;
}

export interface TokenDocument {
  name: string;
  secretSha256: string;
  scopes: TokenScope[];
  createdAt: string;
  revokedAt: string | null;
}

/** Copies a plain value, leaving out keys whose value is undefined (BSON would store them as null). */
function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => withoutUndefined(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined) copy[key] = withoutUndefined(field);
  return copy as T;
}

/** The document for a record written with change number `seq`; a seq the record carried is replaced. */
export function toRecordDocument(record: CanonicalRecord, seq: number): RecordDocument {
  const { seq: _earlier, ...canonical } = record as CanonicalRecord & { seq?: number };
  return { ...withoutUndefined(canonical), seq, workKey: workKey(canonical.sourceUrl), modelKey: facetValueKey(canonical.model) };
}

/** The stored record for a document as MongoDB returns it (with `_id`). */
export function fromRecordDocument(document: RecordDocument & { _id?: unknown }): StoredRecord {
  const { _id: _objectId, workKey: _key, modelKey: _modelKey, ...record } = document;
  return record;
}

/** A new, queued submission. */
export function newSubmissionDocument(id: string, tokenName: string, submission: Submission, now: number, batchId: string | null = null): SubmissionDocument {
  const iso = new Date(now).toISOString();
  return {
    _id: id,
    tokenName,
    status: 'queued',
    submission: withoutUndefined(submission),
    submittedAt: iso,
    updatedAt: iso,
    attempts: 0,
    dueAt: now,
    leaseOwner: null,
    leaseToken: null,
    leaseUntil: null,
    checks: [],
    recordIds: [],
    duplicateOf: null,
    reason: null,
    reviews: [],
    batchId,
  };
}

export function fromSubmissionDocument(document: SubmissionDocument): SubmissionRecord {
  return {
    submissionId: document._id,
    tokenName: document.tokenName,
    status: document.status,
    submission: document.submission,
    submittedAt: document.submittedAt,
    updatedAt: document.updatedAt,
    attempts: document.attempts,
    checks: document.checks,
    recordIds: document.recordIds,
    duplicateOf: document.duplicateOf,
    reason: document.reason,
    reviews: document.reviews ?? [],
    batchId: document.batchId ?? null,
  };
}

export function fromTokenDocument(document: TokenDocument): TokenRecord {
  return { name: document.name, scopes: [...document.scopes], createdAt: document.createdAt, revokedAt: document.revokedAt };
}
