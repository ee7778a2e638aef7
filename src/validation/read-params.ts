import { decodeCursor, queryFingerprint } from '../domain/cursor.ts';
import { cleanText } from '../domain/localize.ts';
import { MAX_OR_COMBINATIONS, MAX_PHRASE_WORDS, MAX_QUERY_WORDS } from '../domain/search-query.ts';
import { orCombinations, parseSearchText, queryWords } from '../search/search-text.ts';
import { listQuery } from '../domain/specimens.ts';
import type { SearchParams, ListScope } from '../domain/specimens.ts';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Lang } from '../domain/record.ts';
import { invalidParametersProblem } from '../errors.ts';
import type { ProblemError } from '../errors.ts';
import type { FieldError } from '../errors.ts';
import { coerceParameters } from './coerce.ts';
import { compile, describeErrors, recordQueryParamsSchema, SCHEMAS, timelineParamsSchema } from './schemas.ts';
import exportParamsSchema from '../../schemas/export-params.schema.json' with { type: 'json' };
import publicExportParamsSchema from '../../schemas/public-export-params.schema.json' with { type: 'json' };
import { decodeRemovalCursor } from '../domain/removals.ts';
import type { RemovalQuery } from '../domain/removals.ts';

/**
 * A query-string value whose percent-encoding is not UTF-8 (`%zz`, `%E0%A4`), as written: a
 * framework would hand it over as its raw text, which a search would then look for.
 */
export class UndecodableValue {
  constructor(readonly written: string) {}
}

/** Raw query parameters as an HTTP framework hands them over, an undecodable value marked as such. */
export type RawQuery = Record<string, string | string[] | UndecodableValue | undefined>;

/** What a query-string parameter that is not percent-encoded UTF-8 is told, its value quoted as written (up to 40 characters). */
function undecodableMessage(value: UndecodableValue): string {
  const written = value.written.length > 40 ? `${value.written.slice(0, 40)}…` : value.written;
  return `is not percent-encoded UTF-8 (${JSON.stringify(written)}): write each byte that is not a letter, digit or one of -._~ as %XX of its UTF-8 (encodeURIComponent does)`;
}

type Properties = Parameters<typeof coerceParameters>[1];

const searchValidator = compile<SearchParams>(SCHEMAS.searchParams);
const timelineValidator = compile<SearchParams>(timelineParamsSchema());
const recordValidator = compile<{ id: string; lang: Lang }>(SCHEMAS.recordParams);
const recordQuerySchema = recordQueryParamsSchema();
const recordQueryValidator = compile<{ lang: Lang }>(recordQuerySchema);
const exportValidator = compile<ExportParams>(exportParamsSchema);
const publicCsvValidator = compile<{ excel: '0' | '1'; bom: '0' | '1' }>(publicExportParamsSchema);
const removalsValidator = compile<{ since: string; limit: number; cursor?: string }>(SCHEMAS.removalsParams);

const SEARCH_PROPERTIES = SCHEMAS.searchParams.properties as Properties;
const SEARCH_NAMES = Object.keys(SEARCH_PROPERTIES);
export const MAX_OFFSET = SCHEMAS.searchParams.properties.offset.maximum;
const MAX_QUERY_LENGTH = SCHEMAS.searchParams.properties.q.maxLength;

/**
 * What is wrong with search text beyond its schema, if anything: its length counted again in the
 * normal form a search reads (NFKC makes `⒜` the three characters `(a)`, `㍿` four), its words, the
 * words of its phrases, its OR combinations. Each bounds what one search may cost.
 */
function searchTextProblems(q: string): string[] {
  const problems: string[] = [];
  const normalLength = [...q.normalize('NFKC')].length;
  if (normalLength > MAX_QUERY_LENGTH) {
    problems.push(`must be at most ${MAX_QUERY_LENGTH} characters long as searched, in Unicode normal form NFKC (it is ${normalLength}: a character such as ⒜ or ㍿ stands for several)`);
  }
  const words = queryWords(q);
  if (words.all > MAX_QUERY_WORDS) problems.push(`holds more than ${MAX_QUERY_WORDS} words (it holds ${words.all}; a run of Chinese characters counts as one)`);
  if (words.inPhrases > MAX_PHRASE_WORDS) problems.push(`holds more than ${MAX_PHRASE_WORDS} words in phrases, quoted or joined by punctuation like a-b-c (it holds ${words.inPhrases})`);
  if (orCombinations(parseSearchText(q)) > MAX_OR_COMBINATIONS) problems.push(`makes more than ${MAX_OR_COMBINATIONS} combinations of OR alternatives`);
  return problems;
}

