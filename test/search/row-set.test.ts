import { expect } from 'chai';
import { RowSet } from '../../src/search/sqlite/row-set.ts';
import { seededRandom } from '../../src/random.ts';

/** A set as a sorted array of members: what every operation is checked against. */
type Reference = number[];

/** Universe lengths in words: none, within one word, a few, and enough that sparse lists and bitsets differ widely. */
const WORDS = [0, 1, 2, 5, 40, 300];
/** Shares of the universe's rows in a set: from a handful to nearly all. */
const DENSITIES = [0, 0.0005, 0.005, 0.03, 0.2, 0.6, 0.97];

function randomReference(random: () => number, words: number): Reference {
  const density = DENSITIES[Math.floor(random() * DENSITIES.length)] as number;
  const members: number[] = [];
  for (let ordinal = 0; ordinal < words * 32; ordinal += 1) if (random() < density) members.push(ordinal);
  // Now and then a member in the last bit of a word, where shifts go wrong.
  if (words > 0 && random() < 0.3) members.push(words * 32 - 1);
  return [...new Set(members)].sort((a, b) => a - b);
}

function membersOf(set: RowSet): number[] {
  return set.page(0, Number.MAX_SAFE_INTEGER, true);
}

const union = (sets: readonly Reference[]): Reference => [...new Set(sets.flat())].sort((a, b) => a - b);
function intersection(sets: readonly Reference[]): Reference {
  const lookups = sets.map((set) => new Set(set));
  return (sets[0] ?? []).filter((member) => lookups.every((set) => set.has(member)));
}
function difference(a: Reference, b: Reference): Reference {
  const taken = new Set(b);
  return a.filter((member) => !taken.has(member));
}

/** A set of the reference's members in each form, at its universe length or (for bits) a shorter or longer one. */
function forms(random: () => number, reference: Reference, words: number): RowSet[] {
  const shorter = reference.length === 0 ? 0 : ((reference.at(-1) as number) >>> 5) + 1;
  return [RowSet.inForm(reference, 'list'), RowSet.inForm(reference, 'bits', words), RowSet.inForm(reference, 'bits', random() < 0.5 ? shorter : words + 3)];
}

function expectSame(set: RowSet, reference: Reference, what: string, random: () => number): void {
  expect(membersOf(set), what).to.deep.equal(reference);
  expect(set.count(), `${what}: count`).to.equal(reference.length);
  const visited: number[] = [];
  set.forEachMember((ordinal) => visited.push(ordinal));
  expect(visited, `${what}: forEachMember`).to.deep.equal(reference);
  const top = (reference.at(-1) ?? 64) + 40;
  const rank = set.rankIndex();
  const held = new Set(reference);
  for (let probe = 0; probe < 12; probe += 1) {
    const ordinal = probe < 2 && reference.length > 0 ? (reference[Math.floor(random() * reference.length)] as number) : Math.floor(random() * top);
    expect(set.has(ordinal), `${what}: has ${ordinal}`).to.equal(held.has(ordinal));
    expect(set.membersFrom(ordinal), `${what}: membersFrom ${ordinal}`).to.deep.equal(reference.filter((member) => member >= ordinal));
    expect(membersOf(set.below(ordinal)), `${what}: below ${ordinal}`).to.deep.equal(reference.filter((member) => member < ordinal));
    expect(rank(ordinal), `${what}: rank ${ordinal}`).to.equal(reference.filter((member) => member < ordinal).length);
  }
  for (const ascending of [true, false]) {
    const ordered = ascending ? reference : [...reference].reverse();
    const offset = Math.floor(random() * (reference.length + 3));
    const limit = Math.floor(random() * 50);
    expect(set.page(offset, limit, ascending), `${what}: page ${offset} ${limit} ${ascending}`).to.deep.equal(ordered.slice(offset, offset + limit));
  }
}

