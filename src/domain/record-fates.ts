/**
 * A published record id never stops answering. A record that gave way to another holding the same
 * work has moved (its id answers 301 with the current one); a record taken out of the archive is
 * withdrawn (410, saying why and where the work came from).
 */
import { oneLine } from './localize.ts';
import type { RecordFate, RecordStore } from './ports.ts';

/** The reason a withdrawal gives when its caller names none. */
export const DEFAULT_WITHDRAWAL_REASON = 'The record was withdrawn from the archive.';

/** Moves followed at most, so a cycle written by hand can never hang a request. */
const MAX_HOPS = 8;

/** Where an id stands now: a live record, moved (to the live id at the end of its moves), withdrawn, or never published. */
export type IdResolution =
  | { status: 'live'; id: string }
  | { status: 'moved'; id: string; currentId: string; reason: string }
  | { status: 'withdrawn'; id: string; fate: Extract<RecordFate, { status: 'withdrawn' }>; movedVia: string[] }
  | { status: 'unknown'; id: string };

/** Follows an id's moves to the record that holds its work now. */
export async function resolveRecordId(store: Pick<RecordStore, 'getRecord' | 'recordFate'>, id: string): Promise<IdResolution> {
  if (await store.getRecord(id)) return { status: 'live', id };
  let current = id;
  let firstReason: string | undefined;
  const via: string[] = [];
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    const fate = await store.recordFate(current);
    if (!fate) return { status: 'unknown', id };
    if (fate.status === 'withdrawn') return { status: 'withdrawn', id, fate, movedVia: via };
    firstReason ??= fate.reason;
    via.push(fate.movedTo);
    current = fate.movedTo;
    if (await store.getRecord(current)) return { status: 'moved', id, currentId: current, reason: firstReason };
  }
  return { status: 'unknown', id };
}

/** The current ids of a list of ids (a submission's recordIds): moved ids replaced, duplicates and unresolvable ones left out. */
export async function currentRecordIds(store: Pick<RecordStore, 'getRecord' | 'recordFate'>, ids: readonly string[]): Promise<string[]> {
  const current: string[] = [];
  for (const id of ids) {
    const resolution = await resolveRecordId(store, id);
    const now = resolution.status === 'live' ? id : resolution.status === 'moved' ? resolution.currentId : undefined;
    if (now && !current.includes(now)) current.push(now);
  }
  return current;
}

/** Sentence-ending punctuation, Latin or Chinese, possibly followed by closing quotes or brackets. */
const SENTENCE_END = /[.!?。！？…][\p{Pf}\p{Pe}"']*$/u;

/**
 * A maintainer's reason as a sentence to stand before another: on one line, ending in a full stop
 * when it ends in none (a Chinese one after Chinese text), so `Takedown` reads `Takedown.` and not
 * `Takedown It was withdrawn`.
 */
export function reasonSentence(reason: string): string {
  const line = oneLine(reason);
  if (line === '' || SENTENCE_END.test(line)) return line;
  return /\p{Script=Han}$/u.test(line) ? `${line}。` : `${line}.`;
}

/**
 * A sentence for an id that is not a record, on one line: where it moved, or why it was withdrawn
 * and where the work was published (for an id that moved to a record since withdrawn, that it
 * moved, and where); undefined when it was never published.
 */
export async function retiredIdNote(store: Pick<RecordStore, 'getRecord' | 'recordFate'>, id: string): Promise<string | undefined> {
  const resolution = await resolveRecordId(store, id);
  if (resolution.status === 'moved') return `The record "${id}" moved to "${resolution.currentId}": ${reasonSentence(resolution.reason)} Ask for "${resolution.currentId}".`;
  if (resolution.status !== 'withdrawn') return undefined;
  const { fate, movedVia } = resolution;
  const movedTo = movedVia.at(-1);
  const whatHappened = movedTo === undefined ? `The record "${id}" was withdrawn` : `The record "${id}" moved to "${movedTo}", which was withdrawn`;
  return `${whatHappened} on ${fate.at.slice(0, 10)}: ${reasonSentence(fate.reason)} The work was published at ${fate.sourceUrl}.`;
}

/** A day before the archive's first record: every fate was recorded on or after it. */
const BEFORE_EVERY_FATE = '2015-01-01';

/** Fates read per store call while loading them all. */
const FATE_PAGE = 1000;

/**
 * Every retired id with what became of it (moved or withdrawn), read page by page in one walk of
 * the fates. The archive retires few ids, so the whole set fits in memory.
 */
export async function loadRetiredIds(store: Pick<RecordStore, 'fatesSince'>): Promise<Map<string, RecordFate['status']>> {
  const retired = new Map<string, RecordFate['status']>();
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const { fates } = await store.fatesSince(BEFORE_EVERY_FATE, after, FATE_PAGE);
    for (const fate of fates) retired.set(fate.id, fate.status);
    const last = fates.at(-1);
    if (!last || fates.length < FATE_PAGE) return retired;
    after = { at: last.at, id: last.id };
  }
}