/** The list parameters that make no sense beside sourceUrl, which names one work (sort is taken and has nothing to order). */
const BESIDE_SOURCE_URL_REFUSED = ['q', 'source', 'format', 'year', 'model', 'author', 'from', 'to', 'since', 'facets', 'cursor'] as const;

/** Where parameters come from: a query string (one value each, repeats refused) or tool arguments (JSON). */
export interface ParseOptions {
  fromQueryString: boolean;
}

/**
 * Query-string values: an undecodable one and a repeated parameter are errors, an empty one is
 * absent (whatever its name), the rest is converted as the schema says.
 */
function fromQueryString(raw: RawQuery, properties: Properties, errors: FieldError[], repeatedLists?: Set<string>): Record<string, unknown> {
  const single: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(raw)) {
    if (value instanceof UndecodableValue) {
      errors.push({ parameter: name, message: undecodableMessage(value) });
    } else if (Array.isArray(value)) {
      const joined = value.filter(Boolean).join(',');
      if (repeatedLists && properties[name]?.type === 'array' && joined !== '') {
        // Checked as the one comma-separated value it should have been, so the same entry names the values that are not valid (repetitionProblem).
        repeatedLists.add(name);
        single[name] = joined;
        continue;
      }
      const list = properties[name]?.type === 'array' ? ` (several values go in one, comma-separated: ${name}=${joined})` : '';
      errors.push({ parameter: name, message: `must be given once, not repeated${list}` });
    } else if (value !== undefined && value !== '') single[name] = value;
  }
  return coerceParameters(single, properties, errors);
}

/**
 * What a list parameter given more than once is told: to write its values comma-separated in one,
 * the line to write when every value is valid, else (the value the list would be refused too) the
 * values that are not, so one answer names everything to mend: format=foo&format=bar had
 * suggested format=foo,bar, itself a 400. `invalid` are those values; `otherwise` is whether the
 * list breaks another rule (a value given twice, too many).
 */
function repetitionProblem(name: string, values: readonly unknown[], invalid: readonly unknown[], otherwise: boolean): FieldError {
  const message = 'must be given once, not repeated';
  if (invalid.length) {
    const named = invalid.map((value) => JSON.stringify(value)).join(', ');
    return { parameter: name, message: `${message} (several values go in one, comma-separated), and ${named} ${invalid.length === 1 ? 'is not a valid value' : 'are not valid values'}` };
  }
  if (otherwise) return { parameter: name, message: `${message} (several values go in one, comma-separated)` };
  return { parameter: name, message: `${message} (several values go in one, comma-separated: ${name}=${values.join(',')})` };
}

/** The values of list `name` that the schema (an error at /name/N) or, for source, the source table refuses. */
function invalidValues(name: string, params: Record<string, unknown>, schemaErrors: ValidateFunction['errors'], sourceKeys: readonly string[]): unknown[] {
  const values = params[name];
  if (!Array.isArray(values)) return [];
  const bad = new Set<number>();
  for (const error of schemaErrors ?? []) {
    const index = new RegExp(`^/${name}/(\\d+)$`).exec(error.instancePath)?.[1];
    if (index !== undefined) bad.add(Number(index));
  }
  if (name === 'source') values.forEach((value, index) => (typeof value === 'string' && sourceKeys.includes(value) ? undefined : bad.add(index)));
  return [...bad].sort((a, b) => a - b).map((index) => values[index] as unknown);
}

function input(raw: RawQuery | Record<string, unknown>, properties: Properties, options: ParseOptions, errors: FieldError[], repeatedLists?: Set<string>): Record<string, unknown> {
  return options.fromQueryString ? fromQueryString(raw as RawQuery, properties, errors, repeatedLists) : coerceParameters(raw, properties, errors);
}

