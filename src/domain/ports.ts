import type { CanonicalRecord, Kind, Lang, StoredRecord } from './record.ts';
import type { SearchHits, SearchQuery } from './search-query.ts';
import type { SourceDefinition } from './sources.ts';
import type { CheckVerdict, ReviewDecision, Submission, SubmissionOutcome, SubmissionRecord, SubmissionStatus, TokenRecord, TokenScope } from './submission.ts';
import type { FieldProblem } from './field-problem.ts';

/** The catalog as a whole: version, compilation date, change number and size. */
export interface CatalogState {
  version: string;
  /** Compilation date of the catalog (YYYY-MM-DD), or null while it is empty. */
  updated: string | null;
  /** Highest change number written so far; changes whenever any record or the source table does. */
  changeNumber: number;
  /**
   * A random mark written with every change number (newChangeStamp). Change numbers count per
   * database, so another history reaches the same number (a backup restored and then written to,
   * another archive under the same address); it does so with another mark, so that a number and
   * its mark never name two states of the catalog. Empty in a store that has taken no change
   * number since it began keeping the mark.
   */
  changeStamp: string;
  total: number;
}

/** A record removed from the store, kept in the change feed so followers remove it too. */
export interface RecordRemoval {
  id: string;
  seq: number;
}

/** Where a stream of records starts and how many it reads at a time. */
export interface StreamOptions {
  /** The first id to yield (or the next one after it when no record has it); the first record when absent. */
  from?: string;
  /** Records read per query. */
  batchSize?: number;
}

/** A record's id with the change number of one version of it (null: an index entry written without one). */
export interface RecordVersion {
  id: string;
  seq: number | null;
}

/**
 * A record as a search index takes it: canonical, with the change number of this version when
 * the writer knows it, which the index keeps so its contents can be compared with the store's.
 */
export type IndexRecord = CanonicalRecord & { seq?: number };

/**
 * A record taken out of the catalog. Its id stays answered: `movedTo` names the record that now
 * holds the same work (answered 301), without it the record is withdrawn (answered 410).
 */
export interface RecordRetirement {
  id: string;
  movedTo?: string;
  /** Why, in a sentence a reader of the 301/410 answer understands. */
  reason: string;
}

/** Records to put and records to retire, written together. */
export interface RecordChanges {
  put: CanonicalRecord[];
  retire: RecordRetirement[];
}

/** What became of a published id that is no longer a record. */
export type RecordFate =
  | { id: string; status: 'moved'; movedTo: string; reason: string; at: string }
  | { id: string; status: 'withdrawn'; reason: string; at: string; sourceUrl: string; title: { zh: string; en: string } };

/** What the archive keeps of a withdrawn record. */
export type RecordWithdrawal = Extract<RecordFate, { status: 'withdrawn' }>;

/** A place in the walk of retired ids, which runs in the order of their removal: after the id retired at `at` (then by id). */
export interface FatePosition {
  at: string;
  id: string;
}

/** One page of the ids retired since a day, with how many were retired since it in all. */
export interface FatePage {
  total: number;
  fates: RecordFate[];
}

/** Records written after a change number that a write reads at most (WorkReading.changedAfter); a publisher further behind judges again first. */
export const CHANGES_READ_IN_WRITE = 256;

/** What a publication reads beside its model's records, inside the write (RecordStore.changeModelRecords). */
export interface WorkReading {
  /** The work key of its source URL (sources.ts workKey): the records of the work under every label. */
  workKey: string;
  /** Also the records written after this change number, oldest first, at most CHANGES_READ_IN_WRITE. */
  changedAfter?: number;
}

/** What a WorkReading read. */
export interface WorkRecords {
  readonly ofWork: readonly StoredRecord[];
  /** Records written after `changedAfter` (none without it). */
  readonly changed: readonly StoredRecord[];
  /** False when more were written after `changedAfter` than were read. */
  readonly changedComplete: boolean;
}

/** What changeModelRecords gives `decide` without a WorkReading. */
export const NO_WORK_RECORDS: WorkRecords = { ofWork: [], changed: [], changedComplete: true };

/**
 * A WorkReading's answer from what an adapter read: the work's records, and the records after
 * `changedAfter`, read up to one more than CHANGES_READ_IN_WRITE to tell whether more were written
 * (undefined when the reading named no `changedAfter`).
 */
