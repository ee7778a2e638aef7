import exportParamsSchema from '../../../schemas/export-params.schema.json' with { type: 'json' };
import publicExportParamsSchema from '../../../schemas/public-export-params.schema.json' with { type: 'json' };
import { BILINGUAL_CSV_COLUMNS, bilingualCsvHeader, bilingualCsvRow, CSV_COLUMNS, csvHeader, csvRow } from '../../exports/csv.ts';
import { PUBLIC_EXPORTS } from '../../exports/public-export.ts';
import type { PublicExport } from '../../exports/public-export.ts';
import { canonicalCsvRow, fullCsvHeader } from '../../exports/full-export.ts';
import { exampleRecord } from '../examples.ts';
import { jsonResponse, NOT_MODIFIED, operation, problem, queryParameters, textResponse } from '../responses.ts';
import type { DocContext, JsonObject } from '../responses.ts';

const EXPORT_HEADERS: JsonObject = {
  ETag: { description: 'Follows the catalog change number: `If-None-Match` answers 304 until the catalog changes.', schema: { type: 'string' }, example: 'W/"catalog-88-en-json"' },
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

const LANGUAGE = { zh: 'Chinese', en: 'English', bilingual: 'both languages' } as const;
const OPERATION_SUFFIX = { zh: 'Zh', en: 'En', bilingual: 'Bilingual' } as const;

function publicExport(doc: DocContext, route: PublicExport): JsonObject {
  const { path, lang, format } = route;
  const zh = exampleRecord(doc, 'zh');
  const en = exampleRecord(doc, 'en');
  const record = lang === 'zh' ? zh : en;
  const headers = { ...EXPORT_HEADERS, 'Content-Disposition': { ...(EXPORT_HEADERS['Content-Disposition'] as JsonObject), example: `attachment; filename="catalog-${lang}.${format}"` } };
  const ok =
    format === 'json'
      ? jsonResponse(`Every published record in ${LANGUAGE[lang]}, streamed.`, catalogSchema(), { version: '1.0', updated: doc.example.updated, items: [record], total: 1 }, headers)
      : format === 'ndjson'
        ? textResponse(`Every published record in ${LANGUAGE[lang]}, one JSON object (the API's record) per line.`, 'application/x-ndjson', `${JSON.stringify(record)}\n`, headers)
        : lang === 'bilingual'
          ? textResponse(`Every published record as RFC 4180 CSV with both languages in one row (UTF-8, CRLF, header row: ${BILINGUAL_CSV_COLUMNS.join(', ')}); each cell carries exactly the value of that language's JSON record.`, 'text/csv', `${bilingualCsvHeader()}${bilingualCsvRow(zh, en)}`, headers)
          : textResponse(`Every published record in ${LANGUAGE[lang]} as RFC 4180 CSV (UTF-8, CRLF, header row: ${CSV_COLUMNS.join(', ')}); each cell carries exactly the JSON value unless excel=1.`, 'text/csv', `${csvHeader()}${csvRow(record)}`, headers);
  return {
    get: operation(doc, {
      path,
      operationId: `exportCatalog${format === 'json' ? 'Json' : format === 'ndjson' ? 'Ndjson' : 'Csv'}${OPERATION_SUFFIX[lang]}`,
      summary: `The public catalog in ${LANGUAGE[lang]} as ${format === 'ndjson' ? 'NDJSON' : format.toUpperCase()}`,
      description: 'Every published record, the same objects the API returns, streamed in constant memory; compressed when the client accepts gzip or brotli. Tracking parameters (utm_…) are ignored; any other unknown parameter is a 400.',
      tags: ['exports'],
      parameters: format === 'csv' ? queryParameters(publicExportParamsSchema as { properties: Record<string, JsonObject> }, { excel: '1', bom: '1' }) : [],
      responses: {
        200: ok,
        304: NOT_MODIFIED,
        400: problem(doc, 400, path, { detail: 'Invalid parameter: limit.', errors: [{ parameter: 'limit', message: format === 'csv' ? 'is not a known parameter; known: excel, bom' : 'is not a known parameter; this export takes none' }] }),
        405: problem(doc, 405, path),
      },
    }),
  };
}

/** The public bulk exports and the authenticated full export. */
export function exportPaths(doc: DocContext): JsonObject {
  const canonical = { ...doc.example, submission: null };
  return {
    ...Object.fromEntries(PUBLIC_EXPORTS.map((route) => [route.path, publicExport(doc, route)])),
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
              'application/json': { schema: { type: 'object', required: ['version', 'updated', 'lang', 'items', 'total'] }, example: { version: '1.0', updated: doc.example.updated, lang: 'all', items: [canonical], total: 1 } },
              'application/x-ndjson': { schema: { type: 'string' }, example: `${JSON.stringify(canonical)}\n` },
              'text/csv': { schema: { type: 'string' }, example: `${fullCsvHeader('all')}${canonicalCsvRow(canonical)}` },
            },
          },
          400: problem(doc, 400, '/api/v1/export', { detail: 'Invalid parameter: format.', errors: [{ parameter: 'format', message: 'must be one of: json, ndjson, csv' }] }),
          401: problem(doc, 401, '/api/v1/export'),
          403: problem(doc, 403, '/api/v1/export', { detail: 'This token lacks the export scope.' }),
          405: problem(doc, 405, '/api/v1/export'),
        },
      }),
    },
  };
}
