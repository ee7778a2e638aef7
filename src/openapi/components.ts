import { SCHEMAS } from '../validation/schemas.ts';
import submissionSchema from '../../schemas/submission.schema.json' with { type: 'json' };
import { PROBLEM_TYPES } from '../errors.ts';
import { CHECK_NAMES, CHECK_OUTCOMES, REVIEW_DECISIONS, SUBMISSION_STATUSES } from '../domain/submission.ts';
import type { JsonObject } from './responses.ts';

/** Names the schemas carry in components, keyed by their $id. */
const COMPONENT_NAMES: Record<string, string> = {
  'record.schema.json': 'Specimen',
  'list-response.schema.json': 'SpecimenList',
  'problem.schema.json': 'Problem',
  'source-list.schema.json': 'SourceList',
  'removal-list.schema.json': 'RemovalList',
};

/**
 * A schema from schemas/ as an OpenAPI component: $schema and $id dropped, file references turned
 * into component references, and its own $defs lifted into components named after it.
 */
function asComponent(schema: object, name: string, lifted: JsonObject): JsonObject {
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      const out: JsonObject = {};
      for (const [key, inner] of Object.entries(value as JsonObject)) {
        if (key === '$schema' || key === '$id' || key === '$defs') continue;
        if (key === '$ref' && typeof inner === 'string') {
          const local = /^#\/\$defs\/(.+)$/.exec(inner)?.[1];
          out[key] = local ? `#/components/schemas/${name}_${local}` : COMPONENT_NAMES[inner] ? `#/components/schemas/${COMPONENT_NAMES[inner]}` : inner;
        } else out[key] = rewrite(inner);
      }
      return out;
    }
    return value;
  };
  for (const [definition, body] of Object.entries((schema as { $defs?: JsonObject }).$defs ?? {})) lifted[`${name}_${definition}`] = rewrite(body);
  return rewrite(schema) as JsonObject;
}

/** JSON-RPC 2.0 as the MCP endpoint takes and answers it. */
const JSON_RPC_REQUEST: JsonObject = {
  type: 'object',
  description: 'A JSON-RPC 2.0 request or notification (MCP: initialize, tools/list, tools/call, resources/list, resources/read …).',
  required: ['jsonrpc', 'method'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer'], description: 'Absent for a notification, which is answered 202 without a body.' },
    method: { type: 'string' },
    params: { type: 'object' },
  },
};

const JSON_RPC_RESPONSE: JsonObject = {
  type: 'object',
  description: 'A JSON-RPC 2.0 response: `result`, or `error` with a code and message. A failed tool call is a result with `isError: true`.',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    result: { type: 'object' },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
  },
};

