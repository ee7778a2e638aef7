/**
 * fast-check arbitraries for ingest bodies, built from schemas/submission.schema.json: valid
 * submissions (boundary lengths included) and submissions broken in known fields, each carrying
 * the field names the 400 must give.
 */
import fc from 'fast-check';
import submissionSchema from '../../schemas/submission.schema.json' with { type: 'json' };
import { VISIBLE_CHARACTER_PATTERN } from '../../src/domain/localize.ts';
import { BUILT_IN_SOURCE_TABLE, SOURCES, UNKNOWN_SOURCE } from '../../src/domain/sources.ts';

const fields = submissionSchema.properties;
const bilingual = submissionSchema.$defs.bilingual.properties;
const VISIBLE = new RegExp(VISIBLE_CHARACTER_PATTERN, 'u');

/** The fields a submission may carry. */
export const SUBMISSION_FIELDS = Object.keys(fields);
const REQUIRED_FIELDS: readonly string[] = submissionSchema.required;

/** A submission as JSON: any field may hold anything once it is broken. */
export type SubmissionBody = Record<string, unknown>;

/** A body and the field paths a 400 must name (empty for a valid body). */
export interface CandidateSubmission {
  body: SubmissionBody;
  mustName: string[];
}

const codePoints = (value: string): number => [...value].length;

/** Text of the given code-point lengths holding at least one visible character, as the schema's pattern asks. */
function visibleText(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength, maxLength }) },
      { weight: 1, arbitrary: fc.constantFrom('鹈鹕骑自行车', 'A pelican\u200b riding', '\u202eevil', '😀', 'e\u0301', '@handle', 'GPT-4o', "'; DROP TABLE submissions; --", '<script>alert(1)</script>') },
    )
    .filter((value) => codePoints(value) >= minLength && codePoints(value) <= maxLength && VISIBLE.test(value));
}

/** What a text in each language must hold one of (see textsInNoLanguage in src/validation/submission.ts), and a character of it. */
const LANGUAGE_MARK = { zh: { pattern: /\p{Script=Han}/u, character: '字' }, en: { pattern: /\p{Script=Latin}/u, character: 'a' } } as const;

/** Any visible text of a title or notes in one language: holding a Chinese character in zh, a Latin letter in en; the longest allowed now and then. */
function inLanguage(lang: 'zh' | 'en'): fc.Arbitrary<string> {
  const { pattern, character } = LANGUAGE_MARK[lang];
  return fc.oneof({ weight: 6, arbitrary: visibleText(1, 59).map((value) => (pattern.test(value) ? value : `${character}${value}`)) }, { weight: 1, arbitrary: fc.constant(character.repeat(bilingual[lang].maxLength)) });
}

/** Exactly `length` code points, for boundaries. */
function textOfLength(length: number): fc.Arbitrary<string> {
  return fc.constantFrom('a', '字', '😀', 'é').map((character) => character.repeat(length));
}

const hosts = [...SOURCES.flatMap((source) => [...source.hosts, ...source.mediaHosts]), 'uploads.example.org', 'localhost'];
const pathSegment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,24}$/);

/** http(s) URLs the schema's `uri` format and pattern accept (the scheme in any case), up to the length bound. */
function webUrl(): fc.Arbitrary<string> {
  const maximum = fields.sourceUrl.maxLength;
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(fc.constantFrom('https', 'https', 'http', 'HTTPS', 'Http'), fc.constantFrom(...hosts), fc.array(pathSegment, { minLength: 1, maxLength: 4 }), fc.option(fc.stringMatching(/^[a-z]{1,8}=[a-z0-9]{1,8}$/), { nil: undefined })).map(([scheme, host, segments, query]) => `${scheme}://${host}/${segments.join('/')}${query ? `?${query}` : ''}`) },
    { weight: 1, arbitrary: fc.constantFrom('https://github.com/a/b', `https://x.com/${'a'.repeat(maximum - 'https://x.com/'.length)}`) },
  );
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A line break, which model, author and title may not hold. */
const LINE_BREAK = /[\r\n\u2028\u2029]/;
const oneLine = (value: string): boolean => !LINE_BREAK.test(value);

