import { PROBLEM_TYPES, problemTypeText } from '../../errors.ts';
import { CACHE_HEADERS, NOT_MODIFIED, operation, pathParameter, problem, textResponse } from '../responses.ts';
import type { DocContext, JsonObject } from '../responses.ts';

/** GET /problems/{name}: the documentation every problem body's `type` points to. */
export function problemPaths(doc: DocContext): JsonObject {
  return {
    '/problems/{name}': {
      get: operation(doc, {
        path: '/problems/invalid-parameters',
        operationId: 'getProblemType',
        summary: 'What a problem type means and what to do about it',
        description: 'Every error answer is RFC 9457 application/problem+json whose `type` is one of these addresses; each answers a short Markdown page saying what the problem means and how to recover.',
        tags: ['operations'],
        usesStore: false,
        parameters: [pathParameter('name', 'The problem type, the last segment of a problem body\'s `type`.', 'invalid-parameters', { type: 'string', enum: Object.keys(PROBLEM_TYPES) })],
        responses: {
          200: textResponse('The documentation of the problem type, as Markdown.', 'text/markdown', problemTypeText('invalid-parameters', doc.baseUrl), CACHE_HEADERS),
          304: NOT_MODIFIED,
          404: problem(doc, 404, '/problems/unheard-of', { detail: 'No problem type is named "unheard-of".' }),
          405: problem(doc, 405, '/problems/invalid-parameters'),
        },
      }),
    },
  };
}
