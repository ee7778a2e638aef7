/**
 * fast-check arbitraries for query strings of the read routes, built from
 * schemas/search-params.schema.json and schemas/record-params.schema.json. Every generated
 * parameter knows whether the schema accepts it, so a test can predict the answer.
 */
import fc from 'fast-check';
import searchParamsSchema from '../../schemas/search-params.schema.json' with { type: 'json' };
import { encodeCursor } from '../../src/domain/cursor.ts';
import { BUILT_IN_SOURCE_TABLE } from '../../src/domain/sources.ts';
import { MODELS, withinSearchTextBounds } from './support.ts';

/**
 * Whether the service must accept a value, refuse it, or may do either; `undecodable`: not
 * percent-encoded UTF-8, which the API refuses and the website's pages read as text.
 */
export type Validity = 'valid' | 'invalid' | 'either' | 'undecodable';

/** One `name=value` pair of a query string. */
export interface QueryPart {
  name: string;
  /** The value as sent, percent-encoded; undefined sends the name alone (`?name`). */
  encoded: string | undefined;
  /** The value the service sees after decoding, when it is known. */
  value: string | undefined;
  validity: Validity;
}

type SearchParamName = keyof typeof searchParamsSchema.properties;

/** The parameter names the list routes know. */
export const SEARCH_PARAM_NAMES = Object.keys(searchParamsSchema.properties) as SearchParamName[];

const properties = searchParamsSchema.properties;

/** The list parameters refused beside sourceUrl (read-params.ts). */
const BESIDE_SOURCE_URL_REFUSED = ['q', 'source', 'format', 'year', 'model', 'author', 'from', 'to', 'since', 'facets', 'cursor'];

function part(name: string, value: string, validity: Validity): QueryPart {
  return { name, encoded: encodeURIComponent(value), value, validity };
}

/** A value the service sees as the empty string: it counts as absent. */
function emptyValue(name: string): fc.Arbitrary<QueryPart> {
  return fc.constantFrom<QueryPart>({ name, encoded: '', value: '', validity: 'valid' }, { name, encoded: undefined, value: '', validity: 'valid' });
}

const ODD_TEXT = fc.constantFrom(
  '\u202egnihtemos\u202c',
  'zero\u200bwidth',
  'e\u0301\u0301\u0301',
  '😀🚲🦩',
  '\u0000null',
  '\ufeffbom',
  '\u3000full\u3000width',
  'ＧＰＴ－４ｏ',
  '"quoted"',
  'NEAR(pelican bicycle)',
  'pelican OR bicycle',
  'pelican*',
  '-pelican',
  '^start',
  'title:pelican',
  "'; DROP TABLE records; --",
  '%',
  '\\',
  '鹈',
  '鹈鹕 灯塔',
  'gpt-4o',
  'pelcian',
  'lighth',
);

/** Bytes that do not decode as UTF-8 or are not percent-escapes at all. */
const UNDECODABLE = fc.constantFrom('%FF', '%ED%A0%80', '%', '%zz', '%E4%B8', 'a%C0%AFb', '%F0%9F%98');

/** Any Unicode text of the given code-point lengths. */
function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: 'binary', minLength, maxLength }),
    fc.string({ unit: 'grapheme', minLength, maxLength }),
    fc.string({ unit: 'binary-ascii', minLength, maxLength }),
  ).filter((value) => [...value].length >= minLength && [...value].length <= maxLength);
}

/** Search text the schema takes: valid when within the bounds checked beside it (words, phrases' words, length as searched). */
function searchText(value: string): QueryPart {
  return part('q', value, withinSearchTextBounds(value) ? 'valid' : 'invalid');
}

