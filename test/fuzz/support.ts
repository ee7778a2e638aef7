/**
 * Shared pieces of the property-based fuzz suites: run settings (fixed seed, overridable with
 * FUZZ_SEED and FUZZ_RUNS), the problem+json invariant, a deterministic catalog spanning every
 * source, format, kind and several years, and the filter oracle computed from the test's own data.
 */
import { expect } from 'chai';
import type fc from 'fast-check';
import { validators } from '../../src/validation/schemas.ts';
import type { CanonicalRecord, Format, Kind } from '../../src/domain/record.ts';
import { FORMATS } from '../../src/domain/record.ts';
import { makeRecord } from '../helpers/factories.ts';
import { MAX_OR_COMBINATIONS, MAX_PHRASE_WORDS, MAX_QUERY_WORDS } from '../../src/domain/search-query.ts';
import { orCombinations, parseSearchText, queryWords } from '../../src/search/search-text.ts';
import searchParamsSchema from '../../schemas/search-params.schema.json' with { type: 'json' };

const DEFAULT_SEED = 20261122;

/** The seed every property starts from: FUZZ_SEED when set, else a fixed one, so a failure reproduces. */
export const FUZZ_SEED = parseEnvInteger('FUZZ_SEED') ?? DEFAULT_SEED;
const RUNS_OVERRIDE = parseEnvInteger('FUZZ_RUNS');

function parseEnvInteger(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}

/** Number of runs of one property: FUZZ_RUNS when set, else the property's own default. */
export function runsFor(defaultRuns: number): number {
  return RUNS_OVERRIDE ?? defaultRuns;
}

/** fast-check parameters for one property of `runs` runs. */
export function fuzzParameters(runs: number): fc.Parameters<unknown> {
  return { seed: FUZZ_SEED, numRuns: runs, endOnFailure: true };
}

/** A mocha timeout that grows with the run count, never below the floor. */
export function timeoutFor(runs: number, msPerRun: number, floorMs = 20_000): number {
  return Math.max(floorMs, runs * msPerRun);
}

/** One RFC 9457 problem body as the service sends it. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: { parameter?: string; field?: string; message: string }[];
}

/**
 * Reads a 4xx answer and checks it is application/problem+json, matches the problem schema and
 * carries its own HTTP status; a 400 must name every bad input in `errors`.
 */
export async function expectProblem(response: Response, what: string): Promise<ProblemBody> {
  expect(response.status, `${what}: status`).to.be.within(400, 499);
  expect(response.headers.get('content-type') ?? '', `${what}: content type`).to.match(/^application\/problem\+json/);
  const body = (await response.json()) as ProblemBody;
  expect(validators.problem(body), `${what}: problem schema ${JSON.stringify(validators.problem.errors)}`).to.equal(true);
  expect(body.status, `${what}: body status`).to.equal(response.status);
  if (response.status === 400) {
    expect(body.errors?.length ?? 0, `${what}: errors of a 400`).to.be.above(0);
    // One entry per input: an input that breaks several rules has its messages joined in one.
    const named = namedInputs(body);
    expect(named.filter((name, index) => named.indexOf(name) !== index), `${what}: inputs named more than once`).to.deep.equal([]);
  }
  return body;
}

/** The names a 400 problem gives to the bad inputs (parameters or fields). */
export function namedInputs(problem: ProblemBody): string[] {
  return (problem.errors ?? []).map((error) => error.parameter ?? error.field ?? '');
}

/** Fails with the request and the body when the service answered 5xx. */
export async function expectNoServerError(response: Response, what: string): Promise<void> {
  if (response.status >= 500) {
    expect.fail(`${what}: answered ${response.status}: ${await response.text()}`);
  }
}

const SOURCE_URLS: ((index: number) => string)[] = [
  (index) => `https://x.com/fuzz_user${index}/status/${1790000000000000000n + BigInt(index)}`,
  (index) => `https://github.com/fuzz-owner-${index}/work`,
  (index) => `https://reddit.com/r/aiart/comments/fz${index}/post`,
  (index) => `https://bilibili.com/video/BV1fz${index}`,
  (index) => `https://weibo.com/${7000 + index}/Fz${index}`,
  (index) => `https://youtube.com/watch?v=fuzz${index}`,
  (index) => `https://news.ycombinator.com/item?id=${41000000 + index}`,
  (index) => `https://huggingface.co/spaces/fuzz/space-${index}`,
  (index) => `https://codepen.io/fuzz/pen/pen${index}`,
  (index) => `https://fuzz-site-${index}.example.org/work`,
];

