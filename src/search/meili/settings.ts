/**
 * The index settings of the Meilisearch adapter, and the comparison that lets them be applied
 * idempotently at start: only settings that differ from what the server holds are sent.
 */
import type { Settings } from 'meilisearch';
import type { Lang } from '../../domain/record.ts';
import { FACET_VALUE_LIMIT } from '../../domain/search-query.ts';
import { TYPO_WORD_LENGTH } from '../search-text.ts';
import { CJK_CHARS_FIELD, SEARCHABLE_GROUP_NAMES, cjkField } from './documents.ts';

/** The live index of a language, with an optional prefix (tests use a unique one per run). */
export function indexName(lang: Lang, prefix = ''): string {
  return `${prefix}specimens_${lang}`;
}

/** Where `npm run reindex` builds before swapping. */
export function freshIndexName(lang: Lang, prefix = ''): string {
  return `${indexName(lang, prefix)}_new`;
}

/**
 * `pagination.maxTotalHits`: every document an index can hold (Meilisearch numbers documents with
 * 32-bit ids), so nothing is capped. The setting only bounds how deep a search may read (offset
 * and limit are clamped to it) and the exhaustive `totalHits` (the smaller of the matches and
 * it); ranking still stops at the page asked for. So a relevance cursor pages any list to its end
 * and `totalHits` is the exact total. See docs/deploy.md for what a deep page costs.
 */
export const MAX_TOTAL_HITS = 2 ** 32 - 1;

/**
 * How long the adapter waits for a Meilisearch request before it counts the engine unavailable
 * (503, or a retry of the index sync): writes, settings and task polls. Searches and readiness
 * wait less (SEARCH_TIMEOUT_MS, READY_TIMEOUT_MS).
 */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * How long one search request may take before the reader gets a 503. The slowest search the API
 * allows (a page at offset 10,000) measured 0.35 s, a page 50,000 deep 1.5 s; 10 s leaves a busy
 * server room for those while a reader (and the worker's connection) waits a third of
 * REQUEST_TIMEOUT_MS on an engine that hangs. A relevance cursor walked deeper than about 300,000
 * records (30 ms per 1,000 before its position) would reach it (docs/deploy.md).
 */
export const SEARCH_TIMEOUT_MS = 10_000;

/**
 * How long /readyz waits for Meilisearch (its settings and counts, asked at once): a probe must
 * answer within a load balancer's probe timeout, and a hung engine makes it answer 503 within it.
 */
export const READY_TIMEOUT_MS = 2_000;

/**
 * `searchCutoffMs`: past this budget (1,500 ms by default) Meilisearch stops ranking and answers
 * with the rest of the matches in no particular order, and says so nowhere in the answer: a slow
 * search on a busy server (a deep page) came back misordered, and a cursor walk skipped records.
 * Twice the longest request timeout, so the adapter gives up (503) before a search could be cut short.
 */
export const SEARCH_CUTOFF_MS = 2 * REQUEST_TIMEOUT_MS;

/**
 * Values Meilisearch returns per facet, most frequent first. More than the API shows
 * (FACET_VALUE_LIMIT), so the adapter can order values of equal count by value itself: the order of
 * ties within Meilisearch's count walk follows its internal facet tree, not the value.
 */
export const FACET_VALUES_ASKED = 10 * FACET_VALUE_LIMIT;

/** Searchable attributes in ranking order: each group of texts followed by its CJK bigram codes. */
export const SEARCHABLE_ATTRIBUTES: readonly string[] = [...SEARCHABLE_GROUP_NAMES.flatMap((group) => [group, cjkField(group)]), CJK_CHARS_FIELD];

/**
 * Ranking, as close to the embedded engine's as Meilisearch's rules allow: `sort` first, so newest
 * and oldest are pure date orders (with no sort asked it does nothing); then every word (all must
 * match), fewer typos, words matched as written before prefixes (`exactness`, whose other half is
 * turned off by the way fields are stored, see SearchableText), the best attribute holding the
 * words in the order above (title first) regardless of where in it they stand; ties by date
 * descending, then id. That is the embedded engine's order of tiers (as written, prefix, typo),
 * fields and dates. Left out on purpose: `proximity` and `wordPosition`, which rank by where
 * words stand, a signal the embedded engine does not have. `attributeRank` needs Meilisearch 1.36.
 */
export const RANKING_RULES: readonly string[] = ['sort', 'words', 'typo', 'exactness', 'attributeRank', 'date:desc', 'id:asc'];

/** The settings of the index of one language. */
export function indexSettings(lang: Lang): Settings {
  const settings: Settings = {
    searchableAttributes: [...SEARCHABLE_ATTRIBUTES],
    // Plain names allow equality and comparison: `id` is compared by cursors, `day` by date ranges.
    filterableAttributes: ['format', 'kind', 'source', 'year', 'model', 'author', 'day', 'updatedDay', 'id'],
    sortableAttributes: ['date', 'id'],
    faceting: { maxValuesPerFacet: FACET_VALUES_ASKED, sortFacetValuesBy: { '*': 'count' } },
    rankingRules: [...RANKING_RULES],
    typoTolerance: {
      enabled: true,
      minWordSizeForTypos: { oneTypo: TYPO_WORD_LENGTH.oneTypo, twoTypos: TYPO_WORD_LENGTH.twoTypos },
      disableOnAttributes: ['id'],
    },
    pagination: { maxTotalHits: MAX_TOTAL_HITS },
    searchCutoffMs: SEARCH_CUTOFF_MS,
  };
  // The Chinese texts of the zh index are segmented as Mandarin rather than guessed per field.
  if (lang === 'zh') settings.localizedAttributes = [{ attributePatterns: ['title', 'text'], locales: ['cmn'] }];
  return settings;
}

/** Settings whose element order carries no meaning, compared as sets. */
const UNORDERED = new Set(['filterableAttributes', 'sortableAttributes', 'disableOnAttributes', 'attributePatterns']);

/**
 * Whether the server's value holds everything the wanted value says. Objects are compared on the
 * wanted keys only (the server reports defaults for the rest); arrays by element, in order unless
 * the key is a set.
 */
export function settingMatches(wanted: unknown, actual: unknown, key = ''): boolean {
  if (Array.isArray(wanted)) {
    if (!Array.isArray(actual) || actual.length !== wanted.length) return false;
    const canonical = (values: unknown[]): string[] => {
      const strings = values.map((value) => JSON.stringify(sortedKeys(value)));
      return UNORDERED.has(key) ? strings.sort() : strings;
    };
    const left = canonical(wanted);
    const right = canonical(actual);
    return left.every((value, i) => value === right[i]);
  }
  if (wanted !== null && typeof wanted === 'object') {
    if (actual === null || typeof actual !== 'object') return false;
    const actualRecord = actual as Record<string, unknown>;
    return Object.entries(wanted as Record<string, unknown>).every(([name, value]) => settingMatches(value, actualRecord[name], name));
  }
  return wanted === actual;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, inner]) => [name, UNORDERED.has(name) && Array.isArray(inner) ? [...inner].sort() : sortedKeys(inner)]),
  );
}

/** The part of the wanted settings the server does not hold yet; empty when nothing is to change. */
export function settingsToUpdate(wanted: Settings, actual: Settings): Settings {
  const changes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(wanted)) {
    if (!settingMatches(value, (actual as Record<string, unknown>)[name], name)) changes[name] = value;
  }
  return changes as Settings;
}
