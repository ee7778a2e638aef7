import { httpSourceUrlProblem } from '../domain/ingest/submit.ts';
import type { SourceTable } from '../domain/sources.ts';
import type { Submission } from '../domain/submission.ts';
import { BODY_FIELD, onePerInput } from '../errors.ts';
import type { FieldError } from '../errors.ts';
import submissionSchema from '../../schemas/submission.schema.json' with { type: 'json' };
import { compile, describeErrors, fieldPath } from './schemas.ts';

const validateSubmission = compile<Submission>(submissionSchema);
const FIELDS = Object.keys(submissionSchema.properties);
const REQUIRED_FIELDS = submissionSchema.required.map((name) => `"${name}": …`).join(', ');

/** True for a JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A URL in the form two previews are compared in: parsed (the WHATWG href: scheme and host in
 * lower case, a default port dropped, dot segments resolved) with its percent-escapes in upper
 * case, which RFC 3986 counts as the same. Undefined for text that does not parse.
 */
function comparableUrl(text: string): string | undefined {
  try {
    return new URL(text).href.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
  } catch {
    return undefined;
  }
}

/**
 * Each preview URL that repeats an earlier one, compared parsed (https://A/1.png repeats
 * https://a/1.png), named as a repeat: media[2] "repeats media[0]". The schema's uniqueItems only
 * sees repeats written alike.
 */
function repeatedPreviews(media: unknown, prefix: string): FieldError[] {
  if (!Array.isArray(media)) return [];
  const list = fieldPath('/media', prefix);
  const firstIndexOf = new Map<string, number>();
  const errors: FieldError[] = [];
  media.forEach((entry: unknown, index) => {
    const url = typeof entry === 'string' ? comparableUrl(entry) : undefined;
    if (url === undefined) return;
    const first = firstIndexOf.get(url);
    if (first === undefined) firstIndexOf.set(url, index);
    else errors.push({ field: `${list}[${index}]`, message: `repeats ${list}[${first}]` });
  });
  return errors;
}

/**
 * Each text of a submission that is not Unicode (it holds an unpaired UTF-16 surrogate, which
 * JSON's `\ud800` escapes can write), named by its field path. Such text was published, and the
 * record's pages then failed to make their addresses.
 */
function textsNotUnicode(value: unknown, path: string): FieldError[] {
  if (typeof value === 'string') return value.isWellFormed() ? [] : [{ field: path, message: 'is not Unicode text: it holds an unpaired surrogate (a \\ud800–\\udfff escape without its pair)' }];
  if (Array.isArray(value)) return value.flatMap((entry: unknown, index) => textsNotUnicode(entry, `${path}[${index}]`));
  if (isJsonObject(value)) return Object.entries(value).flatMap(([name, entry]) => textsNotUnicode(entry, path ? `${path}.${name}` : name));
  return [];
}

/** What a text in each language holds at least one of: a Chinese character, a Latin letter. */
const LANGUAGE_MARK = { zh: /\p{Script=Han}/u, en: /\p{Script=Latin}/u } as const;
const LANGUAGE_NAME = { zh: 'Chinese: it holds no Chinese character', en: 'English: it holds no Latin letter' } as const;

/**
 * Each of title and notes whose text in one language cannot be that language: a zh text without
 * a Chinese character, an en text without a Latin letter (both languages given the same English,
 * say). Names the field; blank or missing texts are the schema's to name.
 */
function textsInNoLanguage(value: Record<string, unknown>, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of ['title', 'notes'] as const) {
    const texts = value[field];
    if (!isJsonObject(texts)) continue;
    for (const lang of ['zh', 'en'] as const) {
      const text = texts[lang];
      if (typeof text === 'string' && text.trim() !== '' && !LANGUAGE_MARK[lang].test(text)) errors.push({ field: fieldPath(`/${field}/${lang}`, prefix), message: `must be written in ${LANGUAGE_NAME[lang]}` });
    }
  }
  return errors;
}

/**
 * Each address of a submission (sourceUrl, each preview) that carries a user name or password.
 * The publisher would refuse to fetch or accept them anyway, later; refused at once, the secret is
 * never stored, nor repeated in a check's reason.
 */
function addressesWithCredentials(value: Record<string, unknown>, prefix: string): FieldError[] {
  const addresses: [string, unknown][] = [['/sourceUrl', value.sourceUrl], ...(Array.isArray(value.media) ? value.media.map((entry: unknown, index): [string, unknown] => [`/media/${index}`, entry]) : [])];
  return addresses
    .filter(([, address]) => {
      if (typeof address !== 'string' || !address.includes('@')) return false;
      const parsed = URL.parse(address);
      return parsed !== null && (parsed.username !== '' || parsed.password !== '');
    })
    .map(([pointer]) => ({ field: fieldPath(pointer, prefix), message: 'must not carry a user name or password' }));
}

/** The source URL when it is http:// on a host that is no known source (httpSourceUrlProblem): the archive cannot make it https. */
function sourceUrlNotSecure(value: Record<string, unknown>, sources: SourceTable, prefix: string): FieldError[] {
  const problem = httpSourceUrlProblem(value.sourceUrl, sources);
  return problem ? [{ field: fieldPath('/sourceUrl', prefix), message: problem }] : [];
}

