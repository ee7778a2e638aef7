import type { CanonicalRecord } from '../domain/record.ts';
import { PROBLEM_TYPES } from '../errors.ts';
import type { ProblemType } from '../errors.ts';

/** A fragment of the OpenAPI document. */
export type JsonObject = Record<string, unknown>;

/** What every path module gets: the public base the examples name, and the demo records they name. */
export interface DocContext {
  baseUrl: string;
  /** The record the examples show and whose id they name: the demo catalog's first work (demoExamples). */
  example: CanonicalRecord;
  /** The id the demo's first records sitemap file is named by. */
  firstRecordId: string;
}

/** The problem type each status is described with, for its example. */
const PROBLEM_OF_STATUS: Record<number, { type: ProblemType; detail: string; description: string }> = {
  400: { type: 'invalid-parameters', detail: 'Invalid parameter: limit.', description: 'Invalid parameters: an RFC 9457 problem naming every bad parameter or field in `errors`.' },
  401: { type: 'unauthorized', detail: 'Send an access token: Authorization: Bearer <token>.', description: 'Missing, unknown or revoked token (with `WWW-Authenticate: Bearer`).' },
  403: { type: 'forbidden', detail: 'This token lacks the ingest scope.', description: 'The token lacks the scope this operation needs, or the browser origin is not allowed.' },
  404: { type: 'not-found', detail: 'No record has the id "svg-none-00000000".', description: 'Nothing is known under this address.' },
  405: { type: 'method-not-allowed', detail: 'POST is not allowed here; this resource is read-only.', description: 'Method not allowed; `Allow` lists the methods this address takes.' },
  409: { type: 'not-reviewable', detail: 'Only a submission in needs_review can be reviewed; this one is published.', description: 'The submission is not in needs_review.' },
  410: { type: 'gone', detail: 'The record was withdrawn from the archive.', description: 'The record was withdrawn; the problem says why and where the work came from.' },
  406: { type: 'not-acceptable', detail: 'Accept must allow application/json.', description: 'The `Accept` header excludes every type this address answers with.' },
  412: { type: 'precondition-failed', detail: 'If-Match names no version this answer has: it is tagged "1f4-mb0f3k2". Send If-Match: * or leave If-Match out.', description: '`If-Match` lists no tag of this version, compared strongly (RFC 9110 §13.1.1): a media file\'s strong tag can match; the weak tags of every other read never do, so there only `*` passes.' },
  413: { type: 'payload-too-large', detail: 'The request body is larger than this endpoint accepts.', description: 'Body over the limit of this address.' },
  415: { type: 'unsupported-media-type', detail: 'Send the body as application/json.', description: 'The body is not `application/json`.' },
  416: { type: 'range-not-satisfiable', detail: 'The file has 5120 bytes; the range asked for lies outside them.', description: 'The `Range` starts past the end of the file; `Content-Range: bytes */SIZE` gives its size.' },
  422: { type: 'idempotency-key-reused', detail: 'This Idempotency-Key was used with a different request in the last 24 hours. Use a new key for a new request.', description: 'Idempotency-Key reused with a different request.' },
  429: { type: 'too-many-requests', detail: 'Too many requests from this address: at most 600 per 60 seconds. Try again in 41 seconds.', description: 'Over a rate limit (`too-many-requests`) or, on ingest, over the token\'s daily submission quota (`quota-exceeded`). `Retry-After` says when to try again.' },
  500: { type: 'internal-error', detail: 'The service failed to answer this request. It has been logged.', description: 'The service failed; nothing internal is exposed.' },
  503: { type: 'service-unavailable', detail: 'A service behind the archive cannot be reached right now. Try again shortly.', description: 'The store or the search engine cannot be reached or stays locked; `Retry-After` says when to try again.' },
};

/** A problem+json example for a status, as the service writes it. */
export function problemExample(doc: DocContext, status: number, instance: string, detail?: string, errors?: JsonObject[]): JsonObject {
  const known = PROBLEM_OF_STATUS[status];
  if (!known) throw new Error(`no problem is described for status ${status}`);
  const type = PROBLEM_TYPES[known.type];
  return { type: `${doc.baseUrl}/problems/${known.type}`, title: type.title, status: type.status, detail: detail ?? known.detail, instance, ...(errors ? { errors } : {}) };
}

export const RATE_LIMIT_HEADERS: JsonObject = {
  RateLimit: {
    description: 'Where the client stands (draft-ietf-httpapi-ratelimit-headers): `"client";r=<left>;t=<seconds to reset>`; ingest answers add an `"ingest"` item for the token.',
    schema: { type: 'string' },
    example: '"client";r=598;t=41',
  },
  'RateLimit-Policy': {
    description: 'The policies counted: `"client";q=<quota>;w=<window seconds>` (and `"ingest"` for ingest).',
    schema: { type: 'string' },
    example: '"client";q=600;w=60',
  },
};

