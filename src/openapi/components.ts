import { SCHEMAS } from '../validation/schemas.ts';
import submissionSchema from '../../schemas/submission.schema.json' with { type: 'json' };
import { PROBLEM_TYPES } from '../errors.ts';
import { CHECK_NAMES } from '../domain/submission.ts';
import type { JsonObject } from './responses.ts';

/** Names the schemas carry in components, keyed by their $id. */
const COMPONENT_NAMES: Record<string, string> = {
  'record.schema.json': 'Specimen',
  'list-response.schema.json': 'SpecimenList',
  'problem.schema.json': 'Problem',
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
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An access token created with npm run tokens; scopes ingest and export.' } },
    schemas: {
      Submission: asComponent(submissionSchema, 'Submission', lifted),
      Accepted: {
        type: 'object',
        required: ['submissionId', 'status', 'statusUrl'],
        properties: { submissionId: { type: 'string' }, status: { const: 'queued' }, statusUrl: { type: 'string', format: 'uri' } },
      },
      SubmissionStatus: {
        type: 'object',
        required: ['submissionId', 'status', 'statusUrl', 'submittedAt', 'updatedAt', 'attempts', 'checks', 'recordIds', 'duplicateOf', 'reason'],
        properties: {
          submissionId: { type: 'string' },
          status: { type: 'string', enum: ['queued', 'processing', 'published', 'duplicate', 'needs_review'] },
          statusUrl: { type: 'string', format: 'uri' },
          submittedAt: { type: 'string', format: 'date-time' },
          updatedAt: { type: 'string', format: 'date-time' },
          attempts: { type: 'integer', minimum: 0 },
          checks: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'outcome', 'detail'],
              properties: { name: { type: 'string', enum: [...CHECK_NAMES] }, outcome: { type: 'string', enum: ['pass', 'fail', 'error'] }, detail: { type: 'string' } },
            },
          },
          recordIds: { type: 'array', items: { type: 'string' } },
          duplicateOf: { type: ['string', 'null'] },
          reason: { type: ['string', 'null'] },
        },
      },
      Specimen: asComponent(SCHEMAS.record, 'Specimen', lifted),
      SpecimenList: asComponent(SCHEMAS.listResponse, 'SpecimenList', lifted),
      JsonRpcRequest: JSON_RPC_REQUEST,
      JsonRpcResponse: JSON_RPC_RESPONSE,
      ...lifted,
      Problem: { ...asComponent(SCHEMAS.problem, 'Problem', lifted), description: `RFC 9457 problem details. Types: ${Object.keys(PROBLEM_TYPES).map((type) => `${baseUrl}/problems/${type}`).join(', ')}.` },
    },
  };
}