/** A valid submission: every required field, optional prompt, boundary lengths now and then. */
export function validSubmission(): fc.Arbitrary<SubmissionBody> {
  const model = fc.oneof({ weight: 5, arbitrary: visibleText(1, 40).filter(oneLine) }, { weight: 1, arbitrary: textOfLength(fields.model.maxLength) });
  const pair = fc.record({ zh: inLanguage('zh'), en: inLanguage('en') });
  const titles = fc.record({ zh: inLanguage('zh').filter(oneLine), en: inLanguage('en').filter(oneLine) });
  return fc.record(
    {
      sourceUrl: webUrl(),
      date: fc.oneof(fc.date({ min: new Date('2015-01-01T00:00:00Z'), max: new Date('2026-12-31T00:00:00Z'), noInvalidDate: true }).map(isoDate), fc.constantFrom('2024-02-29', '2000-02-29')),
      model,
      author: model,
      format: fc.constantFrom(...fields.format.enum),
      title: titles,
      notes: pair,
      // Distinct as the archive compares them: parsed, so HTTPS://a/b and https://a/b are one URL.
      media: fc.uniqueArray(webUrl(), { minLength: fields.media.minItems, maxLength: fields.media.maxItems, selector: (url) => new URL(url).href }),
      prompt: fc.oneof({ weight: 6, arbitrary: visibleText(1, 80) }, { weight: 1, arbitrary: textOfLength(fields.prompt.maxLength) }),
    },
    { requiredKeys: [...REQUIRED_FIELDS] as never[] },
  );
}

/** A JSON value of a type other than the one a field takes. */
function wrongType(expected: 'string' | 'object' | 'array'): fc.Arbitrary<unknown> {
  const candidates = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }), fc.string({ maxLength: 8 }));
  return candidates.filter((value) => {
    if (expected === 'string') return typeof value !== 'string';
    if (expected === 'array') return !Array.isArray(value);
    return value === null || typeof value !== 'object' || Array.isArray(value);
  });
}

/** One way to break a submission: which top-level field it touches, and what it does. */
interface Breakage {
  field: string;
  apply: (body: SubmissionBody) => { body: SubmissionBody; mustName: string[] };
}

function setField(field: string, value: unknown, name = field): Breakage {
  return { field, apply: (body) => ({ body: { ...body, [field]: value }, mustName: [name] }) };
}