function queryText(): fc.Arbitrary<QueryPart> {
  const maximum = properties.q.maxLength;
  return fc.oneof(
    { weight: 4, arbitrary: fc.oneof(ODD_TEXT, fc.constantFrom('pelican', 'lighthouse', 'work', '作品', 'bicycle city', 'fuzz record')).map((value) => part('q', value, 'valid')) },
    { weight: 3, arbitrary: text(1, 40).map(searchText) },
    { weight: 1, arbitrary: fc.integer({ min: maximum - 3, max: maximum }).chain((length) => text(length, length)).map(searchText) },
    { weight: 1, arbitrary: fc.constantFrom(' ', '   ', '\t', '\u3000', '\u00a0\n').map((value) => part('q', value, 'valid')) },
    { weight: 2, arbitrary: fc.integer({ min: maximum + 1, max: maximum + 60 }).chain((length) => text(length, length)).map((value) => part('q', value, 'invalid')) },
    { weight: 1, arbitrary: UNDECODABLE.map((encoded): QueryPart => ({ name: 'q', encoded, value: undefined, validity: 'undecodable' })) },
    { weight: 1, arbitrary: emptyValue('q') },
  );
}

/** A non-empty string outside the allowed values, in odd shapes too. */
function outsideEnum(allowed: readonly string[]): fc.Arbitrary<string> {
  const nearMisses = allowed.flatMap((value) => [value.toUpperCase(), ` ${value}`, `${value} `, `${value}\u200b`, `${value}s`, value.slice(0, -1)]);
  return fc.oneof(fc.constantFrom(...nearMisses), text(1, 24), fc.constantFrom('null', 'undefined', '[]', '{}', 'true', '0')).filter((value) => value !== '' && !allowed.includes(value));
}

function enumValue(name: string, allowed: readonly string[], acceptable: readonly string[] = allowed): fc.Arbitrary<QueryPart> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...allowed).map((value) => part(name, value, acceptable.includes(value) ? 'valid' : 'invalid')) },
    { weight: 2, arbitrary: outsideEnum(allowed).map((value) => part(name, value, 'invalid')) },
    { weight: 1, arbitrary: emptyValue(name) },
  );
}