/** Errors named by parameter: an error inside a list (format[1]) names the list, unless a parameter has that very name. */
function byParameter(errors: readonly FieldError[], params: Record<string, unknown>): FieldError[] {
  return errors.map((error) => {
    const list = /^(.+)\[\d+\]$/.exec(error.parameter ?? '')?.[1];
    return list && SEARCH_NAMES.includes(list) && !Object.hasOwn(params, error.parameter ?? '') ? { ...error, parameter: list } : error;
  });
}

function invalid(errors: FieldError[], exportsHint: string): ProblemError {
  const offsetTooDeep = errors.some((error) => error.parameter === 'offset' && error.message.startsWith('must be <='));
  const deeper = offsetTooDeep ? ` Offsets stop at ${MAX_OFFSET}; page deeper with cursor (every page's next), or read the whole catalog from the bulk exports (${exportsHint}).` : '';
  return invalidParametersProblem(errors, deeper);
}

/**
 * Checks across parameters that one schema property cannot express; run whether or not the
 * schema passed, so every bad parameter is named at once (values are checked for their type, as
 * the schema may have refused them). `given` names the parameters the client sent, before the
 * schema's defaults filled in the others (an `offset=0` beside a cursor is as wrong as any other).
 */
function crossChecks(params: Record<string, unknown>, given: ReadonlySet<string>, scope: ListScope, errors: FieldError[], schemaPassed: boolean, fromQueryString: boolean): void {
  const { from, to, q, cursor } = params;
  const named = (name: string): boolean => errors.some((error) => error.parameter === name);
  if (typeof from === 'string' && typeof to === 'string' && !named('from') && !named('to') && from > to) errors.push({ parameter: 'to', message: `must not be before from (${from})` });
  // After the schema's own limit (200 characters as written), so the checks read a short text.
  if (typeof q === 'string' && !named('q')) for (const message of searchTextProblems(q)) errors.push({ parameter: 'q', message });
  // A label that cleaning leaves blank (a zero-width space alone) would filter on nothing and title a page with an empty label.
  for (const name of ['model', 'author'] as const) {
    const asked = params[name];
    const values: unknown[] = Array.isArray(asked) ? asked : [asked];
    if (!named(name) && values.some((value) => typeof value === 'string' && value !== '' && cleanText(value).trim() === '')) errors.push({ parameter: name, message: 'must not be blank' });
  }
  if (given.has('sourceUrl')) {
    for (const name of BESIDE_SOURCE_URL_REFUSED) if (given.has(name) && !named(name)) errors.push({ parameter: name, message: "cannot be combined with sourceUrl: it lists one work's records whole (kind, lang, limit and offset apply)" });
    if (given.has('cursor')) return;
  }
  if (typeof cursor !== 'string') return;
  // A query string's offset=0 is refused too; a tool's 0 beside a cursor is the default a host filled in (parseSearchParams).
  const evenZero = fromQueryString ? ', not even 0' : '';
  if (given.has('offset') && !named('offset')) errors.push({ parameter: 'offset', message: `cannot be combined with cursor${evenZero}: a cursor continues where its page ended; leave offset out` });
  if (named('cursor')) return;
  const valid = schemaPassed ? (params as unknown as SearchParams) : undefined;
  const decoded = decodeCursor(cursor, valid ? queryFingerprint(listQuery(valid, scope)) : '');
  if (decoded === 'malformed') errors.push({ parameter: 'cursor', message: 'is not a cursor this service gives out now: pass the next value of a page unchanged, or start again from the first page' });
  else if (!valid) return;
  else if (decoded === 'other-query') errors.push({ parameter: 'cursor', message: 'belongs to another query: keep q, lang, sort and the filters of the page that gave it' });
  else valid.after = decoded;
}