function breakages(): fc.Arbitrary<Breakage> {
  const textField = fc.constantFrom('model', 'author');
  const pairField = fc.constantFrom('title', 'notes');
  const language = fc.constantFrom('zh', 'en');
  return fc.oneof(
    fc.constantFrom(...REQUIRED_FIELDS).map((field): Breakage => ({ field, apply: (body) => ({ body: Object.fromEntries(Object.entries(body).filter(([name]) => name !== field)), mustName: [field] }) })),
    fc.tuple(fc.constantFrom('sourceUrl', 'date', 'model', 'author', 'format', 'prompt'), wrongType('string')).map(([field, value]) => setField(field, value)),
    fc.tuple(pairField, wrongType('object')).map(([field, value]) => setField(field, value)),
    wrongType('array').map((value) => setField('media', value)),
    fc.constantFrom('ftp://github.com/a', 'not a url', 'javascript:alert(1)', 'https://exa mple.com/', '//github.com/a', `https://github.com/${'a'.repeat(fields.sourceUrl.maxLength)}`, 'https://github.com/\u00e9', '').map((value) => setField('sourceUrl', value)),
    fc.constantFrom('2025-13-01', '2025-02-30', '2023-02-29', '25-01-01', '2025/01/01', '2025-1-1', '2025-01-01T00:00:00Z', 'yesterday', '', '２０２５-01-01').map((value) => setField('date', value)),
    fc.tuple(textField, fc.oneof(fc.constantFrom('', ' ', '\t\n', '\u3000', '\u200b', '\u202e\u0007'), textOfLength(fields.model.maxLength + 1))).map(([field, value]) => setField(field, value)),
    fc.string({ minLength: 1, maxLength: 10 }).filter((value) => !fields.format.enum.includes(value)).map((value) => setField('format', value)),
    fc.tuple(textField, fc.constantFrom('GPT\n4', 'Author\r\nInjected: header', 'a\u2028b')).map(([field, value]) => setField(field, value)),
    fc.tuple(language, fc.constantFrom('\n', '\r\n', '\u2029')).map(([lang, line]): Breakage => ({ field: 'title', apply: (body) => ({ body: { ...body, title: { zh: '中文', en: 'English', [lang]: lang === 'zh' ? `第一行${line}第二行` : `First${line}second` } }, mustName: [`title.${lang}`] }) })),
    fc.tuple(pairField, language).map(([field, lang]): Breakage => ({ field, apply: (body) => ({ body: { ...body, [field]: lang === 'zh' ? { en: 'only English' } : { zh: '只有中文' } }, mustName: [`${field}.${lang}`] }) })),
    fc.tuple(pairField, language, fc.oneof(fc.constantFrom('', '   ', '\u00a0', '\u2066 \u2069', '\ufeff'), textOfLength(bilingual.zh.maxLength + 1))).map(([field, lang, value]): Breakage => ({ field, apply: (body) => ({ body: { ...body, [field]: { zh: '中文', en: 'English', [lang]: value } }, mustName: [`${field}.${lang}`] }) })),
    pairField.map((field): Breakage => ({ field, apply: (body) => ({ body: { ...body, [field]: { zh: '中文', en: 'English', fr: 'Français' } }, mustName: [`${field}.fr`] }) })),
    fc.tuple(pairField, language).map(([field, lang]): Breakage => ({ field, apply: (body) => ({ body: { ...body, [field]: { zh: '中文', en: 'English', [lang]: lang === 'zh' ? 'Only English, 2025' : '只有中文 2025' } }, mustName: [`${field}.${lang}`] }) })),
    fc.constantFrom<unknown[]>([], Array.from({ length: fields.media.maxItems + 1 }, (_, index) => `https://pbs.twimg.com/media/${index}.png`)).map((value) => setField('media', value)),
    fc.constant(setField('media', ['https://pbs.twimg.com/a.png', 'https://pbs.twimg.com/a.png'], 'media[1]')),
    fc.tuple(fc.integer({ min: 0, max: 2 }), fc.constantFrom<unknown>('not a url', 'ftp://pbs.twimg.com/a.png', 7, null, '')).map(([index, item]): Breakage => ({
      field: 'media',
      apply: (body) => {
        const media = ['https://pbs.twimg.com/m/first.png', 'https://pbs.twimg.com/m/second.png'].slice(0, index);
        return { body: { ...body, media: [...media, item] }, mustName: [`media[${index}]`] };
      },
    })),
    fc.oneof(fc.constantFrom('', ' ', '\u200b\n'), textOfLength(fields.prompt.maxLength + 1)).map((value) => setField('prompt', value)),
    fc.constantFrom('extra', 'id', 'kind', 'status', '__proto__', 'constructor', 'Title', 'source_url', 'mediaStatus').map((field): Breakage => ({
      field,
      apply: (body) => {
        const broken: SubmissionBody = { ...body };
        Object.defineProperty(broken, field, { value: 'x', enumerable: true, writable: true, configurable: true });
        return { body: broken, mustName: [field] };
      },
    })),
  );
}

/**
 * A valid submission broken in one to three different fields. An http:// source URL on an unknown
 * host that no breakage touched is broken too (refusedAfterSchema), and named in the same 400.
 */
export function invalidSubmission(): fc.Arbitrary<CandidateSubmission> {
  return fc.tuple(validSubmission(), fc.uniqueArray(breakages(), { minLength: 1, maxLength: 3, selector: (breakage) => breakage.field })).map(([body, chosen]) => {
    const broken = chosen.reduce<CandidateSubmission>(
      (candidate, breakage) => {
        const next = breakage.apply(candidate.body);
        return { body: next.body, mustName: [...candidate.mustName, ...next.mustName] };
      },
      { body, mustName: [] },
    );
    return { body: broken.body, mustName: [...new Set([...broken.mustName, ...refusedAfterSchema(broken.body)])] };
  });
}

/**
 * The fields a body valid by the schema must still be refused for: an http:// source URL whose
 * host is no known source (a known source's is made https instead).
 */
export function refusedAfterSchema(body: SubmissionBody): string[] {
  const sourceUrl = (body as { sourceUrl?: unknown }).sourceUrl;
  if (typeof sourceUrl !== 'string' || !/^http:\/\//i.test(sourceUrl)) return [];
  return BUILT_IN_SOURCE_TABLE.keyForHost(new URL(sourceUrl).hostname) === UNKNOWN_SOURCE ? ['sourceUrl'] : [];
}

/** Valid and broken submissions, about half each. */
export function candidateSubmission(): fc.Arbitrary<CandidateSubmission> {
  return fc.oneof(validSubmission().map((body): CandidateSubmission => ({ body, mustName: refusedAfterSchema(body) })), invalidSubmission());
}

/** True when a reported field path is one of the broken fields or lies inside one. */
export function liesWithin(reported: string, broken: readonly string[]): boolean {
  return broken.some((name) => reported === name || reported.startsWith(`${name}.`) || reported.startsWith(`${name}[`));
}