/** A value that is not a list (no comma, no double quote) and is one non-blank piece. */
function onePiece(value: string): boolean {
  return !/[,"]/.test(value) && value.trim() !== '';
}

/** One to three values joined as a comma-separated list, some with a space after the comma. */
function listOf(values: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(fc.array(values, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([list, spaced]) => list.join(spaced ? ', ' : ','));
}

/** A list parameter: valid lists of allowed values, lists holding one bad value, empty (absent). */
function listValue(name: string, valid: fc.Arbitrary<string>, invalid: fc.Arbitrary<string>): fc.Arbitrary<QueryPart> {
  return fc.oneof(
    { weight: 5, arbitrary: listOf(valid).map((value) => part(name, value, 'valid')) },
    { weight: 2, arbitrary: fc.tuple(fc.array(valid, { maxLength: 2 }), invalid).map(([good, bad]) => part(name, [...good, bad].join(','), 'invalid')) },
    { weight: 1, arbitrary: emptyValue(name) },
  );
}

function enumListValue(name: string, allowed: readonly string[], acceptable: readonly string[] = allowed): fc.Arbitrary<QueryPart> {
  const refused = allowed.filter((value) => !acceptable.includes(value));
  const bad = fc.oneof(outsideEnum(allowed).filter((value) => onePiece(value) && !allowed.includes(value.trim())), ...(refused.length ? [fc.constantFrom(...refused)] : []));
  return listValue(name, fc.constantFrom(...acceptable), bad);
}

function yearValue(): fc.Arbitrary<QueryPart> {
  const valid = fc.oneof(fc.constantFrom('2022', '2023', '2024', '2025', '2026'), fc.integer({ min: 0, max: 9999 }).map((year) => String(year).padStart(4, '0')));
  const invalid = fc
    .oneof(fc.integer({ min: 0, max: 999 }).map(String), fc.integer({ min: 10000, max: 999999 }).map(String), fc.constantFrom('２０２５', '٢٠٢٥', '20x5', '-2025', '2025.0', '+202', '1e3', '0x7e9'), text(1, 8))
    .filter((value) => onePiece(value) && !/^[0-9]{4}$/.test(value.trim()));
  return listValue('year', valid, invalid);
}

/** Model and author values: labels of the catalog in any case, a quoted label holding a comma; too long or an unclosed quote is refused. */
function labelValue(name: 'model' | 'author'): fc.Arbitrary<QueryPart> {
  const labels = name === 'model' ? [...MODELS, 'gpt-4o', 'CLAUDE 3.5 SONNET', 'No Such Model'] : ['@factory_author', '@FACTORY_AUTHOR', '"Lee, Ann"', 'nobody'];
  return fc.oneof(
    { weight: 5, arbitrary: listOf(fc.constantFrom(...labels)).map((value) => part(name, value, 'valid')) },
    { weight: 2, arbitrary: fc.constantFrom('x'.repeat(201), '"unclosed, quote', `${'a,'.repeat(20)}a`).map((value) => part(name, value, 'invalid')) },
    { weight: 1, arbitrary: emptyValue(name) },
  );
}

/**
 * A work's address at its source: one of the fuzz catalog's works in another form its platform
 * writes (a mobile host, a share form, tracking parameters), a work the catalog does not hold, or
 * text that is no address; every one valid (it finds that work's records, or none).
 */
function sourceUrlValue(): fc.Arbitrary<QueryPart> {
  const ofIndex = fc.integer({ min: 0, max: 299 });
  const held = fc.oneof(
    ofIndex.map((index) => `https://twitter.com/someone_else/status/${1790000000000000000n + BigInt(index * 10)}?s=20`),
    ofIndex.map((index) => `https://old.reddit.com/r/AIART/comments/fz${index * 10 + 2}/?share_id=x`),
    ofIndex.map((index) => `https://youtu.be/fuzz${index * 10 + 5}?si=abc`),
    ofIndex.map((index) => `https://codepen.io/someone/full/pen${index * 10 + 8}`),
    ofIndex.map((index) => `https://GitHub.com/Fuzz-Owner-${index * 10 + 1}/work/`),
  );
  return fc.oneof(
    { weight: 4, arbitrary: held.map((value) => part('sourceUrl', value, 'valid')) },
    { weight: 1, arbitrary: fc.constantFrom('https://x.com/nobody/status/1', 'not an address', 'ftp://example.org/x', 'https://unknown.example/work?t=1').map((value) => part('sourceUrl', value, 'valid')) },
    { weight: 1, arbitrary: emptyValue('sourceUrl') },
  );
}

/** Dates: from before 2021 and to after it, so they never cross; invalid days and shapes are refused. */
function dateValue(name: 'from' | 'to' | 'since'): fc.Arbitrary<QueryPart> {
  const years = name === 'from' ? { min: 2015, max: 2020 } : name === 'to' ? { min: 2021, max: 2027 } : { min: 2015, max: 2027 };
  const valid = fc.date({ min: new Date(Date.UTC(years.min, 0, 1)), max: new Date(Date.UTC(years.max, 11, 31)), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
  return fc.oneof(
    { weight: 5, arbitrary: valid.map((value) => part(name, value, 'valid')) },
    { weight: 2, arbitrary: fc.oneof(fc.constantFrom('2025-02-30', '2025-13-01', '2025-1-1', '20250101', 'yesterday', '2025', '2025-05-01T00:00:00Z'), text(1, 12)).filter((value) => !/^\d{4}-\d{2}-\d{2}$/.test(value) || value === '2025-02-30' || value === '2025-13-01').map((value) => part(name, value, 'invalid')) },
    { weight: 1, arbitrary: emptyValue(name) },
  );
}

/** Cursors the service never gave out, so always refused. */
function cursorValue(): fc.Arbitrary<QueryPart> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/), text(1, 40), fc.constant('x'.repeat(1025))).map((value) => part('cursor', value, 'invalid')) },
    // Well formed but of no query: refused, yet only checked against the query when the other parameters are valid.
    { weight: 1, arbitrary: fc.constant(encodeCursor('AAAAAAAAAAA', { returned: 0, position: { date: '2025-01-01', id: 'a' } })).map((value): QueryPart => ({ ...part('cursor', value, 'either') })) },
    { weight: 1, arbitrary: UNDECODABLE.map((encoded): QueryPart => ({ name: 'cursor', encoded, value: undefined, validity: 'undecodable' })) },
    { weight: 1, arbitrary: emptyValue('cursor') },
  );
}

