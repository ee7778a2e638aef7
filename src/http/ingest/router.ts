import Router from '@koa/router';
import type { Context } from 'koa';
import { createHash } from 'node:crypto';
import { decodeCursor, listSubmissions, LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../../domain/ingest/list.ts';
import type { ListRequest } from '../../domain/ingest/list.ts';
import type { CursorProblem } from '../../domain/cursor.ts';
import { review, REVIEW_NOTE_MAX_LENGTH } from '../../domain/ingest/review.ts';
import { prepareItems, submit } from '../../domain/ingest/submit.ts';
import type { CheckedItem, SubmitResult } from '../../domain/ingest/submit.ts';
import type { RecordStore, SourceStore, SubmissionQueue, TokenStore } from '../../domain/ports.ts';
import { isCalendarDate } from '../../domain/record.ts';
import { currentRecordIds } from '../../domain/record-fates.ts';
import { SourceTable } from '../../domain/sources.ts';
import { REVIEW_DECISIONS, SUBMISSION_STATUSES } from '../../domain/submission.ts';
import type { ReviewDecisionKind, SubmissionRecord, SubmissionStatus, TokenRecord } from '../../domain/submission.ts';
import { BODY_FIELD, invalidParametersProblem, listedNames, ProblemError } from '../../errors.ts';
import type { FieldError } from '../../errors.ts';
import { checkSubmission, isJsonObject } from '../../validation/submission.ts';
import { readJsonBody } from '../body.ts';
import { authorize } from '../middlewares/auth.ts';
import { batchUrl, presentAccepted, presentBatch, presentBatchAccepted, presentListed, presentSubmission, statusUrl } from './presenter.ts';
import { allowOnly, readOnly } from '../read-route.ts';
import { enforce } from '../middlewares/rate-limit.ts';
import type { RefusalListener } from '../middlewares/rate-limit.ts';
import type { RateLimiter } from '../../rate-limit/limiter.ts';
import { likelyName } from '../../validation/likely-name.ts';

/** Largest body of POST /api/v1/ingest (256 KB); a batch's body may be 8 times as large (2 MB). */
export const INGEST_BODY_LIMIT = 256 * 1024;
export const BATCH_LIMIT = 100;

export interface IngestDependencies {
  tokens: TokenStore;
  submissions: SubmissionQueue;
  /** Where published records live, to show a submission's current record ids. */
  store: Pick<RecordStore, 'getRecord' | 'recordFate'>;
  sources: SourceStore;
  baseUrl: string;
  /** Wakes the in-process publisher after new submissions or approvals (embedded deployment). */
  notify?: () => void;
  /** Ingest requests per minute per token (0: no limit), counted by the limiter. */
  requestsPerMinute?: number;
  limiter?: RateLimiter;
  /** Submissions per token per UTC day (0 or absent: no quota). */
  dailyQuota?: number;
  /** Told of every request refused by the per-token limit ('ingest') or the daily quota ('quota'). */
  refused?: RefusalListener;
}

const MINUTE_MS = 60_000;

/** The token behind the request, holding one of the scopes, counted against the per-token ingest limit. */
async function authorizeIngest(ctx: Context, deps: IngestDependencies, scopes: Parameters<typeof authorize>[2] = 'ingest'): Promise<TokenRecord> {
  const token = await authorize(ctx, deps.tokens, scopes);
  if (deps.limiter && deps.requestsPerMinute) {
    await enforce(ctx, deps.limiter, { name: 'ingest', limit: deps.requestsPerMinute, windowMs: MINUTE_MS }, token.name, 'for this token', deps.refused);
  }
  return token;
}

function secondsUntilNextUtcDay(now = Date.now()): number {
  const next = new Date(now);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - now) / 1000));
}

const IDEMPOTENCY_KEY = 'Idempotency-Key';
const BAD_KEY: FieldError = { parameter: IDEMPOTENCY_KEY, message: 'must be 1–255 visible ASCII characters' };
const BAD_KEY_DETAIL = `${IDEMPOTENCY_KEY} ${BAD_KEY.message}.`;

const KEY_FORM = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key a request was sent with: none, a key, or a header that is no key (an empty one too). */
type IdempotencyKeyHeader = { kind: 'absent' } | { kind: 'key'; key: string } | { kind: 'bad' };

