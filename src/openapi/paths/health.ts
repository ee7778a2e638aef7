import { jsonResponse, operation, problem } from '../responses.ts';
import type { DocContext, JsonObject } from '../responses.ts';

const NO_STORE = { 'Cache-Control': { description: 'no-store', schema: { type: 'string' }, example: 'no-store' } };

/** GET /healthz and GET /readyz, for probes: never counted by the rate limit. */
export function healthPaths(doc: DocContext): JsonObject {
  return {
    '/healthz': {
      get: operation(doc, {
        path: '/healthz',
        operationId: 'getHealth',
        summary: 'The process answers (liveness)',
        tags: ['operations'],
        rateLimited: false,
        usesStore: false,
        responses: {
          200: jsonResponse('The process is up.', { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } }, { status: 'ok' }, NO_STORE),
          405: problem(doc, 405, '/healthz'),
        },
      }),
    },
    '/readyz': {
      get: operation(doc, {
        path: '/readyz',
        operationId: 'getReadiness',
        summary: 'The store and the search index answer (readiness)',
        description: 'Answers 503 while the store or the search index cannot be reached, and from the moment the process starts shutting down, so a load balancer stops sending it requests while it drains.',
        tags: ['operations'],
        rateLimited: false,
        responses: {
          200: jsonResponse(
            'Ready, with the catalog state.',
            {
              type: 'object',
              required: ['status', 'catalog'],
              properties: {
                status: { const: 'ready' },
                catalog: { type: 'object', required: ['version', 'updated', 'total'], properties: { version: { type: 'string' }, updated: { type: ['string', 'null'] }, total: { type: 'integer', minimum: 0 } } },
              },
            },
            { status: 'ready', catalog: { version: '1.0', updated: '2026-11-20', total: 44 } },
            NO_STORE,
          ),
          405: problem(doc, 405, '/readyz'),
        },
      }),
    },
  };
}
