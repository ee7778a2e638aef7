/**
 * Listing submissions, newest first, a page at a time. The cursor is the position of the last item
 * of the previous page, so pages stay exact while new submissions arrive.
 */
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

export type ListResult = { kind: 'page'; items: SubmissionRecord[]; nextCursor: string | null } | { kind: 'bad-cursor' };

/** The opaque cursor after an item. */
export function cursorAfter(record: Pick<SubmissionRecord, 'submittedAt' | 'submissionId'>): string {
  return Buffer.from(JSON.stringify([record.submittedAt, record.submissionId])).toString('base64url');
}

/** The position a cursor stands for, or undefined when it is not one this service wrote. */
export function decodeCursor(cursor: string): { submittedAt: string; submissionId: string } | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' && !Number.isNaN(Date.parse(value[0]))) return { submittedAt: value[0], submissionId: value[1] };
  } catch {
    // Not base64url JSON: not a cursor of ours.
  }
  return undefined;
}

export async function listSubmissions(ports: { submissions: SubmissionQueue }, request: ListRequest): Promise<ListResult> {
  const before = request.cursor === undefined ? undefined : decodeCursor(request.cursor);
  if (request.cursor !== undefined && !before) return { kind: 'bad-cursor' };
  const rows = await ports.submissions.listSubmissions({
    ...(request.tokenName === undefined ? {} : { tokenName: request.tokenName }),
    ...(request.status ? { status: request.status } : {}),
    ...(request.since ? { since: request.since } : {}),
    ...(before ? { before } : {}),
    limit: request.limit + 1,
  });
  const items = rows.slice(0, request.limit);
  const last = items.at(-1);
  return { kind: 'page', items, nextCursor: rows.length > request.limit && last ? cursorAfter(last) : null };
}