function idempotencyKeyHeader(ctx: Context): IdempotencyKeyHeader {
  // ctx.get answers '' for an absent header and for an empty one alike; the headers tell them apart.
  const key = ctx.headers[IDEMPOTENCY_KEY.toLowerCase()];
  if (key === undefined) return { kind: 'absent' };
  return typeof key === 'string' && KEY_FORM.test(key) ? { kind: 'key', key } : { kind: 'bad' };
}

/** A 400 about the body that also names the bad Idempotency-Key, so one answer names every bad input. */
function alsoNamingBadKey(problem: ProblemError): ProblemError {
  return new ProblemError('invalid-parameters', `${problem.detail} ${BAD_KEY_DETAIL}`, { ...problem.options, errors: [...(problem.options.errors ?? []), BAD_KEY] });
}

function invalidBody(errors: FieldError[]): ProblemError {
  return new ProblemError('invalid-parameters', `Invalid submission: ${listedNames([...new Set(errors.map((error) => error.field ?? ''))])}.`, { errors });
}

function invalidReview(errors: FieldError[]): ProblemError {
  return new ProblemError('invalid-parameters', `Invalid review: ${listedNames([...new Set(errors.map((error) => error.field ?? ''))])}.`, { errors });
}

/** Problems of a submit result that are not an answer: no valid item, key reused, quota. */
function throwUnlessAccepted(result: SubmitResult, deps: IngestDependencies): asserts result is Extract<SubmitResult, { kind: 'accepted' }> {
  if (result.kind === 'invalid') throw invalidBody(result.errors);
  if (result.kind === 'over-quota') {
    deps.refused?.('quota');
    const left = Math.max(0, result.limit - result.used);
    throw new ProblemError('quota-exceeded', `This token may make ${result.limit} submissions per UTC day; ${result.used} were made today, so ${left} more can be accepted. Nothing from this request was accepted.`, {
      headers: { 'Retry-After': String(secondsUntilNextUtcDay()) },
    });
  }
  if (result.kind === 'key-reused') {
    throw new ProblemError('idempotency-key-reused', 'This Idempotency-Key was used with a different request in the last 24 hours. Use a new key for a new request.', {
      errors: [{ parameter: IDEMPOTENCY_KEY, message: 'was used with a different request' }],
    });
  }
}

/** A POST whose body has something to accept and whose Idempotency-Key, if any, is a key. */
interface CheckedRequest {
  items: CheckedItem[];
  batch: boolean;
  /** The body as sent, byte for byte: what an Idempotency-Key stands for. */
  raw: Buffer;
  sources: SourceTable;
  key: string | undefined;
}

/**
 * The items of a batch body, `{ "submissions": [ … ] }`, each checked; throws the 400 naming each
 * bad field of the envelope, and with them every bad field of its items, so a client mends the
 * whole body at once.
 */
function batchItems(value: unknown, sources: SourceTable): CheckedItem[] {
  if (!isJsonObject(value)) throw invalidBody([{ field: BODY_FIELD, message: `must be a JSON object: { "submissions": [ …1 to ${BATCH_LIMIT} submissions… ] }` }]);
  const list = value.submissions;
  const extra = Object.keys(value).filter((name) => name !== 'submissions');
  const items = Array.isArray(list)
    ? list.map((item, index): CheckedItem => {
        const checked = checkSubmission(item, sources, `submissions[${index}]`);
        return checked.ok ? checked : { ok: false, errors: checked.errors.map((error) => ({ field: error.field ?? `submissions[${index}]`, message: error.message })) };
      })
    : [];
  if (!Array.isArray(list) || list.length < 1 || list.length > BATCH_LIMIT || extra.length) {
    throw invalidBody([
      ...(Array.isArray(list) ? [] : [{ field: 'submissions', message: 'is required: an array of submissions' }]),
      ...(Array.isArray(list) && (list.length < 1 || list.length > BATCH_LIMIT) ? [{ field: 'submissions', message: `must hold 1 to ${BATCH_LIMIT} submissions` }] : []),
      ...extra.map((name) => ({ field: name, message: 'is not a known field; known: submissions' })),
      ...items.flatMap((item) => (item.ok ? [] : item.errors)),
    ]);
  }
  return items;
}