/** Integers written as a query string writes them, and everything that is not one in range. */
function integerValue(name: 'limit' | 'offset', minimum: number, maximum: number, likely: fc.Arbitrary<number>): fc.Arbitrary<QueryPart> {
  const inRange = (value: number): boolean => value >= minimum && value <= maximum;
  return fc.oneof(
    { weight: 5, arbitrary: likely.map((value) => part(name, String(value), 'valid')) },
    { weight: 1, arbitrary: fc.constantFrom(minimum, maximum).map((value) => part(name, String(value), 'valid')) },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 3 }), likely).map(([zeros, value]) => part(name, `${'0'.repeat(zeros)}${value}`, 'valid')) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(fc.integer({ min: -1000, max: minimum - 1 }), fc.integer({ min: maximum + 1, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom(minimum - 1, maximum + 1))
        .map((value) => part(name, String(value), inRange(value) ? 'valid' : 'invalid')),
    },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom('1.5', '2.0', '1e1', '+5', ' 5', '5 ', 'abc', '0x10', '--1', 'Infinity', 'NaN', '１０', '9999999999999999', '123456789012345678901234567890', '1,2', '[1]'),
          fc.double({ noNaN: true, noInteger: true }).map(String),
          text(1, 12),
        )
        .filter((value) => value !== '' && !(/^-?\d{1,15}$/.test(value) && inRange(Number(value))))
        .map((value) => part(name, value, 'invalid')),
    },
    { weight: 1, arbitrary: emptyValue(name) },
  );
}

/** A value for each known list parameter; kinds acceptable to the route are passed in. */
export function searchParamValue(name: SearchParamName, acceptableKinds: readonly string[]): fc.Arbitrary<QueryPart> {
  switch (name) {
    case 'q':
      return queryText();
    case 'year':
      return yearValue();
    case 'limit':
      return integerValue('limit', properties.limit.minimum, properties.limit.maximum, fc.integer({ min: 1, max: 50 }));
    case 'offset':
      return integerValue('offset', properties.offset.minimum, properties.offset.maximum, fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 10000 })));
    case 'kind':
      return enumListValue('kind', properties.kind.items.enum, acceptableKinds);
    case 'source':
      return enumListValue('source', BUILT_IN_SOURCE_TABLE.keys);
    case 'format':
      return enumListValue('format', properties.format.items.enum);
    case 'facets':
      return enumListValue('facets', properties.facets.items.enum);
    case 'model':
    case 'author':
      return labelValue(name);
    case 'sourceUrl':
      return sourceUrlValue();
    case 'from':
    case 'to':
    case 'since':
      return dateValue(name);
    case 'cursor':
      return cursorValue();
    case 'lang':
      return enumValue('lang', properties.lang.enum);
    case 'sort':
      return enumValue('sort', properties.sort.enum);
  }
}

const ODD_NAMES = fc.constantFrom('Q', 'LIMIT', 'limit ', ' q', 'page', 'per_page', 'callback', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'q[]', 'filter[format]', 'ｑ', 'lang\u200b', '$where');

