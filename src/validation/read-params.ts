import type { SearchParams, ListScope } from '../domain/specimens.ts';
import type { Lang } from '../domain/record.ts';
import { ProblemError } from '../errors.ts';
import type { FieldError } from '../errors.ts';
import { compile, describeErrors, SCHEMAS, timelineParamsSchema } from './schemas.ts';
import exportParamsSchema from '../../schemas/export-params.schema.json' with { type: 'json' };
import publicExportParamsSchema from '../../schemas/public-export-params.schema.json' with { type: 'json' };

/** Raw query parameters as an HTTP framework hands them over. */
export type RawQuery = Record<string, string | string[] | undefined>;

const searchValidator = compile<SearchParams>(SCHEMAS.searchParams);
const timelineValidator = compile<SearchParams>(timelineParamsSchema());
const recordValidator = compile<{ id: string; lang: Lang }>(SCHEMAS.recordParams);
const exportValidator = compile<ExportParams>(exportParamsSchema);
const publicCsvValidator = compile<{ excel: '0' | '1'; bom: '0' | '1' }>(publicExportParamsSchema);

const SEARCH_NAMES = Object.keys(SCHEMAS.searchParams.properties);
const INTEGER_NAMES = new Set(Object.entries(SCHEMAS.searchParams.properties).filter(([, schema]) => schema.type === 'integer').map(([name]) => name));
export const MAX_OFFSET = SCHEMAS.searchParams.properties.offset.maximum;

/**
 * Turns query-string values into schema input: repeated parameters are errors, empty values count
 * as absent (a plain HTML form sends them), integer parameters written as integers become numbers.
 */
function fromQueryString(raw: RawQuery, errors: FieldError[]): Record<string, unknown> {
  // No prototype: a parameter named __proto__ must stay a key the schema refuses, not vanish.
  const input = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) {
      errors.push({ parameter: name, message: 'must be given once, not repeated' });
      continue;
    }
    if (value === undefined || value === '') continue;
    input[name] = INTEGER_NAMES.has(name) && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
  }
  return input;
}

function invalid(errors: FieldError[], exportsHint: string): ProblemError {
  const offsetTooDeep = errors.some((error) => error.parameter === 'offset' && error.message.startsWith('must be <='));
  const named = errors.map((error) => error.parameter ?? error.field).join(', ');
  const detail = `Invalid ${errors.length === 1 ? 'parameter' : 'parameters'}: ${named}.${offsetTooDeep ? ` Offsets stop at ${MAX_OFFSET}; read the whole catalog from the bulk exports (${exportsHint}).` : ''}`;
  return new ProblemError('invalid-parameters', detail, { errors });
}

/** Validates list parameters from a query string or from tool arguments; throws a 400 problem naming every bad parameter. */
export function parseSearchParams(raw: RawQuery | Record<string, unknown>, scope: ListScope, options: { fromQueryString: boolean; exportsHint: string }): SearchParams {
  const errors: FieldError[] = [];
  const input = options.fromQueryString ? fromQueryString(raw as RawQuery, errors) : { ...raw };
  const validate = scope === 'timeline' ? timelineValidator : searchValidator;
  if (!validate(input)) errors.push(...describeErrors(validate.errors, SEARCH_NAMES, 'parameter'));
  if (errors.length) throw invalid(errors, options.exportsHint);
  return input as unknown as SearchParams;
}

/** Validates the id and lang of a single-record read; throws a 400 problem naming every bad parameter. */
export function parseRecordParams(raw: RawQuery | Record<string, unknown>, options: { fromQueryString: boolean }): { id: string; lang: Lang } {
  const errors: FieldError[] = [];
  const input = options.fromQueryString ? fromQueryString(raw as RawQuery, errors) : { ...raw };
  if (!recordValidator(input)) errors.push(...describeErrors(recordValidator.errors, Object.keys(SCHEMAS.recordParams.properties), 'parameter'));
  if (errors.length) throw invalid(errors, '');
  return input as { id: string; lang: Lang };
}

/** Parameters of the authenticated export. */
export interface ExportParams {
  format: 'json' | 'ndjson' | 'csv';
  lang: Lang | 'all';
  /** '1': a CSV for spreadsheets (byte-order mark, formula-like cells neutralised). */
  excel: '0' | '1';
}

/** Validates the authenticated export's format, lang and excel; throws a 400 problem naming every bad parameter. */
export function parseExportParams(raw: RawQuery): ExportParams {
  const errors: FieldError[] = [];
  const input = fromQueryString(raw, errors);
  if (!exportValidator(input)) errors.push(...describeErrors(exportValidator.errors, Object.keys(exportParamsSchema.properties), 'parameter'));
  if (errors.length) throw invalid(errors, '');
  return input as unknown as ExportParams;
}

/** Click-tracking parameters that links from elsewhere carry (utm_…, fbclid, gclid …). */
const TRACKING_PARAMETER = /^(utm_[a-z0-9_]*|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid)$/i;

/** The query without tracking parameters, which public files (exports, guides, feeds) ignore rather than refuse. */
export function withoutTracking(raw: RawQuery): RawQuery {
  return Object.fromEntries(Object.entries(raw).filter(([name]) => !TRACKING_PARAMETER.test(name)));
}

/**
 * Validates the parameters of a public export: the CSV files take excel and bom, the JSON and
 * NDJSON files none; tracking parameters are ignored. Throws a 400 problem naming every bad one.
 */
export function parsePublicExportParams(raw: RawQuery, format: 'json' | 'ndjson' | 'csv'): { excel: boolean; bom: boolean } {
  const errors: FieldError[] = [];
  const input = fromQueryString(withoutTracking(raw), errors);
  if (format !== 'csv') {
    for (const name of Object.keys(input)) errors.push({ parameter: name, message: 'is not a known parameter; this export takes none' });
  } else if (!publicCsvValidator(input)) {
    errors.push(...describeErrors(publicCsvValidator.errors, Object.keys(publicExportParamsSchema.properties), 'parameter'));
  }
  if (errors.length) throw invalid(errors, '');
  return { excel: input.excel === '1', bom: input.bom === '1' };
}