/** The body of a POST, read and checked; throws the 400 naming each bad field when it holds nothing to accept. */
async function checkedBody(ctx: Context, deps: IngestDependencies, batch: boolean): Promise<Omit<CheckedRequest, 'key'>> {
  const { value, raw } = await readJsonBody(ctx, batch ? INGEST_BODY_LIMIT * 8 : INGEST_BODY_LIMIT);
  // Read first: the items are checked against it with every other rule, so one 400 names every problem.
  const sources = new SourceTable(await deps.sources.listSources());
  let items: CheckedItem[];
  if (batch) {
    items = batchItems(value, sources);
  } else {
    const checked = checkSubmission(value, sources);
    if (!checked.ok) throw invalidBody(checked.errors);
    items = [checked];
  }
  const { invalid } = prepareItems(items, sources, batch);
  if (invalid) throw invalidBody(invalid);
  return { items, batch, raw, sources };
}

/**
 * A POST's body and Idempotency-Key, checked together: a 400 names every bad field of the body and
 * the key when it is bad, so a client mends them all at once. A body with something to accept is
 * refused for a bad key alone.
 */
async function checkedRequest(ctx: Context, deps: IngestDependencies, batch: boolean): Promise<CheckedRequest> {
  const key = idempotencyKeyHeader(ctx);
  let body: Omit<CheckedRequest, 'key'>;
  try {
    body = await checkedBody(ctx, deps, batch);
  } catch (error) {
    throw key.kind === 'bad' && error instanceof ProblemError && error.type === 'invalid-parameters' ? alsoNamingBadKey(error) : error;
  }
  if (key.kind === 'bad') throw new ProblemError('invalid-parameters', BAD_KEY_DETAIL, { errors: [BAD_KEY] });
  return { ...body, key: key.kind === 'key' ? key.key : undefined };
}

/** Runs the submit command for a checked request and sends its 202 (first or replayed). */
async function accept(ctx: Context, deps: IngestDependencies, token: TokenRecord, request: CheckedRequest): Promise<void> {
  const { items, batch, raw, sources, key } = request;
  const result = await submit(
    { submissions: deps.submissions, sources },
    {
      tokenName: token.name,
      items,
      batch,
      ...(key ? { idempotency: { key, requestSha256: createHash('sha256').update(ctx.path).update('\n').update(raw).digest('hex') } } : {}),
      ...(deps.dailyQuota ? { quota: { limit: deps.dailyQuota } } : {}),
    },
  );
  throwUnlessAccepted(result, deps);
  if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
  else deps.notify?.();
  ctx.status = 202;
  ctx.set('Cache-Control', 'no-store');
  if (batch) {
    if (result.batchId) ctx.set('Location', batchUrl(deps.baseUrl, result.batchId));
    ctx.body = presentBatchAccepted(result.batchId, result.items, deps.baseUrl);
    return;
  }
  const [item] = result.items;
  if (!item || !('submissionId' in item)) throw new Error('an accepted single submission has no id');
  ctx.set('Location', statusUrl(deps.baseUrl, item.submissionId));
  ctx.body = presentAccepted(item.submissionId, deps.baseUrl);
}

/** One query parameter given once, or undefined. */
function single(ctx: Context, name: string, errors: FieldError[]): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) {
    errors.push({ parameter: name, message: 'must be given once' });
    return undefined;
  }
  return value;
}

const LIST_PARAMETERS = ['status', 'since', 'cursor', 'limit', 'all'];
/** What a cursor that cannot be used is told, by why. */
const BAD_CURSOR: Record<CursorProblem, FieldError> = {
  'malformed': { parameter: 'cursor', message: 'is not a cursor this service gave: pass the nextCursor of a page unchanged, or start again without it' },
  'other-query': { parameter: 'cursor', message: 'belongs to another listing: keep status, since and all of the page that gave it' },
};

const SINCE_FORM = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * The instant `since` names, as an ISO string, or null when it names none. Its day must exist, as
 * the read API's dates must (Date.parse would take 2026-02-30 for 2 March).
 */
function sinceInstant(text: string): string | null {
  const form = SINCE_FORM.exec(text);
  if (!form?.[1] || !isCalendarDate(form[1])) return null;
  const parsed = Date.parse(form[2] ? text : `${text}T00:00:00Z`);
  return Number.isNaN(parsed) ? null : new Date(parsed).toISOString();
}

