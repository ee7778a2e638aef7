import { presentSources } from '../../domain/source-list.ts';
import { BUILT_IN_SOURCE_TABLE } from '../../domain/sources.ts';
import { encodeRemovalCursor } from '../../domain/removals.ts';
import type { RemovalList } from '../../domain/removals.ts';
import { recordQueryParamsSchema, SCHEMAS, timelineParamsSchema } from '../../validation/schemas.ts';
import { exampleFacetedList, exampleFirstPageCursor, exampleRecord } from '../examples.ts';
import { CACHE_HEADERS, jsonResponse, NOT_MODIFIED, operation, pathParameter, problem, problemExample, queryParameters } from '../responses.ts';
import type { DocContext, JsonObject } from '../responses.ts';

type Properties = { properties: Record<string, JsonObject> };

const SEARCH_EXAMPLES = { q: 'pelican', source: ['x'], format: ['svg', 'game'], kind: ['gallery'], year: ['2025'], model: ['GPT-4o'], author: ['@demo_mira'], from: '2024-01-01', to: '2025-12-31', since: '2026-11-20', facets: ['format', 'year', 'model'], lang: 'en', sort: 'newest', limit: 20, offset: 0 };

const LINK_HEADER = { description: 'The next page: `<…&cursor=…>; rel="next"` (the same parameters, the offset replaced by the cursor), absent on the last page.', schema: { type: 'string' } };

function listOperation(doc: DocContext, path: string, operationId: string, summary: string, description: string, parameters: JsonObject[]): JsonObject {
  return operation(doc, {
    path,
    operationId,
    summary,
    description,
    tags: ['records'],
    parameters,
    responses: {
      200: jsonResponse('One page of matching records with the exact total, the cursor of the next page and, when asked, facet counts.', { $ref: '#/components/schemas/SpecimenList' }, exampleFacetedList(doc), { ...CACHE_HEADERS, Link: LINK_HEADER }),
      304: NOT_MODIFIED,
      400: problem(doc, 400, path, { detail: 'Invalid parameter: limit.', errors: [{ parameter: 'limit', message: 'must be <= 50' }] }),
      405: problem(doc, 405, path),
    },
  });
}

/** A page of the removals list as the example of GET /api/v1/removals gives it. */
function exampleRemovals(doc: DocContext): RemovalList {
  const moved = { id: 'svg-gpt-4o-timeline-1a2b3c4d', fate: 'moved' as const, at: '2026-11-21T08:00:00.000Z', movedTo: 'svg-gpt-4o-9e8d7c6b', reason: 'The timeline of GPT-4o starts with an earlier archived work.' };
  const withdrawn = { id: doc.example.id, fate: 'withdrawn' as const, at: '2026-11-22T09:15:00.000Z', reason: 'The author asked for the work to be taken down.' };
  return { total: 3, limit: 2, items: [moved, withdrawn], next: encodeRemovalCursor('2026-11-20', withdrawn) };
}