/** A line break: what a field of one line (a model label, an author, a title) may not hold. */
const LINE_BREAK = /[\r\n\u2028\u2029]/;

/**
 * Each field of one line holding a line break: model, author and the title in either language.
 * `Author\r\nInjected: header` broke the fact list of the record's Markdown twin into a fact of
 * its own.
 */
function textsOffTheirLine(value: Record<string, unknown>, prefix: string): FieldError[] {
  const oneLine: [string, unknown][] = [['/model', value.model], ['/author', value.author]];
  if (isJsonObject(value.title)) oneLine.push(['/title/zh', value.title.zh], ['/title/en', value.title.en]);
  return oneLine.filter(([, text]) => typeof text === 'string' && LINE_BREAK.test(text)).map(([pointer]) => ({ field: fieldPath(pointer, prefix), message: 'must be one line: it holds a line break' }));
}

/**
 * How large one field of a submission may be before it is checked: the JSON values it holds (a
 * title holds 3, media at most 7) and how deep they nest (media's 2). Far larger fields are
 * refused unread: checking each of 2,500 previews, or following 3,000 nested arrays, took seconds
 * of the event loop for one body, or overflowed the stack.
 */
const FIELD_SIZE_LIMIT = { values: 64, depth: 4 } as const;

/** More unknown fields than this beside the schema's are refused unread, as one problem. */
const UNKNOWN_FIELD_LIMIT = 16;

/** Why a field's value is too large to check (FIELD_SIZE_LIMIT), or undefined; walks at most the limit's values. */
function tooLarge(value: unknown): string | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  let values = 0;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    values += 1;
    if (values > FIELD_SIZE_LIMIT.values) return `holds more than ${FIELD_SIZE_LIMIT.values} JSON values`;
    if (next.depth > FIELD_SIZE_LIMIT.depth) return `nests more than ${FIELD_SIZE_LIMIT.depth} levels deep`;
    const children = Array.isArray(next.value) ? next.value : isJsonObject(next.value) ? Object.values(next.value) : [];
    if (children.length > FIELD_SIZE_LIMIT.values) return `holds more than ${FIELD_SIZE_LIMIT.values} JSON values`;
    for (const child of children) pending.push({ value: child, depth: next.depth + 1 });
  }
  return undefined;
}

/**
 * Checks one submission against schemas/submission.schema.json, its previews for repeats once
 * parsed, and the rules the schema cannot state (an http source URL on a host the source table
 * `sources` does not know, among others), all at once; every problem is named by its field path.
 * A value that is no JSON object at all is one problem, named by the prefix (the batch item) or,
 * for a whole body, `body`. A field far larger than any submission's (FIELD_SIZE_LIMIT) is named
 * as such and not checked further, the other fields are; a body of many unknown fields is one
 * problem.
 */
export function checkSubmission(value: unknown, sources: SourceTable, prefix = ''): { ok: true; submission: Submission } | { ok: false; errors: FieldError[] } {
  if (!isJsonObject(value)) return { ok: false, errors: [{ field: prefix || BODY_FIELD, message: `must be a JSON object: a submission, { ${REQUIRED_FIELDS} }` }] };
  const names = Object.keys(value);
  if (names.length > FIELDS.length + UNKNOWN_FIELD_LIMIT) return { ok: false, errors: [{ field: prefix || BODY_FIELD, message: `holds ${names.length} fields, where a submission takes these ${FIELDS.length}: ${FIELDS.join(', ')}` }] };
  const oversized = names.flatMap((name) => {
    const why = tooLarge(value[name]);
    return why ? [{ field: fieldPath(`/${name}`, prefix), message: `${why}: far more than a submission's ${name} may (media holds at most 6 previews); not checked further` }] : [];
  });
  if (oversized.length) {
    const large = new Set(oversized.map((error) => error.field));
    const rest = Object.fromEntries(Object.entries(value).filter(([name]) => !large.has(fieldPath(`/${name}`, prefix))));
    const checked = checkSubmission(rest, sources, prefix);
    return { ok: false, errors: [...oversized, ...(checked.ok ? [] : checked.errors.filter((error) => !large.has(error.field ?? '')))] };
  }
  const valid = validateSubmission(value);
  // Repeats are named by repeatedPreviews, which sees every one of them; ajv's uniqueItems names the first pair written alike.
  const schemaErrors = valid ? [] : describeErrors(validateSubmission.errors?.filter((error) => error.keyword !== 'uniqueItems'), FIELDS, 'field', prefix);
  const named = new Set(schemaErrors.map((error) => error.field));
  const errors = [...schemaErrors, ...[...repeatedPreviews(value.media, prefix), ...textsNotUnicode(value, prefix), ...textsInNoLanguage(value, prefix), ...textsOffTheirLine(value, prefix), ...addressesWithCredentials(value, prefix), ...sourceUrlNotSecure(value, sources, prefix)].filter((error) => !named.has(error.field))];
  if (valid && errors.length === 0) return { ok: true, submission: value };
  // One entry per field: a text that breaks several of the rules above (a line break in a title with no Latin letter) names each in it.
  return { ok: false, errors: errors.length ? onePerInput(errors) : describeErrors(validateSubmission.errors, FIELDS, 'field', prefix) };
}

export { submissionSchema };
