/**
 * Paging through the relevance order, the same for both planners. The order is a list of
 * disjoint tiers — the records of a model label equal to the text, then words as written, the
 * last word as a prefix, words with typos — each ordered on its own: ranked by score (at most
 * RANK_LIMIT hits), or, when larger, records whose title holds the words first, each part
 * newest first.
 *
 * A page starts either at an offset or after a cursor's position. A position is the last
 * record's tier, the part of a large tier or the score in a ranked one, and its date and id
 * (ties go newest first). What decides the order and changes with the catalog — which tiers are
 * ranked and each group's word weight (idf) — is fixed by the walk's first page and carried in
 * the cursor, so later pages order the records exactly as the first did: a record present
 * throughout is returned once, whatever is published or removed between pages.
 */
import type { SearchPosition } from '../../domain/search-query.ts';
import { RANK_LIMIT } from './relevance.ts';

/** The tiers in order; a position names its tier by this number, present or not. */
export const TIER_KINDS = ['boost', 'exact', 'prefix', 'typo'] as const;
export type TierKind = (typeof TIER_KINDS)[number];

/** How a tier is ordered: by score, or title holders first (when it held more than RANK_LIMIT hits). */
export type TierMode = 0 | 1;
const RANKED: TierMode = 0;
const TITLE_FIRST: TierMode = 1;

/** One tier as a planner offers it. Keys ascend newest first, so "key ≥ k" is "from k on, newest first". */
export interface TierView {
  kind: TierKind;
  size: number;
  /** Every row ranked, best first (ties by key), with its score under the given group weights. */
  ranked(weights: readonly number[]): { key: number; score: number }[];
  /** The rows of the title part (or the rest) with keys of at least `fromKey`: how many, and `limit` of their keys after skipping `skip`. */
  part(title: boolean, fromKey: number, skip: number, limit: number): { size: number; keys: number[] };
}

/** A returned row and the rank values of its position. */
export interface WalkRow {
  key: number;
  rank: number[];
}

/** Where a walk resumes: its position, and the first key after the position's record (see afterPosition). */
export interface WalkResume {
  position: SearchPosition;
  fromKey: number;
}

/** The word matches whose weights a walk fixes, in order (the boost tier ranks by the exact weights). */
export const WEIGHTED_MATCHES = ['exact', 'prefix', 'typo'] as const;

/**
 * What the walk fixes at its first page: the mode of each tier kind and the weight of each query
 * group in each of WEIGHTED_MATCHES (groups × matches, match by match).
 */
export interface Frozen {
  modes: TierMode[];
  weights: number[];
}

/** The weights of one match's groups out of a frozen list. */
export function weightsOf(weights: readonly number[], match: (typeof WEIGHTED_MATCHES)[number], groups: number): number[] {
  const start = WEIGHTED_MATCHES.indexOf(match) * groups;
  return weights.slice(start, start + groups);
}

/** The fixed values as a cursor carries them (modes, then weights). */
export function frozenValues(frozen: Frozen): number[] {
  return [...frozen.modes, ...frozen.weights];
}

/** The values a cursor carried, when they fit this query (a weight per group and match); otherwise undefined. */
export function readFrozen(values: readonly number[] | undefined, groups: number): Frozen | undefined {
  if (!values || values.length !== TIER_KINDS.length + WEIGHTED_MATCHES.length * groups) return undefined;
  const modes = values.slice(0, TIER_KINDS.length);
  if (!modes.every((mode) => mode === RANKED || mode === TITLE_FIRST)) return undefined;
  return { modes: modes as TierMode[], weights: values.slice(TIER_KINDS.length) };
}

/**
 * The most hits a tier is ranked by score for when a cursor says to: twice RANK_LIMIT. A walk fixes
 * its tiers' modes at its first page, and a ranked tier may grow between pages; beyond this size
 * the tier is walked title holders first whatever the cursor says, so a cursor (whose check value
 * is not keyed, see docs/search.md) cannot have a tier of any size scored on every page.
 */
export const RANKED_TIER_BOUND = 2 * RANK_LIMIT;

/** The mode a tier is walked in: the frozen one, unless it ranks a tier past RANKED_TIER_BOUND. */
function walkedMode(frozen: TierMode | undefined, size: number): TierMode {
  return size > RANKED_TIER_BOUND ? TITLE_FIRST : (frozen ?? RANKED);
}

/** The modes the tiers take now, by their sizes. */
export function currentModes(tiers: readonly TierView[]): TierMode[] {
  return TIER_KINDS.map((kind) => ((tiers.find((tier) => tier.kind === kind)?.size ?? 0) > RANK_LIMIT ? TITLE_FIRST : RANKED));
}

/**
 * Up to `limit` rows in relevance order, from an offset or after a position. Ask one more than a
 * page to learn whether another follows.
 */
export function walkTiers(tiers: readonly TierView[], frozen: Frozen, start: { offset: number } | WalkResume, limit: number): WalkRow[] {
  const rows: WalkRow[] = [];
  const resume = 'position' in start ? start : undefined;
  const [afterTier = -1, afterMode, afterValue = 0] = resume?.position.rank ?? [];
  let skip = resume ? 0 : (start as { offset: number }).offset;
  for (const tier of tiers) {
    if (rows.length >= limit) break;
    const index = TIER_KINDS.indexOf(tier.kind);
    if (resume && index < afterTier) continue;
    const resuming = resume !== undefined && index === afterTier;
    const mode = walkedMode(frozen.modes[index], tier.size);
    if (!resuming && skip >= tier.size) {
      skip -= tier.size;
      continue;
    }
    if (mode === RANKED) {
      let ranked = tier.ranked(frozen.weights);
      if (resuming) ranked = afterMode === RANKED ? ranked.filter((row) => row.score < afterValue || (row.score === afterValue && row.key >= (resume?.fromKey ?? 0))) : [];
      for (const row of ranked.slice(skip, skip + limit - rows.length)) rows.push({ key: row.key, rank: [index, RANKED, row.score] });
      skip = 0;
      continue;
    }
    // Title holders first, then the rest, each newest first.
    for (const title of [true, false]) {
      if (rows.length >= limit) break;
      const flag = title ? 1 : 0;
      if (resuming && afterMode === TITLE_FIRST && flag > afterValue) continue;
      const fromKey = resuming && afterMode === TITLE_FIRST && flag === afterValue ? (resume?.fromKey ?? -Infinity) : -Infinity;
      const part = tier.part(title, fromKey, skip, limit - rows.length);
      if (skip >= part.size) {
        skip -= part.size;
        continue;
      }
      for (const key of part.keys) rows.push({ key, rank: [index, TITLE_FIRST, flag] });
      skip = 0;
    }
    skip = 0;
  }
  return rows;
}