/** The components section: every shape the operations name. */
export function components(baseUrl: string): JsonObject {
  const lifted: JsonObject = {};
  return {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An access token created with npm run tokens; scopes ingest, export and review.' } },
    schemas: {
      Submission: asComponent(submissionSchema, 'Submission', lifted),
      Accepted: {
        type: 'object',
        required: ['submissionId', 'status', 'statusUrl'],
        properties: { submissionId: { type: 'string' }, status: { const: 'queued' }, statusUrl: { type: 'string', format: 'uri' } },
      },
      SubmissionStatus: {
        type: 'object',
        required: ['submissionId', 'status', 'statusUrl', 'submittedAt', 'updatedAt', 'attempts', 'checks', 'recordIds', 'duplicateOf', 'reason', 'reviews', 'batchUrl'],
        properties: {
          submissionId: { type: 'string' },
          status: { type: 'string', enum: [...SUBMISSION_STATUSES], description: 'rejected is reached only by a maintainer\'s review decision.' },
          statusUrl: { type: 'string', format: 'uri' },
          submittedAt: { type: 'string', format: 'date-time' },
          updatedAt: { type: 'string', format: 'date-time' },
          attempts: { type: 'integer', minimum: 0 },
          checks: { type: 'array', items: { $ref: '#/components/schemas/CheckVerdict' } },
          recordIds: { type: 'array', items: { type: 'string' }, description: 'The current ids of the records it published: an id that has since moved shows where it went.' },
          duplicateOf: { type: ['string', 'null'] },
          reason: { type: ['string', 'null'] },
          reviews: { type: 'array', items: { $ref: '#/components/schemas/ReviewDecision' }, description: 'Every maintainer decision, oldest first.' },
          batchUrl: { type: ['string', 'null'], format: 'uri', description: 'The batch it came in, if any.' },
          submittedBy: { type: 'string', description: 'The submitting token, in a reviewer\'s list of every token\'s submissions (all=true).' },
        },
      },
      CheckVerdict: {
        type: 'object',
        required: ['name', 'outcome', 'detail'],
        properties: {
          name: { type: 'string', enum: [...CHECK_NAMES] },
          outcome: { type: 'string', enum: [...CHECK_OUTCOMES], description: 'pending: runs in a later attempt; skipped: never ran, because a check that needs no fetch had already failed or the previews did not load.' },
          detail: { type: 'string' },
          override: { type: 'object', required: ['by', 'note', 'at'], properties: { by: { type: 'string' }, note: { type: 'string' }, at: { type: 'string', format: 'date-time' } }, description: 'A maintainer approved the work although this check did not pass.' },
        },
      },
      ReviewDecision: {
        type: 'object',
        required: ['decision', 'by', 'note', 'at', 'from'],
        properties: { decision: { type: 'string', enum: [...REVIEW_DECISIONS] }, by: { type: 'string' }, note: { type: 'string' }, at: { type: 'string', format: 'date-time' }, from: { type: 'string', enum: ['needs_review'] } },
      },
      SubmissionList: {
        type: 'object',
        required: ['items', 'nextCursor', 'next'],
        properties: {
          items: { type: 'array', items: { $ref: '#/components/schemas/SubmissionStatus' } },
          nextCursor: { type: ['string', 'null'], description: 'Give it as cursor for the next page; null on the last page.' },
          next: { type: ['string', 'null'], format: 'uri', description: 'The next page\'s address.' },
        },
      },
      BatchStatus: {
        type: 'object',
        required: ['batchId', 'batchUrl', 'submittedAt', 'accepted', 'rejected', 'counts', 'items'],
        properties: {
          batchId: { type: 'string' },
          batchUrl: { type: 'string', format: 'uri' },
          submittedAt: { type: 'string', format: 'date-time' },
          accepted: { type: 'integer', description: 'Items accepted as submissions.' },
          rejected: { type: 'integer', description: 'Items refused by validation (never submissions).' },
          counts: { type: 'object', additionalProperties: { type: 'integer' }, description: 'How many of its submissions are in each status now.' },
          items: { type: 'array', items: { type: 'object', required: ['index', 'status'] } },
        },
      },
      Specimen: asComponent(SCHEMAS.record, 'Specimen', lifted),
      SpecimenList: asComponent(SCHEMAS.listResponse, 'SpecimenList', lifted),
      SourceList: asComponent(SCHEMAS.sourceList, 'SourceList', lifted),
      RemovalList: asComponent(SCHEMAS.removalList, 'RemovalList', lifted),
      JsonRpcRequest: JSON_RPC_REQUEST,
      JsonRpcResponse: JSON_RPC_RESPONSE,
      ...lifted,
      Problem: { ...asComponent(SCHEMAS.problem, 'Problem', lifted), description: `RFC 9457 problem details. Types: ${Object.keys(PROBLEM_TYPES).map((type) => `${baseUrl}/problems/${type}`).join(', ')}.` },
      WithdrawnProblem: {
        description: 'The problem a withdrawn record id answers (410, type gone): the Problem members and what was withdrawn, when, why, and where the work was published.',
        allOf: [{ $ref: '#/components/schemas/Problem' }],
        required: ['id', 'withdrawnAt', 'reason', 'sourceUrl', 'workTitle'],
        properties: {
          id: { type: 'string', description: 'The id asked for.' },
          withdrawnAt: { type: 'string', format: 'date-time' },
          reason: { type: 'string', description: "The maintainer's reason, as written (any language)." },
          sourceUrl: { type: 'string', format: 'uri', description: 'Where the work was published.' },
          workTitle: { type: 'object', required: ['zh', 'en'], properties: { zh: { type: 'string' }, en: { type: 'string' } } },
          movedVia: { type: 'array', items: { type: 'string' }, description: 'The ids the asked one moved through before the record was withdrawn, when it had moved.' },
        },
      },
    },
  };
}