const RETRY_AFTER: JsonObject = { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 }, example: 41 };

export const CACHE_HEADERS: JsonObject = {
  ETag: { description: 'Weak entity tag of the body (the same in every content coding); send it back in If-None-Match to get 304.', schema: { type: 'string' }, example: 'W/"3f9c2a1b7d"' },
  'Cache-Control': { description: 'public, max-age=60 (ARCHIVE_CACHE_MAX_AGE).', schema: { type: 'string' }, example: 'public, max-age=60' },
};

/** A problem response for a status, with an example. */
export function problem(doc: DocContext, status: number, instance: string, options: { detail?: string; errors?: JsonObject[]; headers?: JsonObject } = {}): JsonObject {
  const known = PROBLEM_OF_STATUS[status];
  if (!known) throw new Error(`no problem is described for status ${status}`);
  return {
    description: known.description,
    ...(options.headers ? { headers: options.headers } : {}),
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' }, example: problemExample(doc, status, instance, options.detail, options.errors) } },
  };
}

/** A JSON response with its schema and an example. */
export function jsonResponse(description: string, schema: JsonObject, example: unknown, headers?: JsonObject, mediaType = 'application/json'): JsonObject {
  return { description, ...(headers ? { headers } : {}), content: { [mediaType]: { schema, example } } };
}

/** A text response (HTML, Markdown, CSV, XML …) with an example. */
export function textResponse(description: string, mediaType: string, example: string, headers?: JsonObject): JsonObject {
  return { description, ...(headers ? { headers } : {}), content: { [mediaType]: { schema: { type: 'string' }, example } } };
}

/** 304 for a conditional GET. */
export const NOT_MODIFIED: JsonObject = { description: 'Not modified (If-None-Match matched).' };

/** A permanent redirect to another address of the service. */
export function redirect(description: string, location: string): JsonObject {
  return { description, headers: { Location: { description: 'Where the resource is.', schema: { type: 'string' }, example: location } } };
}

/** A path parameter; the example is required (the route-coverage test builds a URL from it). */
export function pathParameter(name: string, description: string, example: string, schema: JsonObject = { type: 'string' }): JsonObject {
  return { name, in: 'path', required: true, description, schema, example };
}

/** Query parameters described by a JSON Schema from schemas/. */
/**
 * Query parameters from a schema's properties. A list (type array) is written comma-separated
 * (style form, explode false: format=svg,game). Each takes its example from `examples`, or else
 * from the first of the property's own `examples`.
 */
export function queryParameters(schema: { properties?: Record<string, JsonObject>; required?: readonly string[] }, examples: Record<string, unknown> = {}): JsonObject[] {
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    const example = name in examples ? examples[name] : Array.isArray(property.examples) ? property.examples[0] : undefined;
    const list = property.type === 'array' ? { style: 'form', explode: false } : {};
    return { name, in: 'query', required: schema.required?.includes(name) ?? false, description, ...list, schema: rest, ...(example === undefined ? {} : { example }) };
  });
}

export interface OperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  security?: JsonObject[];
  responses: Record<string, JsonObject>;
  /** Counted by the per-client rate limit: every address but the health probes and /assets/. Default true. */
  rateLimited?: boolean;
  /** Reads the store or the search engine, so it answers 503 when they cannot be reached. Default true. */
  usesStore?: boolean;
  /** The path, for the problem examples' `instance`. */
  path: string;
}

/**
 * One operation, with the answers every operation shares: the rate-limit fields on its answers
 * and 429 when it is counted, 503 with Retry-After when it needs the store, and 500.
 */
export function operation(doc: DocContext, spec: OperationSpec): JsonObject {
  const rateLimited = spec.rateLimited ?? true;
  const responses: Record<string, JsonObject> = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    responses[status] = rateLimited ? { ...response, headers: { ...RATE_LIMIT_HEADERS, ...(response.headers as JsonObject | undefined) } } : response;
  }
  if (rateLimited) responses[429] ??= problem(doc, 429, spec.path, { headers: { 'Retry-After': RETRY_AFTER, ...RATE_LIMIT_HEADERS } });
  if (spec.usesStore ?? true) responses[503] ??= problem(doc, 503, spec.path, { headers: { 'Retry-After': { ...RETRY_AFTER, example: 5 } } });
  responses[500] ??= problem(doc, 500, spec.path);
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: spec.tags,
    ...(spec.security ? { security: spec.security } : {}),
    ...(spec.parameters?.length ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses,
  };
}
