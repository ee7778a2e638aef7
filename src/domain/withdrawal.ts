/**
 * The withdraw command: takes works out of the archive on a takedown request. Each id named is
 * resolved as a reader's request would be (record-fates.ts); a live record is withdrawn with every
 * other record of the same work (the same work key, sources.ts workKey: a gallery record and its
 * timeline record), unless only the named records are asked for. The records of each model label
 * are withdrawn in one store transaction with the timeline rule (planWithdrawal), so a model whose
 * timeline record is withdrawn passes it to its earliest remaining ingested work.
 */
import { planWithdrawal, withdrawalEndsTimeline } from './ingest/timeline.ts';
import type { RecordStore } from './ports.ts';
import { recordId } from './ids.ts';
import { resolveRecordId } from './record-fates.ts';
import { compilationDay } from './record.ts';
import type { Kind, StoredRecord } from './record.ts';
import { workKey } from './sources.ts';

/** The longest reason a withdrawal keeps (it is shown in every 410 answer of its ids). */
export const WITHDRAWAL_REASON_MAX_LENGTH = 2000;

export interface WithdrawalRequest {
  ids: readonly string[];
  /** Why, in a sentence a reader of the 410 answer understands. */
  reason: string;
  /** Withdraw the other records of each named record's work too (true), or the named records alone. */
  wholeWork: boolean;
  /** An id that moved: withdraw the record it moved to (true), or only say where it went. */
  followMoves: boolean;
  /** When the withdrawal happens (now when left out): the compilation date of a timeline record it passes on. */
  now?: Date;
}

/** A record the command withdrew. */
export interface WithdrawnRecord {
  id: string;
  kind: Kind;
  model: string;
  sourceUrl: string;
  /** The id named in the request that led to it (itself, the id that moved to it, or a record of the same work). */
  namedAs: string;
  /** The preview and thumbnail paths it referenced, relative to the media folder. */
  media: string[];
}

export interface WithdrawalReport {
  withdrawn: WithdrawnRecord[];
  /** Timeline records written for the earliest remaining work of a model whose timeline record was withdrawn. */
  timelineSuccessors: { id: string; model: string }[];
  /**
   * Models whose timeline record was withdrawn and that have none now, and what the record was:
   * editorial (an imported catalog's, never passed on), or ingested, when the model's earliest
   * remaining work is editorial, or is the work whose timeline record was withdrawn alone (its
   * timeline id is that one), or none remains; `worksLeft` false when the model has no record
   * left at all.
   */
  timelinesEnded: { model: string; withdrawn: 'editorial' | 'ingested'; worksLeft: boolean }[];
  /**
   * The timeline records left at the source URL of a gallery record withdrawn alone (wholeWork
   * false): its work's timeline record, which then names a gallery record that answers 410.
   */
  timelineTwinsLeft: { id: string; model: string; galleryId: string }[];
  /**
   * Ids that had moved to a gallery record withdrawn now, and so answer 410 from now on, each with
   * the record it moved to; a named one is told of in `moved` instead.
   */
  movedIdsWithdrawn: { id: string; movedTo: string }[];
  /** Named ids withdrawn before (directly, or at the end of their moves). */
  alreadyWithdrawn: { id: string; at: string; reason: string }[];
  /** Named ids that had moved, with the record holding their work now, and whether it was withdrawn. */
  moved: { id: string; currentId: string; followed: boolean }[];
  /** Named ids never published. */
  unknown: string[];
}

export type WithdrawalResult = { kind: 'withdrawn'; report: WithdrawalReport } | { kind: 'invalid'; message: string };

/** The preview and thumbnail paths a record references. */
export function mediaPathsOf(record: Pick<StoredRecord, 'media'>): string[] {
  return record.media.flatMap((stored) => (stored.thumbnailPath ? [stored.path, stored.thumbnailPath] : [stored.path]));
}

function reasonProblem(reason: string): string | undefined {
  if (!reason) return 'a reason is required: it is shown to everyone who asks for a withdrawn id';
  if (reason.length > WITHDRAWAL_REASON_MAX_LENGTH) return `the reason must be at most ${WITHDRAWAL_REASON_MAX_LENGTH} characters`;
  return undefined;
}

/** Resolves the named ids: the live records to withdraw (by the id named), and what the others are. */
async function resolveTargets(store: RecordStore, request: WithdrawalRequest, report: WithdrawalReport): Promise<Map<string, string>> {
  const targets = new Map<string, string>();
  for (const id of new Set(request.ids)) {
    const resolution = await resolveRecordId(store, id);
    if (resolution.status === 'live') targets.set(id, id);
    else if (resolution.status === 'unknown') report.unknown.push(id);
    else if (resolution.status === 'withdrawn') report.alreadyWithdrawn.push({ id, at: resolution.fate.at, reason: resolution.fate.reason });
    else {
      report.moved.push({ id, currentId: resolution.currentId, followed: request.followMoves });
      if (request.followMoves && !targets.has(resolution.currentId)) targets.set(resolution.currentId, id);
    }
  }
  return targets;
}

/** The records to withdraw, each with the id named that led to it: the targets, and with wholeWork every record of their works. */
async function recordsToWithdraw(store: RecordStore, targets: Map<string, string>, wholeWork: boolean): Promise<Map<string, { record: StoredRecord; namedAs: string }>> {
  const chosen = new Map<string, { record: StoredRecord; namedAs: string }>();
  for (const record of await store.getRecords([...targets.keys()])) {
    const namedAs = targets.get(record.id) ?? record.id;
    chosen.set(record.id, { record, namedAs });
    if (!wholeWork) continue;
    for (const sameWork of await store.findByWorkKey(workKey(record.sourceUrl))) {
      if (!chosen.has(sameWork.id)) chosen.set(sameWork.id, { record: sameWork, namedAs });
    }
  }
  return chosen;
}

