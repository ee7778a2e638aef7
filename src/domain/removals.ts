/**
 * The ids removed from the archive since a day, for clients that keep a copy in sync with
 * `/api/v1/specimens?since=`: a list only ever adds records, so the ids that went away (withdrawn,
 * answered 410; moved, answered 301) are read here and deleted from the copy.
 *
 * The walk runs in the order of removal (`at`, then id) and pages by cursor: the position after
 * the last id returned, with the day it belongs to, as base64url of JSON followed by a CRC-32
 * check value (sealCursor in cursor.ts, as the search cursors), so a cursor damaged or edited on
 * its way back is refused rather than read. A removal made while a client walks sorts
 * after every earlier one, so it comes on a later page instead of shifting the pages.
 */
import { openCursor, sealCursor } from './cursor.ts';
import type { CursorProblem } from './cursor.ts';
import type { FatePosition, RecordFate, RecordStore } from './ports.ts';

/** One removed id as the list gives it. */
export interface Removal {
  id: string;
  fate: 'withdrawn' | 'moved';
  at: string;
  movedTo?: string;
  reason: string;
}

/** A page of the removals list. */
export interface RemovalList {
  total: number;
  limit: number;
  items: Removal[];
  next: string | null;
}

/** What a removals page asks: the day, the page size, and where the walk stands. */
export interface RemovalQuery {
  since: string;
  limit: number;
  after?: FatePosition;
}

/** The cursor of the walk of removals since `since`, after this position. */
export function encodeRemovalCursor(since: string, after: FatePosition): string {
  return sealCursor(Buffer.from(JSON.stringify([since, after.at, after.id])));
}

/**
 * Where a cursor says the walk stands, or why it cannot be used: 'malformed' when it is not a
 * cursor this service wrote (its check value fails, or it does not read), 'other-query' when it
 * is intact but belongs to another `since`.
 */
export function decodeRemovalCursor(cursor: string, since: string): FatePosition | CursorProblem {
  const body = openCursor(cursor);
  if (!body) return 'malformed';
  let parts: unknown;
  try {
    parts = JSON.parse(body.toString('utf8'));
  } catch {
    return 'malformed';
  }
  if (!Array.isArray(parts) || parts.length !== 3 || !parts.every((part) => typeof part === 'string')) return 'malformed';
  const [day, at, id] = parts as [string, string, string];
  return day === since ? { at, id } : 'other-query';
}

/** A fate as the removals list presents it. */
export function presentRemoval(fate: RecordFate): Removal {
  if (fate.status === 'moved') return { id: fate.id, fate: 'moved', at: fate.at, movedTo: fate.movedTo, reason: fate.reason };
  return { id: fate.id, fate: 'withdrawn', at: fate.at, reason: fate.reason };
}

/** One page of the ids removed since a day, with the cursor of the next page (null on the last). */
export async function listRemovals(store: Pick<RecordStore, 'fatesSince'>, query: RemovalQuery): Promise<RemovalList> {
  // One more than the page, to know whether another page follows without a read that finds nothing.
  const { total, fates } = await store.fatesSince(query.since, query.after, query.limit + 1);
  const page = fates.slice(0, query.limit);
  const last = page.at(-1);
  const next = fates.length > query.limit && last ? encodeRemovalCursor(query.since, { at: last.at, id: last.id }) : null;
  return { total, limit: query.limit, items: page.map(presentRemoval), next };
}
