import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import searchParamsSchema from '../../schemas/search-params.schema.json' with { type: 'json' };
import recordParamsSchema from '../../schemas/record-params.schema.json' with { type: 'json' };
import recordSchema from '../../schemas/record.schema.json' with { type: 'json' };
import listResponseSchema from '../../schemas/list-response.schema.json' with { type: 'json' };
import problemSchema from '../../schemas/problem.schema.json' with { type: 'json' };
import sourceListSchema from '../../schemas/source-list.schema.json' with { type: 'json' };
import removalListSchema from '../../schemas/removal-list.schema.json' with { type: 'json' };
import removalsParamsSchema from '../../schemas/removals-params.schema.json' with { type: 'json' };
import { VISIBLE_CHARACTER_PATTERN } from '../domain/localize.ts';
import type { FieldError } from '../errors.ts';
import { likelyName } from './likely-name.ts';

/** The JSON Schemas in schemas/, the one source of truth for shapes at every edge. */
export const SCHEMAS = {
  searchParams: searchParamsSchema,
  recordParams: recordParamsSchema,
  record: recordSchema,
  listResponse: listResponseSchema,
  problem: problemSchema,
  sourceList: sourceListSchema,
  removalList: removalListSchema,
  removalsParams: removalsParamsSchema,
} as const;

type JsonSchema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>> };

/** The timeline takes the search parameters, with kind fixed to timeline and oldest first whatever q (see defaultOrder). */
export function timelineParamsSchema(): JsonSchema {
  const base = structuredClone(searchParamsSchema) as JsonSchema;
  const properties = base.properties ?? {};
  properties.kind = { ...properties.kind, items: { enum: ['timeline'] }, description: 'timeline only.', examples: [['timeline']] };
  properties.sort = { ...properties.sort, description: 'Default oldest, even with q.', examples: ['oldest'] };
  return { ...base, $id: 'timeline-params.schema.json', title: 'TimelineParams', properties };
}

/** GET /api/v1/specimens/{id} takes the record parameters less id in its query string: the id is in the path. */
export function recordQueryParamsSchema(): JsonSchema {
  const { required: _required, properties, ...base } = structuredClone(recordParamsSchema) as JsonSchema;
  const query = Object.fromEntries(Object.entries(properties ?? {}).filter(([name]) => name !== 'id'));
  return { ...base, $id: 'record-query-params.schema.json', title: 'RecordQueryParams', description: 'Query parameters of GET /api/v1/specimens/{id}, whose id is in the path.', properties: query };
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

// verbose: an error carries its schema's parent, so an unknown nested field is told the names known at its level.
const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: true, strictTypes: false, verbose: true });
addFormats(ajv);
ajv.addKeyword({ keyword: 'example' });
for (const schema of [recordSchema, listResponseSchema, problemSchema, sourceListSchema, removalListSchema]) ajv.addSchema(schema);

/** A compiled validator for one of the schemas, or for a schema object built from them. */
export function compile<T>(schema: object): ValidateFunction<T> {
  return ajv.compile<T>(schema);
}

export const validators = {
  record: ajv.getSchema('record.schema.json') as ValidateFunction,
  listResponse: ajv.getSchema('list-response.schema.json') as ValidateFunction,
  problem: ajv.getSchema('problem.schema.json') as ValidateFunction,
  sourceList: ajv.getSchema('source-list.schema.json') as ValidateFunction,
  removalList: ajv.getSchema('removal-list.schema.json') as ValidateFunction,
};

/** A JSON pointer as a client would write the path: /media/2 → media[2], /title/zh → title.zh. */
export function fieldPath(pointer: string, prefix = ''): string {
  let path = prefix;
  for (const segment of pointer.split('/').slice(1)) {
    const name = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(name) ? `[${name}]` : path ? `.${name}` : name;
  }
  return path;
}

/** The schemas' pattern for an http or https URL: the scheme in any case, as URL schemes are case-insensitive (RFC 3986). */
const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://';

/** How useful a keyword's message is to a client, most first: one that names the values a field takes beats one that names its type. */
const KEYWORD_ORDER = ['required', 'additionalProperties', 'uniqueItems', 'enum', 'pattern', 'format', 'minLength', 'maxLength', 'minItems', 'maxItems', 'type'];

function usefulness(keyword: string): number {
  const position = KEYWORD_ORDER.indexOf(keyword);
  return position < 0 ? KEYWORD_ORDER.length : position;
}