/** What a list is validated against besides its schema. */
export interface SearchParseOptions extends ParseOptions {
  /** Where the whole catalog can be read, named when offset goes too deep. */
  exportsHint: string;
  /** The keys of the archive's source table (SourceTable.keys): the values `source` takes. */
  sourceKeys: readonly string[];
  /** Parameters the caller takes besides these (a tool's `fields`), so an unknown parameter's message lists every one the caller accepts. */
  alsoKnown?: readonly string[];
}

/**
 * A source filter naming a key the source table does not hold is one error naming `source` and
 * the keys it takes, in place of what the schema said of those values (their form).
 */
function checkSources(params: Record<string, unknown>, sourceKeys: readonly string[], errors: FieldError[]): FieldError[] {
  const values = params.source;
  if (!Array.isArray(values)) return errors;
  const unknown = values.filter((value) => typeof value !== 'string' || !sourceKeys.includes(value));
  if (unknown.length === 0) return errors;
  // What the schema said of each value's form (pattern, type) is said better by the keys; the list's size stays.
  const others = errors.filter((error) => error.parameter !== 'source' || !/^must (match pattern|be string)/.test(error.message));
  const named = unknown.map((value) => JSON.stringify(value)).join(', ');
  return [...others, { parameter: 'source', message: `must be one of: ${sourceKeys.join(', ')} (the archive's sources; ${named} ${unknown.length === 1 ? 'is' : 'are'} not)` }];
}

/** Validates list parameters from a query string or from tool arguments; throws a 400 problem naming every bad parameter. */
export function parseSearchParams(raw: RawQuery | Record<string, unknown>, scope: ListScope, options: SearchParseOptions): SearchParams {
  let errors: FieldError[] = [];
  const repeatedLists = new Set<string>();
  const params = input(raw, SEARCH_PROPERTIES, options, errors, repeatedLists);
  // A tool host may fill in the schema's defaults, offset 0 among them: beside a cursor, that 0 is
  // the default it gave, not an offset asked for. A query string's offset=0 was written by its client.
  if (!options.fromQueryString && params.cursor !== undefined && params.offset === 0) delete params.offset;
  const given = new Set(Object.keys(params));
  const validate = scope === 'timeline' ? timelineValidator : searchValidator;
  const schemaPassed = validate(params);
  if (!schemaPassed) errors.push(...byParameter(describeErrors(validate.errors, [...SEARCH_NAMES, ...(options.alsoKnown ?? [])], 'parameter'), params));
  errors = checkSources(params, options.sourceKeys, errors);
  // A repeated list's entry starts with the repetition; what its values break follows in the same entry (onePerInput).
  const repetitions = [...repeatedLists].map((name) => {
    const values = Array.isArray(params[name]) ? (params[name] as unknown[]) : [];
    return repetitionProblem(name, values, invalidValues(name, params, validate.errors, options.sourceKeys), errors.some((error) => error.parameter === name));
  });
  errors = [...repetitions, ...errors];
  crossChecks(params, given, scope, errors, schemaPassed && !errors.some((error) => error.parameter === 'source'), options.fromQueryString);
  if (errors.length) throw invalid(errors, options.exportsHint);
  return params as unknown as SearchParams;
}

/** Parameters validated against one schema's properties; throws a 400 problem naming every bad parameter. */
function parseAgainst<T>(raw: RawQuery | Record<string, unknown>, properties: Properties, validate: ValidateFunction<T>, options: ParseOptions): T {
  const errors: FieldError[] = [];
  const params = input(raw, properties, options, errors);
  if (!validate(params)) errors.push(...describeErrors(validate.errors, Object.keys(properties), 'parameter'));
  if (errors.length) throw invalid(errors, '');
  return params as T;
}

/** Validates the id and lang of a single-record read (the get_specimen tool's arguments); throws a 400 problem naming every bad parameter. */
export function parseRecordParams(raw: RawQuery | Record<string, unknown>, options: ParseOptions): { id: string; lang: Lang } {
  return parseAgainst(raw, SCHEMAS.recordParams.properties as Properties, recordValidator, options);
}

/**
 * Validates the query string of GET /api/v1/specimens/{id}: `lang` alone, as the id is in the
 * path (an `id` in the query is an unknown parameter there); throws a 400 problem naming every
 * bad parameter.
 */
