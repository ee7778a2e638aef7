import Router from '@koa/router';
import type { Context } from 'koa';
import { createHash } from 'node:crypto';
import type { IdempotencyRequest, SubmissionQueue, TokenStore } from '../../domain/ports.ts';
import type { Submission, SubmissionRecord, TokenRecord } from '../../domain/submission.ts';
import { ProblemError } from '../../errors.ts';
import type { FieldError } from '../../errors.ts';
import { checkSubmission } from '../../validation/submission.ts';
import { readJsonBody } from '../body.ts';
import { authorize } from '../middlewares/auth.ts';
import { presentAccepted, presentSubmission, statusUrl } from './presenter.ts';
import { allowOnly, readOnly } from '../read-route.ts';
import { enforce } from '../middlewares/rate-limit.ts';
import type { RefusalListener } from '../middlewares/rate-limit.ts';
import type { RateLimiter } from '../../rate-limit/limiter.ts';

/** Largest body of POST /api/v1/ingest; a batch may carry up to 100 times as much. */
export const INGEST_BODY_LIMIT = 256 * 1024;
export const BATCH_LIMIT = 100;

export interface IngestDependencies {
  tokens: TokenStore;
  submissions: SubmissionQueue;
  baseUrl: string;
  /** Wakes the in-process publisher after new submissions (embedded deployment). */
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

/** The token behind the request, counted against the per-token ingest limit. */
async function authorizeIngest(ctx: Context, deps: IngestDependencies): Promise<TokenRecord> {
  const token = await authorize(ctx, deps.tokens, 'ingest');
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

function idempotencyKey(ctx: Context): string | undefined {
  const key = ctx.get('Idempotency-Key');
  if (!key) return undefined;
  if (key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ProblemError('invalid-parameters', 'Idempotency-Key must be 1–255 visible ASCII characters.', { errors: [{ parameter: 'Idempotency-Key', message: 'must be 1–255 visible ASCII characters' }] });
  }
  return key;
}

function invalidBody(errors: FieldError[]): ProblemError {
  return new ProblemError('invalid-parameters', `Invalid submission: ${[...new Set(errors.map((error) => error.field))].join(', ')}.`, { errors });
}

/** Enqueues, honouring Idempotency-Key, and sends the (first) answer. */
async function accept(ctx: Context, deps: IngestDependencies, tokenName: string, submissions: Submission[], raw: Buffer, render: (records: readonly SubmissionRecord[]) => { status: number; body: string }): Promise<void> {
  const key = idempotencyKey(ctx);
  const idempotency: IdempotencyRequest | undefined = key
    ? { tokenName, key, requestSha256: createHash('sha256').update(ctx.path).update('\n').update(raw).digest('hex'), render }
    : undefined;
  const quota = deps.dailyQuota ? { limit: deps.dailyQuota } : undefined;
  const result = await deps.submissions.enqueue(submissions.map((submission) => ({ tokenName, submission })), idempotency, quota);
  if (result.kind === 'over-quota') {
    deps.refused?.('quota');
    const left = Math.max(0, result.limit - result.used);
    throw new ProblemError('quota-exceeded', `This token may make ${result.limit} submissions per UTC day; ${result.used} were made today, so ${left} more can be accepted. Nothing from this request was accepted.`, {
      headers: { 'Retry-After': String(secondsUntilNextUtcDay()) },
    });
  }
  if (result.kind === 'key-reused') {
    throw new ProblemError('idempotency-key-reused', 'This Idempotency-Key was used with a different request in the last 24 hours. Use a new key for a new request.', {
      errors: [{ parameter: 'Idempotency-Key', message: 'was used with a different request' }],
    });
  }
  const answer = result.kind === 'replay' ? result.answer : render(result.records);
  if (result.kind === 'replay') ctx.set('Idempotent-Replayed', 'true');
  else deps.notify?.();
  ctx.status = answer.status;
  ctx.type = 'application/json; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  const first = JSON.parse(answer.body) as { statusUrl?: string };
  if (first.statusUrl) ctx.set('Location', first.statusUrl);
  ctx.body = answer.body;
}

/** POST /api/v1/ingest, POST /api/v1/ingest/batch and GET /api/v1/ingest/{submissionId}. */
export function ingestRouter(deps: IngestDependencies): Router {
  const router = new Router({ prefix: '/api/v1/ingest' });

  router.all('/', async (ctx) => {
    if (allowOnly(ctx, ['POST']) === 'handled') return;
    const token = await authorizeIngest(ctx, deps);
    const { value, raw } = await readJsonBody(ctx, INGEST_BODY_LIMIT);
    const checked = checkSubmission(value);
    if (!checked.ok) throw invalidBody(checked.errors);
    await accept(ctx, deps, token.name, [checked.submission], raw, (records) => ({
      status: 202,
      body: JSON.stringify(presentAccepted(records[0] as SubmissionRecord, deps.baseUrl)),
    }));
  });

  router.all('/batch', async (ctx) => {
    if (allowOnly(ctx, ['POST']) === 'handled') return;
    const token = await authorizeIngest(ctx, deps);
    const { value, raw } = await readJsonBody(ctx, INGEST_BODY_LIMIT * 8);
    const list = (value as { submissions?: unknown })?.submissions;
    const extra = value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).filter((name) => name !== 'submissions') : [];
    if (!Array.isArray(list) || list.length < 1 || list.length > BATCH_LIMIT || extra.length) {
      throw invalidBody([
        ...(Array.isArray(list) ? [] : [{ field: 'submissions', message: 'is required: an array of submissions' }]),
        ...(Array.isArray(list) && (list.length < 1 || list.length > BATCH_LIMIT) ? [{ field: 'submissions', message: `must hold 1 to ${BATCH_LIMIT} submissions` }] : []),
        ...extra.map((name) => ({ field: name, message: 'is not a known field; known: submissions' })),
      ]);
    }
    const outcomes = list.map((item, index) => ({ index, ...checkSubmission(item, `submissions[${index}]`) }));
    const valid = outcomes.filter((outcome): outcome is { index: number; ok: true; submission: Submission } => outcome.ok);
    const rejected = outcomes.filter((outcome): outcome is { index: number; ok: false; errors: FieldError[] } => !outcome.ok);
    if (valid.length === 0) throw invalidBody(rejected.flatMap((outcome) => outcome.errors));
    await accept(ctx, deps, token.name, valid.map((outcome) => outcome.submission), raw, (records) => {
      const byIndex = new Map(valid.map((outcome, position) => [outcome.index, records[position] as SubmissionRecord]));
      const items = list.map((_, index) => {
        const record = byIndex.get(index);
        if (record) return { index, ...presentAccepted(record, deps.baseUrl) };
        return { index, status: 'rejected', errors: rejected.find((outcome) => outcome.index === index)?.errors ?? [] };
      });
      return { status: 202, body: JSON.stringify({ accepted: valid.length, rejected: rejected.length, items }) };
    });
  });

  router.all('/:submissionId', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    const token = await authorizeIngest(ctx, deps);
    const record = await deps.submissions.getSubmission(ctx.params.submissionId ?? '');
    if (!record || record.tokenName !== token.name) throw new ProblemError('not-found', 'No submission of this token has that id.');
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Location', statusUrl(deps.baseUrl, record.submissionId));
    ctx.body = presentSubmission(record, deps.baseUrl);
  });

  return router;
}
