/**
 * The submit command: accepts one work or a batch for a token, as plain values, and answers with
 * ids and statuses. HTTP, scripts and tests call it alike; what the answer looks like on the wire
 * is the caller's business.
 */
import type { FieldProblem } from '../field-problem.ts';
import { cleanWorkText } from '../localize.ts';
import type { DailyQuota, SubmissionQueue } from '../ports.ts';
import { UNKNOWN_SOURCE } from '../sources.ts';
import type { SourceTable } from '../sources.ts';
import type { Submission } from '../submission.ts';

/** One item as validation at the edge left it. */
export type CheckedItem = { ok: true; submission: Submission } | { ok: false; errors: FieldProblem[] };

export interface SubmitRequest {
  tokenName: string;
  items: readonly CheckedItem[];
  /** A batch request (POST …/batch): its items are recorded as a batch, named submissions[i] in problems. */
  batch: boolean;
  idempotency?: { key: string; requestSha256: string };
  quota?: DailyQuota;
}

/** What became of one item: a queued submission, or the problems that refused it. */
export type SubmittedItem = { index: number; submissionId: string } | { index: number; errors: FieldProblem[] };

export type SubmitResult =
  /** Nothing valid to accept: every problem of every item. Nothing was stored. */
  | { kind: 'invalid'; errors: FieldProblem[] }
  /** Queued now, or (replayed) by the first request with the same Idempotency-Key and body. */
  | { kind: 'accepted'; replayed: boolean; batchId: string | null; items: SubmittedItem[] }
  | { kind: 'key-reused' }
  | { kind: 'over-quota'; used: number; limit: number };

/**
 * Why a source URL cannot be taken: written with http:// on a host that is no known source, so
 * the archive cannot make it https. Undefined for any other value (one that does not parse is the
 * schema's to name). Validation asks it of every item, valid or not, so a 400 names it beside the
 * item's other problems.
 */
export function httpSourceUrlProblem(sourceUrl: unknown, sources: SourceTable): string | undefined {
  const url = typeof sourceUrl === 'string' ? URL.parse(sourceUrl) : null;
  if (url?.protocol !== 'http:' || sources.keyForHost(url.hostname) !== UNKNOWN_SOURCE) return undefined;
  return `must use https: ${url.hostname} is not a known source, so its http address cannot be made https by the archive`;
}

/**
 * A source URL written with http:// is made https:// when its host is a known source (every
 * known source serves https); on any other host it is refused, naming the field, rather than
 * failing later as an unknown source.
 */
export function secureSourceUrl(submission: Submission, sources: SourceTable, field: string): { ok: true; submission: Submission } | { ok: false; errors: FieldProblem[] } {
  const problem = httpSourceUrlProblem(submission.sourceUrl, sources);
  if (problem) return { ok: false, errors: [{ field, message: problem }] };
  const url = URL.parse(submission.sourceUrl);
  if (url?.protocol !== 'http:') return { ok: true, submission };
  url.protocol = 'https:';
  return { ok: true, submission: { ...submission, sourceUrl: url.href } };
}

/**
 * The items after the rules the schema cannot state (http source URLs), their texts cleaned of
 * invisible characters (as they will be stored), and every problem when none is left to accept.
 */
export function prepareItems(items: readonly CheckedItem[], sources: SourceTable, batch: boolean): { checked: CheckedItem[]; invalid?: FieldProblem[] } {
  const checked = items.map((item, index): CheckedItem => (item.ok ? secureSourceUrl(cleanWorkText(item.submission), sources, batch ? `submissions[${index}].sourceUrl` : 'sourceUrl') : item));
  if (checked.some((item) => item.ok)) return { checked };
  return { checked, invalid: checked.flatMap((item) => (item.ok ? [] : item.errors)) };
}

/** Accepts the valid items of a request for a token, honouring its Idempotency-Key and daily quota. */
export async function submit(ports: { submissions: SubmissionQueue; sources: SourceTable }, request: SubmitRequest): Promise<SubmitResult> {
  const { checked } = prepareItems(request.items, ports.sources, request.batch);
  const valid = checked.flatMap((item, index) => (item.ok ? [{ index, submission: item.submission }] : []));
  const refused = checked.flatMap((item, index) => (item.ok ? [] : [{ index, errors: item.errors }]));
  if (valid.length === 0) return { kind: 'invalid', errors: refused.flatMap((item) => item.errors) };
  const items = (ids: readonly string[]): SubmittedItem[] =>
    checked.map((item, index) => {
      const position = valid.findIndex((entry) => entry.index === index);
      return position >= 0 ? { index, submissionId: ids[position] ?? '' } : { index, errors: refused.find((entry) => entry.index === index)?.errors ?? [] };
    });
  const result = await ports.submissions.enqueue(
    valid.map((entry) => ({ tokenName: request.tokenName, submission: entry.submission })),
    request.idempotency ? { tokenName: request.tokenName, ...request.idempotency } : undefined,
    request.quota,
    request.batch ? { indexes: valid.map((entry) => entry.index), refused } : undefined,
  );
  if (result.kind === 'accepted') return { kind: 'accepted', replayed: false, batchId: result.batchId, items: items(result.records.map((record) => record.submissionId)) };
  if (result.kind === 'replay') return { kind: 'accepted', replayed: true, batchId: result.batchId, items: items(result.submissionIds) };
  return result;
}