/** A parameter the route does not know, with any value; an empty value counts as absent. */
export function unknownParam(knownNames: readonly string[]): fc.Arbitrary<QueryPart> {
  return fc
    .tuple(fc.oneof(ODD_NAMES, text(1, 16)), fc.oneof(fc.constant(''), text(1, 30), fc.constantFrom('1', 'true', 'x')))
    .filter(([name]) => !knownNames.includes(name) && name.trim() !== '' && !/[&=#]/.test(name))
    .map(([name, value]) => ({ name, encoded: encodeURIComponent(value), value, validity: value === '' ? 'valid' : 'invalid' }));
}

/** The query string of the parts, in their order. */
export function queryString(parts: readonly QueryPart[]): string {
  if (parts.length === 0) return '';
  return `?${parts.map((entry) => (entry.encoded === undefined ? encodeURIComponent(entry.name) : `${encodeURIComponent(entry.name)}=${entry.encoded}`)).join('&')}`;
}

/** What the service must answer for a set of query parts. */
export interface QueryExpectation {
  /** Parameters the 400 must name; empty when the query is valid. */
  mustName: string[];
  /** Parameters the 400 may name (values that may or may not decode). */
  mayName: string[];
  /** The decoded value of each known, non-empty, single parameter. */
  values: Map<string, string>;
}

/**
 * Predicts the answer: repeated names are errors, empty values are absent, the rest follows each
 * part's validity; a cursor (given once) refuses any offset beside it, 0 too.
 */
export function expectationOf(parts: readonly QueryPart[], knownNames: readonly string[], emptyIsAbsent = true): QueryExpectation {
  const counts = new Map<string, number>();
  for (const entry of parts) counts.set(entry.name, (counts.get(entry.name) ?? 0) + 1);
  const mustName = new Set<string>();
  const mayName = new Set<string>();
  const values = new Map<string, string>();
  for (const entry of parts) {
    if ((counts.get(entry.name) ?? 0) > 1) {
      mustName.add(entry.name);
      continue;
    }
    const known = knownNames.includes(entry.name);
    if (entry.value === '' && emptyIsAbsent) continue;
    if (entry.validity === 'either') mayName.add(entry.name);
    else if (!known || entry.validity === 'invalid' || entry.validity === 'undecodable') mustName.add(entry.name);
    else if (entry.value !== undefined) values.set(entry.name, entry.value);
  }
  const cursor = parts.find((entry) => entry.name === 'cursor' && counts.get('cursor') === 1 && entry.value !== '');
  const offset = values.get('offset');
  // Beside a work's address only kind, lang, limit, offset (and sort) are taken; a cursor there is refused, not checked against offset.
  const bySourceUrl = values.has('sourceUrl');
  if (bySourceUrl) for (const entry of parts) if (BESIDE_SOURCE_URL_REFUSED.includes(entry.name) && entry.value !== '' && counts.get(entry.name) === 1) mustName.add(entry.name);
  if (cursor && offset !== undefined && !bySourceUrl) (cursor.value === undefined ? mayName : mustName).add('offset');
  return { mustName: [...mustName], mayName: [...mayName], values };
}

/** A query of known and unknown parameters, some repeated, in any order. */
export function queryParts(knownNames: readonly SearchParamName[], acceptableKinds: readonly string[]): fc.Arbitrary<QueryPart[]> {
  const known = fc.constantFrom(...knownNames).chain((name) => searchParamValue(name, acceptableKinds));
  return fc
    .tuple(
      fc.uniqueArray(known, { maxLength: 6, selector: (entry) => entry.name }),
      fc.oneof({ weight: 4, arbitrary: fc.constant<QueryPart[]>([]) }, { weight: 1, arbitrary: fc.array(unknownParam(knownNames), { minLength: 1, maxLength: 2 }) }),
      fc.oneof({ weight: 5, arbitrary: fc.constant<QueryPart[]>([]) }, { weight: 1, arbitrary: fc.array(known, { minLength: 1, maxLength: 1 }) }),
    )
    .chain(([single, unknown, repeated]) => fc.shuffledSubarray([...single, ...unknown, ...repeated], { minLength: single.length + unknown.length + repeated.length }));
}
