/**
 * Cursors of list walks. A cursor is opaque to clients: base64url of a small JSON object holding
 * the position after the last record returned (the sort values of that record, see
 * SearchPosition), how many records the walk has returned so far, and a fingerprint of the query
 * it belongs to, so a cursor is never applied to another query by mistake.
 */
import { createHash } from 'node:crypto';
import type { SearchFilters, SearchOrder, SearchPosition } from './search-query.ts';
import type { Lang } from './record.ts';

const VERSION = 1;

/** What a cursor carries. */
export interface CursorState {
  position: SearchPosition;
  /** Records the walk returned before the next page: the next page's `offset`. */
  returned: number;
}

/** The parts of a query a cursor is bound to (paging and facets may change between pages). */
export interface CursorQuery {
  scope: string;
  lang: Lang;
  text: string | undefined;
  filters: SearchFilters;
  order: SearchOrder;
}

/** A short fingerprint of a query; two queries that ask the same thing have the same one. */
export function queryFingerprint(query: CursorQuery): string {
  const filters = Object.entries(query.filters)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => [name, Array.isArray(value) ? [...(value as string[])].sort() : value])
    .sort(([a], [b]) => (String(a) < String(b) ? -1 : 1));
  const canonical = JSON.stringify([query.scope, query.lang, query.text ?? '', filters, query.order]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 11);
}

/** The cursor of a walk at this state, for this query's fingerprint. */
export function encodeCursor(fingerprint: string, state: CursorState): string {
  const { date, id, rank, frozen } = state.position;
  const body = { v: VERSION, f: fingerprint, n: state.returned, d: date, i: id, ...(rank ? { r: rank } : {}), ...(frozen ? { z: frozen } : {}) };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[a-z0-9][a-z0-9-]{0,127}$/;

function numbers(value: unknown): number[] | undefined {
  return Array.isArray(value) && value.length <= 64 && value.every((entry) => typeof entry === 'number' && Number.isFinite(entry)) ? (value as number[]) : undefined;
}

/** Why a cursor cannot be used. */
export type CursorProblem = 'malformed' | 'other-query';

/** The state a cursor carries, or why it cannot be used with this query. */
export function decodeCursor(cursor: string, fingerprint: string): CursorState | CursorProblem {
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'malformed';
    body = parsed as Record<string, unknown>;
  } catch {
    return 'malformed';
  }
  const { v, f, n, d, i, r, z } = body;
  if (v !== VERSION || typeof f !== 'string' || typeof d !== 'string' || !DATE.test(d) || typeof i !== 'string' || !ID.test(i)) return 'malformed';
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return 'malformed';
  const rank = r === undefined ? undefined : numbers(r);
  const frozen = z === undefined ? undefined : numbers(z);
  if ((r !== undefined && !rank) || (z !== undefined && !frozen)) return 'malformed';
  if (f !== fingerprint) return 'other-query';
  return { returned: n, position: { date: d, id: i, ...(rank ? { rank } : {}), ...(frozen ? { frozen } : {}) } };
}