/** The listing's parameters as the listing's request (the token's own submissions, or every token's with all), every bad one named. */
function listParameters(ctx: Context, token: TokenRecord): { request: ListRequest; all: boolean } {
  const errors: FieldError[] = [];
  // The known names once, with the first unknown one, as describeErrors lists them; each with the one it likely meant.
  const unknown = Object.keys(ctx.query).filter((name) => !LIST_PARAMETERS.includes(name));
  unknown.forEach((name, index) => {
    const likely = likelyName(name, LIST_PARAMETERS);
    errors.push({ parameter: name, message: `is not a known parameter${likely === undefined ? '' : ` (did you mean ${likely}?)`}${index === 0 ? `; known: ${LIST_PARAMETERS.join(', ')}` : ''}` });
  });
  const status = single(ctx, 'status', errors);
  if (status !== undefined && !(SUBMISSION_STATUSES as readonly string[]).includes(status)) errors.push({ parameter: 'status', message: `must be one of: ${SUBMISSION_STATUSES.join(', ')}` });
  const sinceText = single(ctx, 'since', errors);
  const since = sinceText === undefined ? undefined : sinceInstant(sinceText);
  if (since === null) errors.push({ parameter: 'since', message: 'must be a date (2026-11-20) or a date and time with its offset (2026-11-20T08:00:00Z), on a day that exists' });
  const cursor = single(ctx, 'cursor', errors);
  const limitText = single(ctx, 'limit', errors);
  const limit = limitText === undefined ? LIST_DEFAULT_LIMIT : Number(limitText);
  if (limitText !== undefined && (!/^\d+$/.test(limitText) || limit < 1 || limit > LIST_MAX_LIMIT)) errors.push({ parameter: 'limit', message: `must be an integer from 1 to ${LIST_MAX_LIMIT}` });
  const allText = single(ctx, 'all', errors);
  if (allText !== undefined && allText !== 'true' && allText !== 'false') errors.push({ parameter: 'all', message: 'must be true or false' });
  const all = allText === 'true';
  const request: ListRequest = { ...(all ? {} : { tokenName: token.name }), ...(status ? { status: status as SubmissionStatus } : {}), ...(since ? { since } : {}), ...(cursor !== undefined ? { cursor } : {}), limit };
  const decoded = cursor === undefined ? undefined : decodeCursor(cursor, request);
  if (typeof decoded === 'string') errors.push(BAD_CURSOR[decoded]);
  if (errors.length) throw invalidParametersProblem(errors);
  if (all && !token.scopes.includes('review')) throw new ProblemError('forbidden', 'Only a token with the "review" scope may list every token\'s submissions (all=true).');
  return { request, all };
}

/** A submission the token may read: its own, or any for a token with the review scope. */
async function readableSubmission(deps: IngestDependencies, token: TokenRecord, submissionId: string): Promise<SubmissionRecord> {
  const record = await deps.submissions.getSubmission(submissionId);
  if (!record || (record.tokenName !== token.name && !token.scopes.includes('review'))) throw new ProblemError('not-found', 'No submission of this token has that id.');
  return record;
}

/** The review body: `{ decision: "approve" | "reject", note }`, every bad field named. */
function reviewBody(value: unknown): { decision: ReviewDecisionKind; note: string } {
  const errors: FieldError[] = [];
  if (!isJsonObject(value)) throw invalidReview([{ field: BODY_FIELD, message: 'must be a JSON object: { "decision": "approve" | "reject", "note": "…" }' }]);
  const body = value;
  for (const name of Object.keys(body)) if (name !== 'decision' && name !== 'note') errors.push({ field: name, message: 'is not a known field; known: decision, note' });
  if (!(REVIEW_DECISIONS as readonly unknown[]).includes(body.decision)) errors.push({ field: 'decision', message: `${body.decision === undefined ? 'is required; ' : ''}must be one of: ${REVIEW_DECISIONS.join(', ')}` });
  if (typeof body.note !== 'string' || !body.note.trim()) errors.push({ field: 'note', message: body.note === undefined ? 'is required: say why' : 'must be a non-blank string' });
  else if (body.note.trim().length > REVIEW_NOTE_MAX_LENGTH) errors.push({ field: 'note', message: `must be at most ${REVIEW_NOTE_MAX_LENGTH} characters` });
  if (errors.length) throw invalidReview(errors);
  return { decision: body.decision as ReviewDecisionKind, note: body.note as string };
}