/** The names known where an unknown one was found: the caller's list at the top level, else the properties of the object schema there. */
function knownAt(error: ErrorObject, topLevelNames: readonly string[]): readonly string[] {
  if (error.instancePath === '' && topLevelNames.length) return topLevelNames;
  return Object.keys((error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
}

/** A uniqueItems error as the item that repeats an earlier one: media[1] "repeats media[0]". */
function repeatedItem(error: ErrorObject, name: string): { name: string; message: string } {
  const { i, j } = error.params as { i: number; j: number };
  return { name: `${name}[${Math.max(i, j)}]`, message: `repeats ${name}[${Math.min(i, j)}]` };
}

/** One ajv error in words; for an unknown name, the names known at its level (`known`), which describeErrors lists once. */
interface DescribedError {
  name: string;
  message: string;
  known?: readonly string[];
}

/** One ajv error as a field (or parameter) name and a message in words. */
function describeError(error: ErrorObject, knownNames: readonly string[], nameKey: 'parameter' | 'field', prefix: string): DescribedError {
  const name = fieldPath(error.instancePath, prefix);
  const message = error.message ?? 'is invalid';
  if (error.keyword === 'additionalProperties') {
    const unknown = String((error.params as { additionalProperty: string }).additionalProperty);
    const known = knownAt(error, knownNames);
    const likely = likelyName(unknown, known);
    return { name: [name, unknown].filter(Boolean).join('.'), message: `is not a known ${nameKey}${likely === undefined ? '' : ` (did you mean ${likely}?)`}`, known };
  }
  if (error.keyword === 'required') return { name: [name, String((error.params as { missingProperty: string }).missingProperty)].filter(Boolean).join('.'), message: 'is required' };
  if (error.keyword === 'uniqueItems') return repeatedItem(error, name);
  if (error.keyword === 'enum') return { name, message: `must be one of: ${((error.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}` };
  if (error.keyword === 'pattern' && /^year(\[\d+\])?$/.test(name)) return { name, message: 'must be a year of four digits, e.g. 2025' };
  if (error.keyword === 'format' && (error.params as { format: string }).format === 'date') {
    // Written YYYY-MM-DD but no day of the calendar (2025-02-30): said so, not that it must be written so.
    if (typeof error.data === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(error.data)) return { name, message: `must be a date on a day that exists (${error.data} is written YYYY-MM-DD, but there is no such day), e.g. 2025-05-01` };
    return { name, message: 'must be a date written YYYY-MM-DD, e.g. 2025-05-01' };
  }
  if ((error.keyword === 'pattern' && (error.params as { pattern: string }).pattern === VISIBLE_CHARACTER_PATTERN) || (error.keyword === 'minLength' && (error.params as { limit: number }).limit === 1)) {
    // A text with no visible character is blank, an empty one too: one message for it, not the length rule and the pattern both.
    return { name, message: 'must not be blank' };
  }
  if (error.keyword === 'minLength' || error.keyword === 'maxLength') {
    return { name, message: `must be ${error.keyword === 'minLength' ? 'at least' : 'at most'} ${(error.params as { limit: number }).limit} characters long` };
  }
  if (error.keyword === 'minItems' || error.keyword === 'maxItems') {
    const limit = (error.params as { limit: number }).limit;
    return { name, message: `must hold ${error.keyword === 'minItems' ? 'at least' : 'at most'} ${limit} ${limit === 1 ? 'entry' : 'entries'}` };
  }
  if (error.keyword === 'pattern' && name === 'id') return { name, message: 'must be a record id: lower-case letters, digits and hyphens, as search results give it (e.g. svg-gpt-4-8d5be076)' };
  if (error.keyword === 'pattern' && (error.params as { pattern: string }).pattern === HTTP_URL_PATTERN) return { name, message: 'must be an http or https URL' };
  return { name, message };
}

/**
 * Field errors named the way a client wrote them, one per field: where a value breaks several
 * rules (a string for an enum, a URL neither http(s) nor a URI), the most useful message is kept
 * (KEYWORD_ORDER). Fields keep the order of their first problem. The names known at a level are
 * listed once, with the first unknown name there (`is not a known parameter; known: q, …`): three
 * unknown arguments repeated the 17 search parameters three times, about 150 tokens.
 */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, knownNames: readonly string[], nameKey: 'parameter' | 'field', prefix = ''): FieldError[] {
  const best = new Map<string, DescribedError & { rank: number }>();
  for (const error of errors ?? []) {
    const described = describeError(error, knownNames, nameKey, prefix);
    const rank = usefulness(error.keyword);
    const kept = best.get(described.name);
    if (!kept || rank < kept.rank) best.set(described.name, { ...described, rank });
  }
  const listed = new Set<string>();
  return [...best.values()].map(({ name, message, known }) => {
    const names = known?.join(', ');
    if (names === undefined || listed.has(names)) return { [nameKey]: name, message };
    listed.add(names);
    return { [nameKey]: name, message: `${message}; known: ${names}` };
  });
}
