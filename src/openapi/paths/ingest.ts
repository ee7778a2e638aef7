import { exampleApprovedStatus, EXAMPLE_SUBMISSION, EXAMPLE_SUBMISSION_ID, exampleSubmissionStatus } from '../examples.ts';
import { SUBMISSION_STATUSES } from '../../domain/submission.ts';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../../domain/ingest/list.ts';
import { jsonResponse, operation, pathParameter, problem } from '../responses.ts';
import type { DocContext, JsonObject } from '../responses.ts';

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Retry safely: the same key and body within 24 hours get the first answer again; the same key with another body is a 422. 1–255 visible ASCII characters; any other value, an empty one too, is a 400.',
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
  example: 'pelican-2025-03-01-a',
};

const LOCATION = { Location: { description: 'The status URL.', schema: { type: 'string', format: 'uri' } } };

const EXAMPLE_BATCH_ID = 'bat_0m3x8k2q9a9b8c7d6e5f4a3b2';

/** The authenticated ingest interface: submissions one by one or in batches, their statuses, the token's list, and review. */
export function ingestPaths(doc: DocContext): JsonObject {
  const accepted = { submissionId: EXAMPLE_SUBMISSION_ID, status: 'queued', statusUrl: `${doc.baseUrl}/api/v1/ingest/${EXAMPLE_SUBMISSION_ID}` };
  const invalidTitle = { detail: 'Invalid submission: title.en.', errors: [{ field: 'title.en', message: 'must not be blank' }] };
  const writeProblems = (path: string) => ({
    400: problem(doc, 400, path, invalidTitle),
    401: problem(doc, 401, path),
    403: problem(doc, 403, path),
    405: problem(doc, 405, path, { detail: 'GET is not allowed here.' }),
    413: problem(doc, 413, path),
    415: problem(doc, 415, path),
    422: problem(doc, 422, path),
  });
  const statusPath = '/api/v1/ingest/{submissionId}';
  const batchPath = '/api/v1/ingest/batch/{batchId}';
  const reviewPath = '/api/v1/ingest/{submissionId}/review';
  const batchUrl = `${doc.baseUrl}/api/v1/ingest/batch/${EXAMPLE_BATCH_ID}`;
  const status = exampleSubmissionStatus(doc.baseUrl);
  return {
    '/api/v1/ingest': {
      get: operation(doc, {
        path: '/api/v1/ingest',
        operationId: 'listSubmissions',
        summary: "The token's own submissions, newest first, a page at a time (a review token may ask for every token's with all=true)",
        tags: ['ingest'],
        security: [{ bearer: [] }],
        parameters: [
          { name: 'status', in: 'query', required: false, description: 'Only submissions in this status.', schema: { type: 'string', enum: [...SUBMISSION_STATUSES] }, example: 'needs_review' },
          { name: 'since', in: 'query', required: false, description: 'Only submissions made at or after this date (UTC) or date and time.', schema: { type: 'string' }, example: '2026-11-20' },
          { name: 'cursor', in: 'query', required: false, description: 'The nextCursor of the previous page.', schema: { type: 'string' } },
          { name: 'limit', in: 'query', required: false, description: `Items per page, 1 to ${LIST_MAX_LIMIT}; default ${LIST_DEFAULT_LIMIT}.`, schema: { type: 'integer', minimum: 1, maximum: LIST_MAX_LIMIT, default: LIST_DEFAULT_LIMIT }, example: 20 },
          { name: 'all', in: 'query', required: false, description: "true: every token's submissions, each with submittedBy (a token with the review scope only).", schema: { type: 'boolean', default: false } },
        ],
        responses: {
          200: jsonResponse('One page of submissions with each one\'s status and checks.', { $ref: '#/components/schemas/SubmissionList' }, { items: [status], nextCursor: null, next: null }),
          400: problem(doc, 400, '/api/v1/ingest', { detail: 'Invalid parameter: status.', errors: [{ parameter: 'status', message: `must be one of: ${SUBMISSION_STATUSES.join(', ')}` }] }),
          401: problem(doc, 401, '/api/v1/ingest'),
          403: problem(doc, 403, '/api/v1/ingest'),
          405: problem(doc, 405, '/api/v1/ingest', { detail: 'PUT is not allowed here.' }),
        },
      }),
      post: operation(doc, {
        path: '/api/v1/ingest',
        operationId: 'submitWork',
        summary: 'Submit one work',
        tags: ['ingest'],
        security: [{ bearer: [] }],
        parameters: [IDEMPOTENCY_KEY],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Submission' }, example: EXAMPLE_SUBMISSION } } },
        responses: {
          202: jsonResponse('Accepted and queued; Location is the status URL.', { $ref: '#/components/schemas/Accepted' }, accepted, LOCATION),
          ...writeProblems('/api/v1/ingest'),
        },
      }),
    },
    '/api/v1/ingest/batch': {
      post: operation(doc, {
        path: '/api/v1/ingest/batch',
        operationId: 'submitWorks',
        summary: 'Submit up to 100 works; every valid item is accepted even when neighbours are invalid',
        tags: ['ingest'],
        security: [{ bearer: [] }],
        parameters: [IDEMPOTENCY_KEY],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', additionalProperties: false, required: ['submissions'], properties: { submissions: { type: 'array', minItems: 1, maxItems: 100, items: { $ref: '#/components/schemas/Submission' } } } },
              example: { submissions: [EXAMPLE_SUBMISSION, { ...EXAMPLE_SUBMISSION, sourceUrl: 'https://github.com/demo-owner/pelican-2', date: '2025-03-02' }] },
            },
          },
        },
        responses: {
          202: jsonResponse(
            'At least one item accepted; one entry per item, in order: accepted (submissionId, status, statusUrl) or `{ index, status: "rejected", errors }` naming each bad field. `batchUrl` (also in Location) follows the whole batch.',
            { type: 'object', required: ['batchId', 'batchUrl', 'accepted', 'rejected', 'items'], properties: { batchId: { type: 'string' }, batchUrl: { type: 'string', format: 'uri' }, accepted: { type: 'integer' }, rejected: { type: 'integer' }, items: { type: 'array', items: { type: 'object', required: ['index', 'status'] } } } },
            { batchId: EXAMPLE_BATCH_ID, batchUrl, accepted: 2, rejected: 0, items: [{ index: 0, ...accepted }, { index: 1, ...accepted, submissionId: `${EXAMPLE_SUBMISSION_ID.slice(0, -1)}9`, statusUrl: `${accepted.statusUrl.slice(0, -1)}9` }] },
            LOCATION,
          ),
          ...writeProblems('/api/v1/ingest/batch'),
        },
      }),
    },
    [batchPath]: {
      get: operation(doc, {
        path: batchPath,
        operationId: 'getBatch',
        summary: 'How many submissions of a batch are in each status now, and each item',
        tags: ['ingest'],
        security: [{ bearer: [] }],
        parameters: [pathParameter('batchId', 'The batchId the 202 answer gave.', EXAMPLE_BATCH_ID)],
        responses: {
          200: jsonResponse('The batch.', { $ref: '#/components/schemas/BatchStatus' }, {
            batchId: EXAMPLE_BATCH_ID,
            batchUrl,
            submittedAt: '2026-11-21T09:14:03.512Z',
            accepted: 1,
            rejected: 1,
            counts: { queued: 0, processing: 0, published: 1, duplicate: 0, needs_review: 0, rejected: 0 },
            items: [
              { index: 0, submissionId: EXAMPLE_SUBMISSION_ID, status: 'published', statusUrl: status.statusUrl, recordIds: status.recordIds, duplicateOf: null, reason: null },
              { index: 1, status: 'rejected', errors: [{ field: 'submissions[1].date', message: 'must match format "date"' }] },
            ],
          }),
          401: problem(doc, 401, batchPath),
          403: problem(doc, 403, batchPath),
          404: problem(doc, 404, batchPath, { detail: 'No batch of this token has that id.' }),
          405: problem(doc, 405, batchPath),
        },
      }),
    },
    [reviewPath]: {
      post: operation(doc, {
        path: reviewPath,
        operationId: 'reviewSubmission',
        summary: 'Approve or reject a submission in needs_review (token with the review scope)',
        description: 'approve returns it to the queue and the publisher publishes it, recording every check that did not pass as overridden by the reviewer with the note (202); reject makes it final as rejected (200). Either decision joins the submission\'s reviews.',
        tags: ['ingest'],
        security: [{ bearer: [] }],
        parameters: [pathParameter('submissionId', 'A submission in needs_review.', EXAMPLE_SUBMISSION_ID)],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', additionalProperties: false, required: ['decision', 'note'], properties: { decision: { type: 'string', enum: ['approve', 'reject'] }, note: { type: 'string', minLength: 1, maxLength: 2000, description: 'Why: kept in the history and in every overridden check.' } } },
              example: { decision: 'approve', note: 'A different drawing by the same author; the resemblance is the subject.' },
            },
          },
        },
        responses: {
          200: jsonResponse('Rejected: the submission\'s status, now final.', { $ref: '#/components/schemas/SubmissionStatus' }, { ...status, status: 'rejected', recordIds: [], reason: 'Rejected by lin-reviewer: not a model\'s work.', reviews: [{ decision: 'reject', by: 'lin-reviewer', note: 'not a model\'s work', at: '2026-11-21T10:02:00.000Z', from: 'needs_review' }] }),
          202: jsonResponse('Approved: queued for the publisher; follow the status URL (also in Location).', { $ref: '#/components/schemas/SubmissionStatus' }, exampleApprovedStatus(doc.baseUrl), LOCATION),
          400: problem(doc, 400, reviewPath, { detail: 'Invalid review: decision.', errors: [{ field: 'decision', message: 'must be one of: approve, reject' }] }),
          401: problem(doc, 401, reviewPath),
          403: problem(doc, 403, reviewPath, { detail: 'This token lacks the "review" scope.' }),
          404: problem(doc, 404, reviewPath, { detail: 'No submission has that id.' }),
          405: problem(doc, 405, reviewPath),
          409: problem(doc, 409, reviewPath, { detail: 'Only a submission in needs_review can be reviewed; this one is published.' }),
          413: problem(doc, 413, reviewPath),
          415: problem(doc, 415, reviewPath),
        },
      }),
    },
    [statusPath]: {
      get: operation(doc, {
        path: statusPath,
        operationId: 'getSubmission',
        summary: "The status of a submission, with every check's verdict and review decision (for the token that submitted it, or a review token)",
        tags: ['ingest'],
        security: [{ bearer: [] }],
        parameters: [pathParameter('submissionId', 'The id the 202 answer gave.', EXAMPLE_SUBMISSION_ID)],
        responses: {
          200: jsonResponse('The submission status.', { $ref: '#/components/schemas/SubmissionStatus' }, exampleSubmissionStatus(doc.baseUrl)),
          401: problem(doc, 401, statusPath),
          403: problem(doc, 403, statusPath),
          404: problem(doc, 404, statusPath, { detail: 'No submission of this token has that id.' }),
          405: problem(doc, 405, statusPath),
        },
      }),
    },
  };
}