export function workRecordsOf(ofWork: readonly StoredRecord[], changedRead: readonly StoredRecord[] | undefined): WorkRecords {
  if (changedRead === undefined) return { ofWork, changed: [], changedComplete: true };
  return { ofWork, changed: changedRead.slice(0, CHANGES_READ_IN_WRITE), changedComplete: changedRead.length <= CHANGES_READ_IN_WRITE };
}

/** A work with more than one record of one kind (RecordStore.sharedWorks). */
export interface SharedWork {
  kind: Kind;
  /** The work key its records share (sources.ts workKey). */
  workKey: string;
  /** Its records' ids, in id order (the first is the one the duplicate check names). */
  ids: string[];
}

/** The first works RecordStore.sharedWorks lists, and how many there are in all. */
export interface SharedWorks {
  total: number;
  works: SharedWork[];
}

/**
 * Canonical storage of records. Implemented by the embedded (SQLite) and MongoDB adapters.
 *
 * The change feed: every write takes change numbers in commit order (no number becomes visible
 * after a higher one), so `catalogState().changeNumber` read first bounds what a follower may
 * take as read: every change up to it is visible to the feed reads made after it.
 */
export interface RecordStore {
  /** Inserts or replaces records by id, each getting a new change number; an id that had moved or been withdrawn is a record again. */
  putRecords(records: readonly CanonicalRecord[]): Promise<void>;
  /** Withdraws records by id (their ids then answer 410 with the reason); unknown ids are ignored. */
  deleteRecords(ids: readonly string[], reason?: string): Promise<void>;
  /** Puts some records and retires others in one transaction: readers see both or neither. */
  replaceRecords(put: readonly CanonicalRecord[], retire: readonly RecordRetirement[]): Promise<void>;
  /** What became of an id that is not (or no longer) a record: moved or withdrawn; undefined for an id never published or live. */
  recordFate(id: string): Promise<RecordFate | undefined>;
  getRecord(id: string): Promise<StoredRecord | undefined>;
  /** The records with these ids, in the order asked; unknown ids are left out. */
  getRecords(ids: readonly string[]): Promise<StoredRecord[]>;
  /**
   * Every record in id order, read in batches so memory stays flat; with `from`, the records
   * whose id is `from` or after it, found by the id index (nothing before it is read).
   */
  streamRecords(options?: StreamOptions): AsyncIterable<StoredRecord>;
  /**
   * The first id of each page when the records are cut, in id order, into pages of `pageSize`
   * (the ids at positions 0, pageSize, 2·pageSize …). Walks the id index only, never a record.
   */
  pageStarts(pageSize: number): Promise<string[]>;
  /** The records of one kind written most recently, highest change number first (the feeds' newest works). */
  latestRecords(kind: Kind, limit: number): Promise<StoredRecord[]>;
  /** Every record's id and change number, in id order, read in batches (cheaper than streamRecords). */
  streamVersions(batchSize?: number): AsyncIterable<RecordVersion>;
  /** Records changed after a change number (and at most `upTo`), in change order (the change feed). */
  changesSince(changeNumber: number, limit: number, upTo?: number): Promise<StoredRecord[]>;
  /** Ids removed after a change number (and at most `upTo`), each with the change number of its removal, in change order. */
  removalsSince(changeNumber: number, limit: number, upTo?: number): Promise<RecordRemoval[]>;
  /** A follower's position in the change feed (e.g. the search index sync); 0 when never written. */
  readCheckpoint(name: string): Promise<number>;
  writeCheckpoint(name: string, changeNumber: number): Promise<void>;
  /**
   * The version of the document mapping (SearchIndex.mappingVersion) that the index followed under
   * this checkpoint was written with; 0 when never stored. Kept beside the checkpoint without
   * being a position: it holds no removal back from pruning.
   */
  readMappingVersion(checkpoint: string): Promise<number>;
  /** Stores the mapping version for this checkpoint unless a higher one is stored (a process of an older version never lowers it). */
  raiseMappingVersion(checkpoint: string, version: number): Promise<void>;
  /** Forgets a follower's position (a follower that is gone, or a rebuild that finished). */
  deleteCheckpoint(name: string): Promise<void>;
  /**
   * Deletes the removals numbered at most `through` that every follower has read: never one above
   * the lowest stored checkpoint. Returns how many were deleted.
   */
  pruneRemovals(through: number): Promise<number>;
  /** The catalog's state; its change number is read before, and bounds, a follower's feed reads. */
  catalogState(): Promise<CatalogState>;
  /** Every record whose model label is exactly this one, of any kind, earliest (date, then id) first. */
  findByModel(model: string): Promise<StoredRecord[]>;
  /**
   * Reads every record of a model label (as findByModel) and writes what `decide` makes of them,
   * in one transaction that no other writer of the same label interleaves with: any number of
   * processes may publish works of one model at once, and each decides on a reading no other
   * writer has changed before its commit (a writer whose reading went stale reads again and
   * decides again, so `decide` may run more than once and must depend on its arguments alone).
   * Given a WorkReading, `decide` also gets what it names, read in the same transaction: a
   * writer of the same work under another label, or of any record after `changedAfter`, is not
   * interleaved with this one. Returns the changes written.
   */
  changeModelRecords(model: string, decide: (ofModel: StoredRecord[], work: WorkRecords) => RecordChanges, reading?: WorkReading): Promise<RecordChanges>;
  /**
   * Published records, of any kind, whose source URL has this work key (sources.ts workKey: the
   * same work at its source, whatever case or share form its URL was stored in).
   */
  findByWorkKey(key: string): Promise<StoredRecord[]>;
  /**
   * The works with more than one record of one kind (two gallery records of one work key; a
   * work's gallery and timeline records are one of each): records published under two forms of
   * one address before the work key rules made them one work, or one of them by a process of an
   * earlier version still running beside a newer one (its keys by older rules, mended at the next
   * start), which the duplicate check no longer lets in (docs/duplicates.md). The first `limit` of them by work key, then kind, and how many
   * there are in all; bounded, so that a damaged store is not read out whole.
   */
  sharedWorks(limit: number): Promise<SharedWorks>;
  /**
   * The withdrawn ids (not the moved ones) whose source URL had this work key, latest withdrawal
   * first: a work taken out of the archive, which a new submission must not bring back unseen.
   */
  findWithdrawals(key: string): Promise<RecordWithdrawal[]>;
  /**
   * The ids retired (moved or withdrawn) on or after a day (YYYY-MM-DD, UTC), in the order of
   * their retirement (`at`, then id), at most `limit` of them, after `after` when given; `total`
   * counts every one since the day. An id written again is a record again and no longer listed.
   * (Not the change feed's removalsSince: fates are kept for good, removals only until followed.)
   */
  fatesSince(day: string, after: FatePosition | undefined, limit: number): Promise<FatePage>;
  /**
   * Records the catalog compilation date: the day the newest record was compiled, so it only ever
   * moves forward (an earlier date leaves it as it is). A change takes a change number, like a
   * record's: the date is in every export and in /readyz, whose tags follow the change number.
   */
  setCatalogUpdated(date: string): Promise<void>;
  /** Throws when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The source table, kept with the records (`npm run sources`); a new store holds BUILT_IN_SOURCES.
 * A change of the table takes a catalog change number (RecordStore.catalogState), as a record
 * write does: the labels and filter values every face shows follow the table, so what was read
 * or cached at an earlier change number is read again.
 */
export interface SourceStore {
  /** Every source, in key order. */
  listSources(): Promise<SourceDefinition[]>;
  /** Adds a source or replaces the one with the same key. */
  putSource(source: SourceDefinition): Promise<void>;
  /** Removes a source by key; false when there was none. */
  removeSource(key: string): Promise<boolean>;
}

/** Full-text search over localized records. Implemented by the embedded (FTS5) and Meilisearch adapters. */
export interface SearchIndex {
  /** Indexes records in both languages, replacing earlier versions with the same id, keeping each one's change number. */
  upsert(records: readonly IndexRecord[]): Promise<void>;
  remove(ids: readonly string[]): Promise<void>;
  /** Every record indexed in one language with the change number of the version held, in no particular order. */
  streamVersions(lang: Lang, batchSize?: number): AsyncIterable<RecordVersion>;
  search(query: SearchQuery): Promise<SearchHits>;
  /** Number of indexed records. */
  count(): Promise<number>;
  /** Throws when the index cannot answer searches now (SearchIndexLost when it is missing or lacks its settings). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Only for an index kept apart from the store (Meilisearch): the version of the mapping from a
   * record to its documents. The index sync writes every record again when the version stored in
   * the store is older (search-sync.ts).
   */
  readonly mappingVersion?: number;
  /**
   * Only for an index kept apart from the store (Meilisearch), which can be lost while the service
   * runs: creates an index that is missing and applies the settings to one that lacks what the
   * searches use, and says which it had to mend and how many documents each holds. The index sync
   * calls it at its start and every few seconds, and fills a mended or emptied index again
   * (search-sync.ts).
   */
  inspect?(): Promise<IndexInspection>;
  /**
   * Only for an index that could not be opened at start (PendingSearchIndex): settles once it
   * opens, so the index sync tries again at once rather than after its backoff.
   */
  readonly opened?: Promise<void>;
  /**
   * Only for an index that follows the store (FollowingSearchIndex): whether the index sync is
   * filling it from the store now (a refill under way, or it holds nothing while the store holds
   * records). Searches then answer SearchIndexFilling, and /readyz is not ready.
   */
  filling?(): Promise<boolean>;
}

/** What SearchIndex.inspect found and mended. */
export interface IndexInspection {
  /** The indexes it created (`missing`) or gave their settings again (`unusable`: it held other settings, e.g. Meilisearch's defaults). */
  restored: { lang: Lang; index: string; was: 'missing' | 'unusable' }[];
  /** The documents each language's index holds, read after mending. */
  documents: Record<Lang, number>;
}

/**
 * The search index is missing or lacks the settings its searches use (deleted while the service
 * ran): searches and readiness answer 503 until the index sync has restored it.
 */
export class SearchIndexLost extends Error {
  override name = 'SearchIndexLost';
}

/**
 * A search index kept apart from the store is being filled from it (a refill under way, or it
 * holds nothing while the store holds records): a search would miss records, so it answers 503
 * with Retry-After, never a cacheable answer of 0 results.
 */
export class SearchIndexFilling extends Error {
  override name = 'SearchIndexFilling';

