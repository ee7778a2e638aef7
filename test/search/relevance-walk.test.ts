import { expect } from 'chai';
import { RANKED_TIER_BOUND, TIER_KINDS, walkTiers } from '../../src/search/sqlite/relevance-walk.ts';
import type { Frozen, TierView } from '../../src/search/sqlite/relevance-walk.ts';

/** An exact tier of `size` rows (keys 0 … size − 1) that counts how it is asked, and whose first tenth holds the words in its title. */
function exactTier(size: number): TierView & { rankedCalls: number; partCalls: number } {
  const tier = {
    kind: 'exact' as const,
    size,
    rankedCalls: 0,
    partCalls: 0,
    ranked: () => {
      tier.rankedCalls += 1;
      return Array.from({ length: size }, (_, key) => ({ key, score: size - key }));
    },
    part: (title: boolean, fromKey: number, skip: number, limit: number) => {
      tier.partCalls += 1;
      const keys = Array.from({ length: size }, (_, key) => key).filter((key) => (key < size / 10) === title && key >= fromKey);
      return { size: keys.length, keys: keys.slice(skip, skip + limit) };
    },
  };
  return tier;
}

/** Modes as a cursor carries them: every tier ranked by score. */
const ALL_RANKED: Frozen = { modes: TIER_KINDS.map(() => 0), weights: [1, 1, 1] };

describe('the relevance walk', () => {
  it('ranks a tier by score when its cursor says so, up to RANKED_TIER_BOUND hits', () => {
    const tier = exactTier(RANKED_TIER_BOUND);
    const rows = walkTiers([tier], ALL_RANKED, { offset: 0 }, 5);
    expect(tier.rankedCalls).to.equal(1);
    expect(rows.map((row) => row.key)).to.deep.equal([0, 1, 2, 3, 4]);
    expect(rows[0]?.rank).to.deep.equal([1, 0, RANKED_TIER_BOUND]);
  });

  it('walks a larger tier title holders first whatever its cursor says, so no cursor has a large tier scored', () => {
    const tier = exactTier(RANKED_TIER_BOUND + 1);
    const rows = walkTiers([tier], ALL_RANKED, { position: { date: '2025-01-01', id: 'a', rank: [1, 0, 3] }, fromKey: 0 }, 5);
    expect(tier.rankedCalls).to.equal(0);
    expect(tier.partCalls).to.be.above(0);
    expect(rows).to.have.length(5);
    expect(rows.every((row) => row.rank[1] === 1)).to.equal(true);
  });
});
