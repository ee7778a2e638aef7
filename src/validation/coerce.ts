/**
 * Parameters as clients write them, turned into what the JSON Schemas describe. Driven by each
 * property's declared type, so the query-string parser and the MCP tools convert alike:
 * - absent: a missing value, null, "" or an empty list (a plain HTML form sends `q=`), for the
 *   names the schema knows (any other name is kept for the schema to refuse);
 * - integer: a string of digits ("5", as query strings and some LLMs write numbers) becomes 5;
 * - string: an integer (year 2025 as an LLM writes it) becomes its digits;
 * - list: one value becomes a list of one, a string is split at commas ("svg,game"; a value
 *   holding a comma is written in double quotes, a quote inside quotes doubled).
 * Anything else is left for the schema to refuse with its usual message.
 */
import type { FieldError } from '../errors.ts';

type PropertySchema = Record<string, unknown> & { type?: string; items?: { type?: string } };

/**
 * A query-string or argument value written as an integer. Past 15 digits the number is not exact,
 * but its size is, which is what the schema's bounds then judge: `limit=99999999999999999999` is
 * told the values allowed (`must be <= 50`), not that it is no integer. Past 300 digits it would
 * be Infinity, which is no integer.
 */
const INTEGER_TEXT = /^-?\d{1,300}$/;

/**
 * The values of a comma-separated list, each trimmed, empty ones dropped; undefined when a
 * quoted value is never closed.
 */
export function splitList(text: string): string[] | undefined {
  const values: string[] = [];
  let current = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const character = text[i] as string;
    if (quoted) {
      if (character === '"' && text[i + 1] === '"') {
        current += '"';
        i += 1;
      } else if (character === '"') quoted = false;
      else current += character;
    } else if (character === '"' && current.trim() === '') {
      quoted = true;
      wasQuoted = true;
      current = '';
    } else if (character === ',') {
      values.push(wasQuoted ? current : current.trim());
      current = '';
      wasQuoted = false;
    } else if (!(wasQuoted && /\s/.test(character))) current += character;
  }
  if (quoted) return undefined;
  values.push(wasQuoted ? current : current.trim());
  return values.filter((value) => value !== '');
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function coerceScalar(value: unknown, type: string | undefined): unknown {
  if (type === 'integer' && typeof value === 'string' && INTEGER_TEXT.test(value)) return Number(value);
  if (type === 'string' && typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return value;
}

/**
 * The input the schema validates: each known property converted by its declared type, absent
 * values dropped; unknown names are kept so the schema names them. A list whose quotes are never
 * closed is reported in `errors`.
 */
export function coerceParameters(raw: Record<string, unknown>, properties: Record<string, PropertySchema>, errors: FieldError[]): Record<string, unknown> {
  // No prototype: a parameter named __proto__ must stay a key the schema refuses, not vanish.
  const input = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(raw)) {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    // Unknown names are kept, whatever their value, so the schema names them.
    if (property && isAbsent(value)) continue;
    if (property?.type !== 'array') {
      input[name] = coerceScalar(value, property?.type);
      continue;
    }
    let list: unknown[];
    if (typeof value === 'string') {
      const values = splitList(value);
      if (values === undefined) {
        errors.push({ parameter: name, message: 'has a double quote that is never closed' });
        continue;
      }
      list = values;
    } else list = Array.isArray(value) ? value : [value];
    if (list.length > 0) input[name] = list.map((entry) => coerceScalar(entry, property.items?.type));
  }
  return input;
}
