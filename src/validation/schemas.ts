import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import searchParamsSchema from '../../schemas/search-params.schema.json' with { type: 'json' };
import recordParamsSchema from '../../schemas/record-params.schema.json' with { type: 'json' };
import recordSchema from '../../schemas/record.schema.json' with { type: 'json' };
import listResponseSchema from '../../schemas/list-response.schema.json' with { type: 'json' };
import problemSchema from '../../schemas/problem.schema.json' with { type: 'json' };
import sourceListSchema from '../../schemas/source-list.schema.json' with { type: 'json' };
import { VISIBLE_CHARACTER_PATTERN } from '../domain/localize.ts';
import type { FieldError } from '../errors.ts';

/** The JSON Schemas in schemas/, the one source of truth for shapes at every edge. */
export const SCHEMAS = {
  searchParams: searchParamsSchema,
  recordParams: recordParamsSchema,
  record: recordSchema,
  listResponse: listResponseSchema,
  problem: problemSchema,
  sourceList: sourceListSchema,
} as const;

type JsonSchema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>> };

/** The timeline takes the search parameters, with kind fixed to timeline. */
export function timelineParamsSchema(): JsonSchema {
  const base = structuredClone(searchParamsSchema) as JsonSchema;
  const properties = base.properties ?? {};
  properties.kind = { ...properties.kind, items: { enum: ['timeline'] }, description: 'timeline only.', examples: [['timeline']] };
  return { ...base, $id: 'timeline-params.schema.json', title: 'TimelineParams', properties };
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: true, strictTypes: false });
addFormats(ajv);
ajv.addKeyword({ keyword: 'example' });
for (const schema of [recordSchema, listResponseSchema, problemSchema, sourceListSchema]) ajv.addSchema(schema);

/** A compiled validator for one of the schemas, or for a schema object built from them. */
export function compile<T>(schema: object): ValidateFunction<T> {
  return ajv.compile<T>(schema);
}

export const validators = {
  record: ajv.getSchema('record.schema.json') as ValidateFunction,
  listResponse: ajv.getSchema('list-response.schema.json') as ValidateFunction,
  problem: ajv.getSchema('problem.schema.json') as ValidateFunction,
  sourceList: ajv.getSchema('source-list.schema.json') as ValidateFunction,
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

/** Field errors named the way a client wrote them, one per problem. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, knownNames: readonly string[], nameKey: 'parameter' | 'field', prefix = ''): FieldError[] {
  const described: FieldError[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    let name = fieldPath(error.instancePath, prefix);
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'additionalProperties') {
      name = [name, String((error.params as { additionalProperty: string }).additionalProperty)].filter(Boolean).join('.');
      message = `is not a known ${nameKey}; known: ${knownNames.join(', ')}`;
    } else if (error.keyword === 'required') {
      name = [name, String((error.params as { missingProperty: string }).missingProperty)].filter(Boolean).join('.');
      message = 'is required';
    } else if (error.keyword === 'enum') {
      message = `must be one of: ${((error.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}`;
    } else if (error.keyword === 'pattern' && /^year(\[\d+\])?$/.test(name)) {
      message = 'must be a year of four digits, e.g. 2025';
    } else if (error.keyword === 'format' && (error.params as { format: string }).format === 'date') {
      message = 'must be a date written YYYY-MM-DD, e.g. 2025-05-01';
    } else if ((error.keyword === 'pattern' && error.params && (error.params as { pattern: string }).pattern === VISIBLE_CHARACTER_PATTERN) || (error.keyword === 'minLength' && (error.params as { limit: number }).limit === 1)) {
      // A text with no visible character is blank, an empty one too: one message for it, not the length rule and the pattern both.
      message = 'must not be blank';
    } else if (error.keyword === 'minLength' || error.keyword === 'maxLength') {
      message = `must be ${error.keyword === 'minLength' ? 'at least' : 'at most'} ${(error.params as { limit: number }).limit} characters long`;
    } else if (error.keyword === 'minItems' || error.keyword === 'maxItems') {
      const limit = (error.params as { limit: number }).limit;
      message = `must hold ${error.keyword === 'minItems' ? 'at least' : 'at most'} ${limit} ${limit === 1 ? 'entry' : 'entries'}`;
    } else if (error.keyword === 'pattern' && name === 'id') {
      message = 'must be a record id: lower-case letters, digits and hyphens, as search results give it (e.g. svg-gpt-4-8d5be076)';
    } else if (error.keyword === 'pattern' && (error.params as { pattern: string }).pattern === '^https?://') {
      message = 'must be an http or https URL';
    }
    const key = `${name}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    described.push({ [nameKey]: name, message });
  }
  return described;
}
