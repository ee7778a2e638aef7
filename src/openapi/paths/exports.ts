import exportParamsSchema from '../../../schemas/export-params.schema.json' with { type: 'json' };
import { CSV_COLUMNS, csvHeader, csvRow } from '../../exports/csv.ts';
import { canonicalCsvRow, fullCsvHeader } from '../../exports/full-export.ts';
import type { Lang } from '../../domain/record.ts';
import { EXAMPLE_RECORD, exampleRecord } from '../examples.ts';
import { jsonResponse, NOT_MODIFIED, operation, problem, queryParameters, textResponse } from '../responses.ts';
import type { DocContext, JsonObject } from '../responses.ts';

const EXPORT_HEADERS: JsonObject = {
  ETag: { description: 'Follows the catalog change number: `If-None-Match` answers 304 until the catalog changes.', schema: { type: 'string' }, example: '"catalog-88-en-json"' },
  'Content-Disposition': { description: 'attachment, with a file name.', schema: { type: 'string' }, example: 'attachment; filename="catalog-en.json"' },
};

function catalogSchema(): JsonObject {
  return {
    type: 'object',
    required: ['version', 'updated', 'items', 'total'],
    properties: {
      version: { const: '1.0' },
      updated: { type: ['string', 'null'], description: 'Catalog compilation date.' },
      items: { type: 'array', items: { $ref: '#/components/schemas/Specimen' } },
      total: { type: 'integer', minimum: 0, description: 'Written after the items; always their number.' },
    },
  };
}

function publicExport(doc: DocContext, path: string, lang: Lang, format: 'json' | 'csv'): JsonObject {
  const language = lang === 'zh' ? 'Chinese' : 'English';
  const record = exampleRecord(doc.baseUrl, lang);
  const ok =
    format === 'json'
      ? jsonResponse(`Every published record in ${language}, streamed.`, catalogSchema(), { version: '1.0', updated: EXAMPLE_RECORD.updated, items: [record], total: 1 }, EXPORT_HEADERS)
      : textResponse(`Every published record in ${language} as RFC 4180 CSV (UTF-8, CRLF, header row: ${CSV_COLUMNS.join(', ')}).`, 'text/csv', `${csvHeader()}${csvRow(record)}`, EXPORT_HEADERS);
  return {
    get: operation(doc, {
      path,
      operationId: `exportCatalog${format === 'json' ? 'Json' : 'Csv'}${lang === 'zh' ? 'Zh' : 'En'}`,
      summary: `The public catalog in ${language} as ${format.toUpperCase()}`,
      description: 'Every published record, the same objects the API returns, streamed in constant memory; compressed when the client accepts gzip or brotli.',
      tags: ['exports'],
      parameters: format === 'csv' ? [{ name: 'bom', in: 'query', required: false, description: '1 adds a UTF-8 byte-order mark (for Excel).', schema: { type: 'string', enum: ['0', '1'] }, example: '1' }] : [],
      responses: {
        200: ok,
        304: NOT_MODIFIED,
        400: problem(doc, 400, path, { detail: 'Invalid parameters: limit.', errors: [{ parameter: 'limit', message: 'is not a known parameter; this export takes none' }] }),
        405: problem(doc, 405, path),
      },
    }),
  };
}

/** The public bulk exports and the authenticated full export. */
export function exportPaths(doc: DocContext): JsonObject {
  const canonical = { ...EXAMPLE_RECORD, submission: null };
  return {
    '/data/catalog.json': publicExport(doc, '/data/catalog.json', 'zh', 'json'),
    '/data/catalog.csv': publicExport(doc, '/data/catalog.csv', 'zh', 'csv'),
    '/en/data/catalog.json': publicExport(doc, '/en/data/catalog.json', 'en', 'json'),
    '/en/data/catalog.csv': publicExport(doc, '/en/data/catalog.csv', 'en', 'csv'),
    '/api/v1/export': {
      get: operation(doc, {
        path: '/api/v1/export',
        operationId: 'exportCatalog',
        summary: 'Every record with its submission history, streamed (token with the export scope)',
        tags: ['exports'],
        security: [{ bearer: [] }],
        parameters: queryParameters(exportParamsSchema as { properties: Record<string, JsonObject> }, { format: 'ndjson', lang: 'all' }),
        responses: {
          200: {
            description: 'The export: a JSON document, NDJSON (one record per line) or CSV.',
            content: {
              'application/json': { schema: { type: 'object', required: ['version', 'updated', 'lang', 'items', 'total'] }, example: { version: '1.0', updated: EXAMPLE_RECORD.updated, lang: 'all', items: [canonical], total: 1 } },
              'application/x-ndjson': { schema: { type: 'string' }, example: `${JSON.stringify(canonical)}\n` },
              'text/csv': { schema: { type: 'string' }, example: `${fullCsvHeader('all')}${canonicalCsvRow(canonical)}` },
            },
          },
          400: problem(doc, 400, '/api/v1/export', { detail: 'Invalid parameters: format.', errors: [{ parameter: 'format', message: 'must be one of: json, ndjson, csv' }] }),
          401: problem(doc, 401, '/api/v1/export'),
          403: problem(doc, 403, '/api/v1/export', { detail: 'This token lacks the export scope.' }),
          405: problem(doc, 405, '/api/v1/export'),
        },
      }),
    },
  };
}