const TITLE_WORDS = [
  ['鹈鹕', 'pelican'],
  ['灯塔', 'lighthouse'],
  ['自行车', 'bicycle'],
  ['城市', 'city'],
  ['海浪', 'waves'],
  ['钟表', 'clockwork'],
] as const;

/** The model labels of the fuzz catalog. */
export const MODELS = ['GPT-4o', 'Claude 3.5 Sonnet', 'Gemini 2.5 Pro', 'DeepSeek-V3', 'Qwen2.5-Max', 'o3-mini'];
const YEARS = ['2022', '2023', '2024', '2025', '2026'];

/**
 * A deterministic catalog of `count` records: every source, format and kind, five years, several
 * records per day (so ties at page boundaries happen), odd characters in some titles.
 */
export function fuzzCatalog(count: number): CanonicalRecord[] {
  return Array.from({ length: count }, (_, index) => {
    const [zhWord, enWord] = TITLE_WORDS[index % TITLE_WORDS.length] ?? ['作品', 'work'];
    const year = YEARS[(index * 7) % YEARS.length] ?? '2025';
    const month = String(1 + ((index * 5) % 12)).padStart(2, '0');
    const day = String(1 + ((index * 3) % 4)).padStart(2, '0');
    const sourceUrl = SOURCE_URLS[index % SOURCE_URLS.length]?.(index) ?? `https://fuzz-site-${index}.example.org/work`;
    const kind: Kind = index % 4 === 0 ? 'timeline' : 'gallery';
    const format: Format = FORMATS[(index * 3) % FORMATS.length] ?? 'svg';
    const odd = index % 11 === 0 ? ' \u202e翻转\u200b 😀 e\u0301' : '';
    return makeRecord({
      sourceUrl,
      kind,
      format,
      date: `${year}-${month}-${day}`,
      model: MODELS[index % MODELS.length] ?? 'GPT-4o',
      ...(index % 5 === 0 ? { author: 'Lee, Ann' } : {}),
      ...(index % 7 === 0 ? { updated: '2026-12-01' } : {}),
      title: { zh: `${zhWord}作品 ${index}${odd}`, en: `${enWord} work ${index}${odd}` },
      notes: { zh: `模糊测试记录 ${index}`, en: `Fuzz record number ${index}` },
      ...(index % 3 === 0 ? { prompt: `Draw a ${enWord}` } : {}),
    });
  });
}

/** The filters of a list query, each list matching any of its values. */
export type ListFilters = { [name in 'source' | 'format' | 'kind' | 'year' | 'model' | 'author']?: string[] } & { [name in 'from' | 'to' | 'since']?: string };

/** The ids of the records a filter-only list must return, computed from the test's own records. */
export function matchingIds(records: readonly CanonicalRecord[], filters: ListFilters): Set<string> {
  const anyOf = (values: string[] | undefined, value: string, fold = (text: string) => text): boolean => values === undefined || values.map(fold).includes(fold(value));
  const folded = (text: string): string => text.trim().normalize('NFKD').toLowerCase();
  return new Set(
    records
      .filter((record) => anyOf(filters.source, record.source)
        && anyOf(filters.format, record.format)
        && anyOf(filters.kind, record.kind)
        && anyOf(filters.year, record.date.slice(0, 4))
        && anyOf(filters.model, record.model, folded)
        && anyOf(filters.author, record.author, folded)
        && (filters.from === undefined || record.date >= filters.from)
        && (filters.to === undefined || record.date <= filters.to)
        && (filters.since === undefined || record.updated >= filters.since))
      .map((record) => record.id),
  );
}

/**
 * Whether search text of the schema's length stays within the bounds checked beside the schema
 * (read-params.ts): its length as searched (NFKC), its words, its phrases' words, its OR
 * combinations. Random text of 200 characters often holds more than 32 words joined by punctuation.
 */
export function withinSearchTextBounds(q: string): boolean {
  const words = queryWords(q);
  return [...q.normalize('NFKC')].length <= searchParamsSchema.properties.q.maxLength
    && words.all <= MAX_QUERY_WORDS
    && words.inPhrases <= MAX_PHRASE_WORDS
    && orCombinations(parseSearchText(q)) <= MAX_OR_COMBINATIONS;
}

/** Text a search treats as no text at all (the service trims it). */
export function isBlank(text: string | undefined): boolean {
  return text === undefined || text.trim() === '';
}
