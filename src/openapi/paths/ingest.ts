import { EXAMPLE_SUBMISSION, EXAMPLE_SUBMISSION_ID, exampleSubmissionStatus } from '../examples.ts';
import { jsonResponse, operation, pathParameter, problem } from '../responses.ts';
import type { DocContext, JsonObject } from '../responses.ts';

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Retry safely: the same key and body within 24 hours get the first answer again; the same key with another body is a 422.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  example: 'pelican-2025-03-01-a',
};

const LOCATION = { Location: { description: 'The status URL.', schema: { type: 'string', format: 'uri' } } };

/** The authenticated ingest interface: one submission, a batch, and a submission's status. */
export function ingestPaths(doc: DocContext): JsonObject {
  const accepted = { submissionId: EXAMPLE_SUBMISSION_ID, status: 'queued', statusUrl: `${doc.baseUrl}/api/v1/ingest/${EXAMPLE_SUBMISSION_ID}` };
  const invalidTitle = { detail: 'Invalid submission: title.en.', errors: [{ field: 'title.en', message: 'must NOT have fewer than 1 characters' }] };
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
  return {
    '/api/v1/ingest': {
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
            'At least one item accepted; one entry per item, in order: accepted (submissionId, status, statusUrl) or `{ index, status: "rejected", errors }` naming each bad field.',
            { type: 'object', required: ['accepted', 'rejected', 'items'], properties: { accepted: { type: 'integer' }, rejected: { type: 'integer' }, items: { type: 'array', items: { type: 'object', required: ['index', 'status'] } } } },
            { accepted: 2, rejected: 0, items: [{ index: 0, ...accepted }, { index: 1, ...accepted, submissionId: `${EXAMPLE_SUBMISSION_ID.slice(0, -1)}9`, statusUrl: `${accepted.statusUrl.slice(0, -1)}9` }] },
            LOCATION,
          ),
          ...writeProblems('/api/v1/ingest/batch'),
        },
      }),
    },
    [statusPath]: {
      get: operation(doc, {
        path: statusPath,
        operationId: 'getSubmission',
        summary: "The status of a submission, with every check's verdict (only for the token that submitted it)",
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