  constructor() {
    super('the search index is being filled from the store: searches would miss records until it holds them all');
  }
}

/** Access tokens for ingest and export. Secrets are stored as SHA-256 only. */
export interface TokenStore {
  /** Stores a new token; fails when the name is taken. */
  createToken(name: string, scopes: readonly TokenScope[], secretSha256: string): Promise<TokenRecord>;
  /** The active (not revoked) token whose secret has this SHA-256, compared in constant time. */
  findActiveToken(secretSha256: string): Promise<TokenRecord | undefined>;
  listTokens(): Promise<TokenRecord[]>;
  /** Revokes a token by name; false when there is no active token of that name. */
  revokeToken(name: string): Promise<boolean>;
}

/** A new submission for the queue. */
export interface NewSubmission {
  tokenName: string;
  submission: Submission;
}

/** An Idempotency-Key with the request it came with. */
export interface IdempotencyRequest {
  tokenName: string;
  key: string;
  /** SHA-256 of what the request asked (path and body): the same key with another request is refused. */
  requestSha256: string;
}

/** How many submissions one token may make per UTC day. */
export interface DailyQuota {
  limit: number;
}

/** An item of a batch that failed validation: never a submission, kept for the batch's status. */
export interface RefusedItem {
  index: number;
  errors: FieldProblem[];
}

/** A batch to record with the submissions: where each accepted one stood in it, and the refused items. */
export interface NewBatch {
  /** The position in the request of each accepted submission, in the order of the items enqueued. */
  indexes: number[];
  refused: RefusedItem[];
}

/** A batch as the queue keeps it: ids and positions, never an answer's text. */
export interface BatchRecord {
  batchId: string;
  tokenName: string;
  submittedAt: string;
  items: { index: number; submissionId: string }[];
  refused: RefusedItem[];
}

export type EnqueueResult =
  | { kind: 'accepted'; records: SubmissionRecord[]; batchId: string | null }
  /** A repeat of a request within 24 hours: the submissions (and batch) the first one created. */
  | { kind: 'replay'; submissionIds: string[]; batchId: string | null }
  | { kind: 'key-reused' }
  /** The batch would take the token past its daily quota; nothing was accepted. */
  | { kind: 'over-quota'; used: number; limit: number };

/** A claimed submission, with the token that names this one claim (see SubmissionQueue). */
export type ClaimedSubmission = SubmissionRecord & { claimToken: string };

/** Which submissions to list, newest first. */
export interface SubmissionQuery {
  /** Only this token's; every token's when absent (a reviewer). */
  tokenName?: string;
  status?: SubmissionStatus;
  /** Submitted at or after this instant (ISO 8601). */
  since?: string;
  /** Strictly older than this position (the previous page's last item). */
  before?: { submittedAt: string; submissionId: string };
  limit: number;
}

/**
 * The durable submission queue. A publisher claims a submission by atomic update with a lease,
 * renews the lease while it works, and completes it; an expired lease returns it to the queue.
 *
 * Every claim gets a random token, and every later update of the claim (renew, complete, retry)
 * names it: an update carrying the token of a claim that lapsed and was claimed again does
 * nothing, even when the same process (another of its concurrency slots) made the new claim.
 * Lease times come from the database's clock where it has one, so publishers on hosts whose
 * clocks differ agree on when a lease ends.
 */
export interface SubmissionQueue {
  /**
   * Accepts submissions as queued, all or none, with their batch when they came in one. With an
   * idempotency key, the key is checked and kept in the same transaction, with the ids it
   * created: a repeat of the same request gets those ids back (`replay`), the same key with
   * another request gets `key-reused`; keys are kept 24 hours. With a quota, the token's
   * submissions since the start of the UTC day are counted in the same transaction, and a batch
   * that would pass the limit is refused whole (`over-quota`).
   */
  enqueue(items: readonly NewSubmission[], idempotency?: IdempotencyRequest, quota?: DailyQuota, batch?: NewBatch): Promise<EnqueueResult>;
  getSubmission(submissionId: string): Promise<SubmissionRecord | undefined>;
  /** The submissions with these ids, in the order asked; unknown ids are left out. */
  getSubmissions(submissionIds: readonly string[]): Promise<SubmissionRecord[]>;
  getBatch(batchId: string): Promise<BatchRecord | undefined>;
  /** Submissions newest first (submittedAt, then id, descending), at most `limit`. */
  listSubmissions(query: SubmissionQuery): Promise<SubmissionRecord[]>;
  /**
   * Records a maintainer's decision on a submission in needs_review, atomically: approve returns
   * it to the queue (due now, attempts counted afresh) for the publisher to publish; reject makes
   * it final as rejected, with the note as its reason. Undefined for an unknown id;
   * 'not-reviewable' when it is not in needs_review.
   */
  review(submissionId: string, decision: ReviewDecision): Promise<SubmissionRecord | 'not-reviewable' | undefined>;
  /**
   * Claims the oldest submission that is queued and due, or processing with an expired lease,
   * counting an attempt. A submission whose lease expired after its last allowed attempt is moved
   * to needs_review instead. `owner` names the claiming process in the stored lease (for people
   * reading the queue); the returned token is what identifies the claim.
   */
  claimNext(owner: string, leaseMs: number, maxAttempts: number): Promise<ClaimedSubmission | undefined>;
  /** Extends the lease; false when this claim no longer holds the submission. */
  renewLease(submissionId: string, claimToken: string, leaseMs: number): Promise<boolean>;
  /** Records the final outcome; false when this claim no longer holds the submission. */
  complete(submissionId: string, claimToken: string, outcome: SubmissionOutcome): Promise<boolean>;
  /**
   * Returns a claimed submission to the queue after a transient fault, due again after delayMs,
   * with the verdicts so far; false when this claim no longer holds it.
   */
  retryLater(submissionId: string, claimToken: string, reason: string, delayMs: number, checks?: readonly CheckVerdict[]): Promise<boolean>;
  /** Counts per status. */
  countByStatus(): Promise<Record<string, number>>;
}

/**
 * The store's file is gone from where it was opened (removed or replaced while the service ran):
 * nothing written from now on would be found again. Readiness and writes answer 503 with the
 * message, which says how to save what the process still holds.
 */
export class StoreFileGone extends Error {
  override readonly name = 'StoreFileGone';
}