describe('row sets as bitsets and as member lists', () => {
  it('choose the smaller form, and count their bytes by it', () => {
    const words = 3125; // 100,000 rows
    const few = RowSet.ofMembers(Uint32Array.from([3, 70_000, 99_999]), words);
    expect(few.sparse).to.equal(true);
    expect(few.bytes).to.be.below(200);
    const many = RowSet.ofMembers(Uint32Array.from({ length: 5000 }, (_, i) => i * 20), words);
    expect(many.sparse).to.equal(false);
    expect(many.bytes).to.be.at.least(words * 4);
    const bits = new Uint32Array(words);
    bits[7] = 1;
    expect(RowSet.ofBits(bits).sparse).to.equal(true);
    expect(RowSet.ofBits(bits).bytes).to.be.below(words * 4);
    // Results of operations are held in the smaller form too.
    const all = RowSet.ofBits(new Uint32Array(words).fill(0xffffffff));
    expect(all.and(few).sparse).to.equal(true);
    expect(all.andNot(many).sparse).to.equal(false);
    expect(many.and(RowSet.ofMembers(Uint32Array.from([20, 40, 41]), words)).sparse).to.equal(true);
    expect(RowSet.union([few, few, few]).sparse).to.equal(true);
  });

  it('answer every operation as a plain set would, in any mix of forms and universe lengths (randomised, seeded)', () => {
    const random = seededRandom(20261124);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    for (let round = 0; round < 400; round += 1) {
      const words = [pick(WORDS), pick(WORDS), pick(WORDS)];
      const references = words.map((length) => randomReference(random, length));
      const sets = references.map((reference, i) => pick(forms(random, reference, words[i] as number)));
      const [a, b, c] = sets as [RowSet, RowSet, RowSet];
      const [ra, rb, rc] = references as [Reference, Reference, Reference];
      const label = `round ${round} (${sets.map((set, i) => `${set.sparse ? 'list' : 'bits'} of ${references[i]?.length} in ${words[i]} words`).join(', ')})`;

      expectSame(a, ra, `${label}: a`, random);
      for (const form of forms(random, ra, words[0] as number)) expect(a.equals(form), `${label}: a equals its other forms`).to.equal(true);
      expect(a.equals(b), `${label}: a equals b`).to.equal(ra.join() === rb.join());
      expect(b.equals(a), `${label}: b equals a`).to.equal(ra.join() === rb.join());

      expectSame(a.and(b), intersection([ra, rb]), `${label}: a and b`, random);
      expectSame(a.or(b), union([ra, rb]), `${label}: a or b`, random);
      expectSame(a.andNot(b), difference(ra, rb), `${label}: a and not b`, random);
      expectSame(b.andNot(a), difference(rb, ra), `${label}: b and not a`, random);
      expectSame(RowSet.union([a, b, c]), union([ra, rb, rc]), `${label}: union`, random);
      expectSame(RowSet.intersection([a, b, c]), intersection([ra, rb, rc]), `${label}: intersection`, random);
      expectSame(RowSet.intersection([a, a]), ra, `${label}: intersection with itself`, random);
      expectSame(RowSet.union([a]), ra, `${label}: union of one`, random);
      expectSame(RowSet.intersection([c]), rc, `${label}: intersection of one`, random);

      const universeWords = Math.max(...words) + 1;
      const added = Array.from({ length: Math.floor(random() * 6) }, () => Math.floor(random() * universeWords * 32));
      expectSame(a.with(added, universeWords), union([ra, added]), `${label}: a with ${added.join(' ')}`, random);

      // Chains of operations, as a search combines them.
      expectSame(a.or(c).and(b).andNot(c), difference(intersection([union([ra, rc]), rb]), rc), `${label}: a or c and b and not c`, random);
    }
  });

  it('hold sets of a million rows in proportion to their members', () => {
    const words = 31_250;
    const rows = Uint32Array.from({ length: 300 }, (_, i) => i * 3331);
    const sparse = RowSet.ofMembers(rows, words);
    expect(sparse.bytes).to.be.below(2000);
    const dense = RowSet.ofBits(new Uint32Array(words).fill(0x11111111));
    expect(dense.bytes).to.be.at.least(words * 4);
    expect(dense.and(sparse).count()).to.equal(rows.filter((row) => row % 4 === 0).length);
    expect(dense.and(sparse).sparse).to.equal(true);
  });
});