/**
 * POST and GET /api/v1/ingest, POST /api/v1/ingest/batch, GET /api/v1/ingest/batch/{batchId},
 * GET /api/v1/ingest/{submissionId} and POST /api/v1/ingest/{submissionId}/review.
 */
export function ingestRouter(deps: IngestDependencies): Router {
  const router = new Router({ prefix: '/api/v1/ingest' });
  const current = (record: SubmissionRecord): Promise<string[]> => currentRecordIds(deps.store, record.recordIds);

  router.all('/', async (ctx) => {
    if (allowOnly(ctx, ['GET', 'HEAD', 'POST']) === 'handled') return;
    if (ctx.method !== 'POST') {
      const token = await authorizeIngest(ctx, deps, ['ingest', 'review']);
      const { request, all } = listParameters(ctx, token);
      const result = await listSubmissions(deps, request);
      if (result.kind === 'bad-cursor') throw invalidParametersProblem([BAD_CURSOR[result.problem]]);
      const items = await Promise.all(result.items.map(async (record) => presentListed(record, deps.baseUrl, await current(record), all)));
      let next: string | null = null;
      if (result.nextCursor) {
        const query = new URLSearchParams(Object.entries(ctx.query).flatMap(([name, value]) => (name === 'cursor' || typeof value !== 'string' ? [] : [[name, value]])));
        query.set('cursor', result.nextCursor);
        next = `${deps.baseUrl}/api/v1/ingest?${query.toString()}`;
      }
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { items, nextCursor: result.nextCursor, next };
      return;
    }
    const token = await authorizeIngest(ctx, deps);
    await accept(ctx, deps, token, await checkedRequest(ctx, deps, false));
  });

  router.all('/batch', async (ctx) => {
    if (allowOnly(ctx, ['POST']) === 'handled') return;
    const token = await authorizeIngest(ctx, deps);
    await accept(ctx, deps, token, await checkedRequest(ctx, deps, true));
  });

  router.all('/batch/:batchId', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    const token = await authorizeIngest(ctx, deps, ['ingest', 'review']);
    const batch = await deps.submissions.getBatch(ctx.params.batchId ?? '');
    if (!batch || (batch.tokenName !== token.name && !token.scopes.includes('review'))) throw new ProblemError('not-found', 'No batch of this token has that id.');
    const records = await deps.submissions.getSubmissions(batch.items.map((item) => item.submissionId));
    const withCurrentIds = await Promise.all(records.map(async (record) => ({ ...record, recordIds: await current(record) })));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentBatch(batch, withCurrentIds, deps.baseUrl);
  });

  router.all('/:submissionId', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    const token = await authorizeIngest(ctx, deps, ['ingest', 'review']);
    const record = await readableSubmission(deps, token, ctx.params.submissionId ?? '');
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Location', statusUrl(deps.baseUrl, record.submissionId));
    ctx.body = presentSubmission(record, deps.baseUrl, await current(record));
  });

  router.all('/:submissionId/review', async (ctx) => {
    if (allowOnly(ctx, ['POST']) === 'handled') return;
    const token = await authorizeIngest(ctx, deps, 'review');
    const { value } = await readJsonBody(ctx, INGEST_BODY_LIMIT);
    const { decision, note } = reviewBody(value);
    const result = await review(deps, { submissionId: ctx.params.submissionId ?? '', decision, note, reviewer: token.name, now: new Date() });
    if (result.kind === 'not-found') throw new ProblemError('not-found', 'No submission has that id.');
    if (result.kind === 'invalid') throw new ProblemError('invalid-parameters', `Invalid review: ${result.message}.`, { errors: [{ field: 'note', message: result.message }] });
    if (result.kind === 'not-reviewable') {
      throw new ProblemError('not-reviewable', `Only a submission in needs_review can be reviewed; this one is ${result.status}.`, { extensions: { submissionStatus: result.status } });
    }
    if (decision === 'approve') deps.notify?.();
    ctx.status = decision === 'approve' ? 202 : 200;
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Location', statusUrl(deps.baseUrl, result.record.submissionId));
    ctx.body = presentSubmission(result.record, deps.baseUrl, await current(result.record));
  });

  return router;
}