/** The timeline records still at the source URL of a withdrawn gallery record (read by its work key, after the withdrawal). */
async function timelineTwinsLeft(store: RecordStore, withdrawn: readonly WithdrawnRecord[]): Promise<WithdrawalReport['timelineTwinsLeft']> {
  const left: WithdrawalReport['timelineTwinsLeft'] = [];
  for (const gallery of withdrawn.filter((record) => record.kind === 'gallery')) {
    for (const record of await store.findByWorkKey(workKey(gallery.sourceUrl))) {
      if (record.kind === 'timeline' && record.sourceUrl === gallery.sourceUrl) left.push({ id: record.id, model: record.model, galleryId: gallery.id });
    }
  }
  return left;
}

/**
 * The ids that had moved to a gallery record this withdrawal took (they answer 410 now), but those
 * named in the request. The archive moves an id in one case only: an ingested timeline record that
 * gave way to an earlier work moves to its own work's gallery record (timeline.ts planPublication),
 * and its id is the timeline id of that gallery record's URL, format and model. So each withdrawn
 * gallery record has one id that may have moved to it, read by its id (no scan of the fates).
 */
async function movedIdsWithdrawn(store: RecordStore, chosen: ReadonlyMap<string, { record: StoredRecord }>, report: WithdrawalReport): Promise<WithdrawalReport['movedIdsWithdrawn']> {
  const named = new Set(report.moved.map((entry) => entry.id));
  const found: WithdrawalReport['movedIdsWithdrawn'] = [];
  for (const { id } of report.withdrawn) {
    const record = chosen.get(id)?.record;
    if (record?.kind !== 'gallery') continue;
    const timelineId = recordId({ canonicalSourceUrl: record.sourceUrl, kind: 'timeline', format: record.format, model: record.model });
    if (named.has(timelineId)) continue;
    const fate = await store.recordFate(timelineId);
    if (fate?.status === 'moved' && fate.movedTo === id) found.push({ id: timelineId, movedTo: id });
  }
  return found;
}

/** Which of some media paths the store's records still reference, and how many records were read to find out. */
export interface MediaReferences {
  referenced: Set<string>;
  recordsRead: number;
}

/**
 * Which of `paths` any record in the store references (a preview or a thumbnail). Media files are
 * content-addressed, so one may be shared by records of different works; nothing indexes records
 * by media path, so every record is read once, in id order and in batches (memory stays flat).
 */
export async function referencedMedia(store: Pick<RecordStore, 'streamRecords'>, paths: readonly string[]): Promise<MediaReferences> {
  const wanted = new Set(paths);
  const referenced = new Set<string>();
  let recordsRead = 0;
  if (wanted.size === 0) return { referenced, recordsRead };
  for await (const record of store.streamRecords({ batchSize: 1000 })) {
    recordsRead += 1;
    for (const path of mediaPathsOf(record)) if (wanted.has(path)) referenced.add(path);
  }
  return { referenced, recordsRead };
}

/**
 * Withdraws the named records (and by default their works' other records), and says what became of
 * each id. `beforeCommit` is given the media paths of every record chosen before any is withdrawn
 * (the withdraw command keeps them durably, so an interrupted removal of the files can finish).
 */
export async function withdrawRecords(store: RecordStore, request: WithdrawalRequest, beforeCommit: (media: readonly string[]) => Promise<void> = async () => {}): Promise<WithdrawalResult> {
  const reason = request.reason.trim();
  const problem = reasonProblem(reason);
  if (problem) return { kind: 'invalid', message: problem };
  if (request.ids.length === 0) return { kind: 'invalid', message: 'name at least one record id' };
  const report: WithdrawalReport = { withdrawn: [], timelineSuccessors: [], timelinesEnded: [], timelineTwinsLeft: [], movedIdsWithdrawn: [], alreadyWithdrawn: [], moved: [], unknown: [] };
  const chosen = await recordsToWithdraw(store, await resolveTargets(store, request, report), request.wholeWork);
  await beforeCommit([...new Set([...chosen.values()].flatMap(({ record }) => mediaPathsOf(record)))]);
  const models = new Set([...chosen.values()].map(({ record }) => record.model));
  const compiledOn = compilationDay(request.now ?? new Date());
  for (const model of models) {
    const ids = new Set([...chosen.values()].filter(({ record }) => record.model === model).map(({ record }) => record.id));
    let timelineEnded: 'editorial' | 'ingested' | undefined;
    let worksLeft = true;
    const changes = await store.changeModelRecords(model, (ofModel) => {
      const plan = planWithdrawal(ids, reason, ofModel, compiledOn);
      timelineEnded = withdrawalEndsTimeline(ids, ofModel, plan);
      worksLeft = ofModel.some((record) => !ids.has(record.id));
      return plan;
    });
    for (const { id } of changes.retire) {
      const entry = chosen.get(id);
      if (!entry) continue;
      const { record, namedAs } = entry;
      report.withdrawn.push({ id, kind: record.kind, model: record.model, sourceUrl: record.sourceUrl, namedAs, media: mediaPathsOf(record) });
    }
    report.timelineSuccessors.push(...changes.put.map((record) => ({ id: record.id, model: record.model })));
    if (timelineEnded) report.timelinesEnded.push({ model, withdrawn: timelineEnded, worksLeft });
  }
  if (report.timelineSuccessors.length) await store.setCatalogUpdated(compiledOn);
  if (!request.wholeWork) report.timelineTwinsLeft = await timelineTwinsLeft(store, report.withdrawn);
  report.movedIdsWithdrawn = await movedIdsWithdrawn(store, chosen, report);
  return { kind: 'withdrawn', report };
}