export function parseRecordQuery(raw: RawQuery): { lang: Lang } {
  return parseAgainst(raw, recordQuerySchema.properties as Properties, recordQueryValidator, { fromQueryString: true });
}

/** Checks that a resource which takes no parameters was given none; throws a 400 problem naming each one given. */
export function parseNoParameters(raw: RawQuery): void {
  const errors: FieldError[] = Object.keys(raw).map((name) => ({ parameter: name, message: 'is not a known parameter; this resource takes none' }));
  if (errors.length) throw invalid(errors, '');
}

/**
 * Validates the query string of GET /api/v1/removals: `since` (a day that exists), `limit` and a
 * `cursor` of the same `since`; throws a 400 problem naming every bad parameter.
 */
export function parseRemovalsParams(raw: RawQuery): RemovalQuery {
  const errors: FieldError[] = [];
  const properties = SCHEMAS.removalsParams.properties as Properties;
  const params = fromQueryString(raw, properties, errors);
  const schemaPassed = removalsValidator(params);
  // A repeated since is left out of params, so the schema finds it missing too: one message per parameter, the first.
  if (!schemaPassed) errors.push(...describeErrors(removalsValidator.errors, Object.keys(properties), 'parameter').filter((error) => !errors.some((named) => named.parameter === error.parameter)));
  const { since, limit, cursor } = params as { since?: unknown; limit?: unknown; cursor?: unknown };
  let after: RemovalQuery['after'];
  if (typeof cursor === 'string' && !errors.some((error) => error.parameter === 'cursor')) {
    const decoded = decodeRemovalCursor(cursor, typeof since === 'string' ? since : '');
    if (decoded === 'malformed') errors.push({ parameter: 'cursor', message: 'is not a cursor this service gives out: pass the next value of a page unchanged, or start again from the first page' });
    else if (decoded === 'other-query') {
      if (schemaPassed) errors.push({ parameter: 'cursor', message: 'belongs to another since: keep the since of the page that gave it' });
    } else after = decoded;
  }
  if (errors.length || typeof since !== 'string' || typeof limit !== 'number') throw invalid(errors, '');
  return { since, limit, ...(after ? { after } : {}) };
}

/** Parameters of the authenticated export. */
export interface ExportParams {
  format: 'json' | 'ndjson' | 'csv';
  lang: Lang | 'all';
  /** '1': a CSV for spreadsheets (byte-order mark, formula-like cells neutralised). */
  excel: '0' | '1';
  /** '1': a CSV with a byte-order mark alone. */
  bom: '0' | '1';
}

/** The parameters that shape a CSV alone, which a JSON or NDJSON export refuses rather than ignores. */
const CSV_ONLY_PARAMETERS = ['excel', 'bom'] as const;

/** Validates the authenticated export's format, lang, excel and bom; throws a 400 problem naming every bad parameter. */
export function parseExportParams(raw: RawQuery): ExportParams {
  const errors: FieldError[] = [];
  const params = fromQueryString(raw, exportParamsSchema.properties as Properties, errors);
  if (!exportValidator(params)) errors.push(...describeErrors(exportValidator.errors, Object.keys(exportParamsSchema.properties), 'parameter'));
  else if (params.format !== 'csv') {
    for (const name of CSV_ONLY_PARAMETERS) if (Object.hasOwn(raw, name)) errors.push({ parameter: name, message: `shapes a CSV alone: add format=csv, or leave ${name} out of a ${String(params.format)} export` });
  }
  if (errors.length) throw invalid(errors, '');
  return params as unknown as ExportParams;
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
  const params = fromQueryString(withoutTracking(raw), publicExportParamsSchema.properties as Properties, errors);
  if (format !== 'csv') {
    for (const name of Object.keys(params)) errors.push({ parameter: name, message: 'is not a known parameter; this export takes none' });
  } else if (!publicCsvValidator(params)) {
    errors.push(...describeErrors(publicCsvValidator.errors, Object.keys(publicExportParamsSchema.properties), 'parameter'));
  }
  if (errors.length) throw invalid(errors, '');
  return { excel: params.excel === '1', bom: params.bom === '1' };
}