/** The 410 of a withdrawn record id, with the members only it carries. */
function withdrawnProblem(doc: DocContext, recordPath: string): JsonObject {
  const withdrawn = { id: doc.example.id, withdrawnAt: '2026-11-22T09:15:00.000Z', reason: 'The author asked for the work to be taken down.', sourceUrl: doc.example.sourceUrl, workTitle: doc.example.title };
  const detail = `${withdrawn.reason} It was withdrawn on 2026-11-22; the work was published at ${withdrawn.sourceUrl}.`;
  const { content: _content, ...described } = problem(doc, 410, recordPath);
  return { ...described, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/WithdrawnProblem' }, example: { ...problemExample(doc, 410, `/api/v1/specimens/${doc.example.id}`, detail), ...withdrawn } } } };
}

/** GET /api/v1/specimens, /api/v1/specimens/{id}, /api/v1/sources, /api/v1/removals and /api/v1/timeline. */
export function readApiPaths(doc: DocContext): JsonObject {
  const recordQuery = queryParameters(recordQueryParamsSchema() as Properties, { lang: 'en' });
  const idSchema = (SCHEMAS.recordParams.properties as Record<string, JsonObject>).id ?? {};
  const recordPath = '/api/v1/specimens/{id}';
  return {
    '/api/v1/specimens': {
      get: listOperation(
        doc,
        '/api/v1/specimens',
        'searchSpecimens',
        'Search archive records',
        'Typo-tolerant words, prefix on the last word, any 2+ character Chinese substring (a longer run also as its words apart, after), "quoted phrases", -word to exclude and OR, over the text of both languages. Filters take one value or several (comma-separated, any of them) and combine with AND; facets counts records per value. Ordered by relevance with q, else newest first. Pages hold at most 50 records; offsets stop at 10,000, and every page\'s next (also in Link: rel="next") pages on to the end as cursor.',
        queryParameters(SCHEMAS.searchParams as Properties, { ...SEARCH_EXAMPLES, cursor: exampleFirstPageCursor(doc, 'specimens') }),
      ),
    },
    [recordPath]: {
      get: operation(doc, {
        path: recordPath,
        operationId: 'getSpecimen',
        summary: 'Get one archive record',
        tags: ['records'],
        parameters: [pathParameter('id', String(idSchema.description ?? 'Record id.'), doc.example.id, { type: 'string', minLength: 1, maxLength: 128 }), ...recordQuery],
        responses: {
          200: jsonResponse('The record in the asked language.', { $ref: '#/components/schemas/Specimen' }, exampleRecord(doc), CACHE_HEADERS),
          304: NOT_MODIFIED,
          301: {
            description: 'The record moved: its work is now held by another record (a timeline record that gave way to an earlier work of its model). `Location` and `Link: <…>; rel="canonical"` name the current address, the query kept.',
            headers: {
              Location: { description: 'The current address.', schema: { type: 'string', format: 'uri' }, example: `${doc.baseUrl}/api/v1/specimens/${doc.example.id}?lang=en` },
              Link: { description: 'The same address as rel="canonical".', schema: { type: 'string' }, example: `<${doc.baseUrl}/api/v1/specimens/${doc.example.id}?lang=en>; rel="canonical"` },
            },
          },
          400: problem(doc, 400, recordPath, { detail: 'Invalid parameter: lang.', errors: [{ parameter: 'lang', message: 'must be one of: zh, en' }] }),
          404: problem(doc, 404, recordPath),
          405: problem(doc, 405, recordPath),
          410: withdrawnProblem(doc, recordPath),
        },
      }),
    },
    '/api/v1/sources': {
      get: operation(doc, {
        path: '/api/v1/sources',
        operationId: 'listSources',
        summary: 'List the archive\'s sources',
        description: 'Every key the source filter of /api/v1/specimens and /api/v1/timeline takes (and a record\'s source holds), with its label in Chinese and English and the hosts whose URLs belong to it. Maintainers add sources, so clients read this list instead of fixing one; it changes with the catalog\'s change number (ETag). Takes no parameters.',
        tags: ['records'],
        responses: {
          200: jsonResponse('The sources, in key order, web (every other site) last.', { $ref: '#/components/schemas/SourceList' }, presentSources(BUILT_IN_SOURCE_TABLE), CACHE_HEADERS),
          304: NOT_MODIFIED,
          400: problem(doc, 400, '/api/v1/sources', { detail: 'Invalid parameter: lang.', errors: [{ parameter: 'lang', message: 'is not a known parameter; this resource takes none' }] }),
          405: problem(doc, 405, '/api/v1/sources'),
        },
      }),
    },
    '/api/v1/removals': {
      get: operation(doc, {
        path: '/api/v1/removals',
        operationId: 'listRemovals',
        summary: 'List the record ids removed since a day',
        description:
          'For clients that keep a copy in sync with /api/v1/specimens?since=: that list only adds and updates records, so ask here with the same since day and delete the ids listed. Each id was withdrawn (it answers 410) or moved (it answers 301 to the record holding its work now, movedTo). Ordered by when the id was removed, then by id; every page\'s next (also in Link: rel="next") continues the walk, and ids removed during it come on later pages. An id published again is a record again and is not listed.',
        tags: ['records'],
        parameters: queryParameters(SCHEMAS.removalsParams as Properties & { required: string[] }, { since: '2026-11-20', limit: 2 }),
        responses: {
          200: jsonResponse('One page of removed ids with the exact total since the day and the cursor of the next page.', { $ref: '#/components/schemas/RemovalList' }, exampleRemovals(doc), { ...CACHE_HEADERS, Link: LINK_HEADER }),
          304: NOT_MODIFIED,
          400: problem(doc, 400, '/api/v1/removals', { detail: 'Invalid parameter: since.', errors: [{ parameter: 'since', message: 'must be a date written YYYY-MM-DD, e.g. 2025-05-01' }] }),
          405: problem(doc, 405, '/api/v1/removals'),
        },
      }),
    },
    '/api/v1/timeline': {
      get: listOperation(doc, '/api/v1/timeline', 'getTimeline', 'Read the model timeline', 'Timeline records (milestones of model history), oldest first.', queryParameters(timelineParamsSchema() as Properties, { ...SEARCH_EXAMPLES, kind: ['timeline'], sort: 'oldest', cursor: exampleFirstPageCursor(doc, 'timeline') })),
    },
  };
}
