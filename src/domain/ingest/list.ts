/**
 * Listing submissions, newest first, a page at a time. The cursor is the position of the last item
 * of the previous page, so pages stay exact while new submissions arrive; it names the listing it
 * belongs to (whose submissions, which status, since when) and ends in a check value, as the read
 * API's cursors do (sealCursor in cursor.ts), so a cursor damaged on its way back, or given with
 * another listing's parameters, is refused rather than read.
 */
import { openCursor, sealCursor } from '../cursor.ts';
import type { CursorProblem } from '../cursor.ts';
import type { SubmissionQueue } from '../ports.ts';
import type { SubmissionRecord, SubmissionStatus } from '../submission.ts';

export const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 100;

export interface ListRequest {
  /** Only this token's submissions; every token's when absent (a reviewer asked for all). */
  tokenName?: string;
  status?: SubmissionStatus;
  since?: string;
  cursor?: string;
  limit: number;
}

export type ListResult = { kind: 'page'; items: SubmissionRecord[]; nextCursor: string | null } | { kind: 'bad-cursor'; problem: CursorProblem };

/** Which listing a cursor walks: whose submissions (every token's: `*`), which status, since when. */
type Listing = Pick<ListRequest, 'tokenName' | 'status' | 'since'>;

function listingOf(request: Listing): [string, string, string] {
  return [request.tokenName ?? '*', request.status ?? '', request.since ?? ''];
}

/** The opaque cursor after an item of a listing. */
export function cursorAfter(listing: Listing, record: Pick<SubmissionRecord, 'submittedAt' | 'submissionId'>): string {
  return sealCursor(Buffer.from(JSON.stringify([...listingOf(listing), record.submittedAt, record.submissionId])));
}

/**
 * The position a cursor stands for in this listing, or why it cannot be used: 'malformed' when it
 * is not a cursor this service wrote (its check value fails, or it does not read), 'other-query'
 * when it is intact but walks another listing.
 */
export function decodeCursor(cursor: string, listing: Listing): { submittedAt: string; submissionId: string } | CursorProblem {
  const body = openCursor(cursor);
  if (!body) return 'malformed';
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return 'malformed';
  }
  if (!Array.isArray(value) || value.length !== 5 || !value.every((part) => typeof part === 'string') || Number.isNaN(Date.parse(value[3] as string))) return 'malformed';
  const [token, status, since, submittedAt, submissionId] = value as string[];
  const [wantedToken, wantedStatus, wantedSince] = listingOf(listing);
  if (token !== wantedToken || status !== wantedStatus || since !== wantedSince) return 'other-query';
  return { submittedAt: submittedAt as string, submissionId: submissionId as string };
}

export async function listSubmissions(ports: { submissions: SubmissionQueue }, request: ListRequest): Promise<ListResult> {
  const before = request.cursor === undefined ? undefined : decodeCursor(request.cursor, request);
  if (typeof before === 'string') return { kind: 'bad-cursor', problem: before };
  const rows = await ports.submissions.listSubmissions({
    ...(request.tokenName === undefined ? {} : { tokenName: request.tokenName }),
    ...(request.status ? { status: request.status } : {}),
    ...(request.since ? { since: request.since } : {}),
    ...(before ? { before } : {}),
    limit: request.limit + 1,
  });
  const items = rows.slice(0, request.limit);
  const last = items.at(-1);
  return { kind: 'page', items, nextCursor: rows.length > request.limit && last ? cursorAfter(request, last) : null };
}
