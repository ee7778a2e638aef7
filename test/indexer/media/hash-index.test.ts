import { expect } from 'chai';
import { HashIndex, buildHashIndex } from '../../../indexer/media/hash-index.ts';
import { hammingDistance } from '../../../indexer/media/perceptual-hash.ts';

/** A deterministic stream of 32-bit numbers. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
}

function randomHash(next: () => number): string {
  let hex = '';
  for (let i = 0; i < 8; i++) hex += next().toString(16).padStart(8, '0');
  return hex;
}

/** The hash with the given bit positions (0 = most significant) flipped. */
function flip(hash: string, bits: number[]): string {
  const digits = hash.split('').map((digit) => parseInt(digit, 16));
  for (const bit of bits) digits[bit >> 2] = (digits[bit >> 2] ?? 0) ^ (8 >> (bit & 3));
  return digits.map((digit) => digit.toString(16)).join('');
}

describe('hash index', () => {
  const base = 'f0e1d2c3b4a5968778695a4b3c2d1e0f00112233445566778899aabbccddeeff';

  it('finds the nearest records within maxDistance, nearest first, the limit inclusive', () => {
    const index = new HashIndex();
    index.add('far', flip(base, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40]));
    index.add('three', flip(base, [3, 100, 255]));
    index.add('exact', base);
    index.add('ten', flip(base, [0, 31, 32, 63, 64, 95, 96, 127, 128, 200]));
    expect(index.size).to.equal(4);
    expect(index.nearest(base, 10).map(({ recordId, distance }) => [recordId, distance])).to.deep.equal([
      ['exact', 0],
      ['three', 3],
      ['ten', 10],
    ]);
    expect(index.nearest(base, 9).map((match) => match.recordId)).to.deep.equal(['exact', 'three']);
    expect(index.nearest(base, 2).map((match) => match.recordId)).to.deep.equal(['exact']);
    expect(index.nearest(base, 256).map((match) => match.recordId)).to.deep.equal(['exact', 'three', 'ten', 'far']);
    expect(index.nearest(base, 256, 2)).to.have.length(2);
    expect(index.nearest(flip(base, [7]), 0)).to.deep.equal([]);
    expect(index.nearest(base.toUpperCase(), 0)[0]).to.deep.equal({ recordId: 'exact', distance: 0, hash: base });
  });

  it('holds several hashes per record, answers with the nearest one, and removes them all', () => {
    const index = new HashIndex();
    index.add('r1#a', flip(base, [1, 2, 3, 4]));
    index.add('r1#a', flip(base, [9]));
    index.add('r1#a', flip(base, [9]));
    index.add('r2', flip(base, [5, 6]));
    expect(index.size).to.equal(3);
    expect(index.hashesOf('r1#a')).to.have.members([flip(base, [1, 2, 3, 4]), flip(base, [9])]);
    expect(index.nearest(base, 10)).to.deep.equal([
      { recordId: 'r1#a', distance: 1, hash: flip(base, [9]) },
      { recordId: 'r2', distance: 2, hash: flip(base, [5, 6]) },
    ]);
    expect(index.remove('r1#a')).to.equal(2);
    expect(index.remove('r1#a')).to.equal(0);
    expect(index.remove('never-added')).to.equal(0);
    expect(index.has('r1#a')).to.equal(false);
    expect(index.nearest(base, 10).map((match) => match.recordId)).to.deep.equal(['r2']);
  });

  it('refuses malformed hashes', () => {
    const index = new HashIndex();
    expect(() => index.add('x', 'abc')).to.throw(TypeError);
    expect(() => index.add('x', `${'0'.repeat(63)}z`)).to.throw(TypeError);
    expect(() => index.nearest('0'.repeat(62), 5)).to.throw(TypeError);
    expect(index.size).to.equal(0);
  });

  it('agrees with a brute-force search through thousands of adds and removes', () => {
    const next = generator(2024);
    const index = new HashIndex();
    const truth = new Map<string, string[]>();
    const centre = randomHash(next);
    for (let step = 0; step < 6000; step++) {
      const id = `r${next() % 700}`;
      if (next() % 4 === 0) {
        index.remove(id);
        truth.delete(id);
        continue;
      }
      // Half near the centre, half random, so that queries have matches at many distances.
      const hash = next() % 2 ? flip(centre, Array.from({ length: next() % 60 }, () => next() % 256)) : randomHash(next);
      index.add(id, hash);
      const list = truth.get(id) ?? [];
      if (!list.includes(hash)) list.push(hash);
      truth.set(id, list);
    }
    expect(index.size).to.equal([...truth.values()].reduce((sum, list) => sum + list.length, 0));
    for (const maxDistance of [0, 10, 30, 45, 128]) {
      const query = flip(centre, [next() % 256, next() % 256]);
      const expected = [...truth]
        .map(([recordId, hashes]) => ({ recordId, distance: Math.min(...hashes.map((hash) => hammingDistance(hash, query))) }))
        .filter(({ distance }) => distance <= maxDistance)
        .sort((a, b) => a.distance - b.distance || (a.recordId < b.recordId ? -1 : 1));
      expect(index.nearest(query, maxDistance).map(({ recordId, distance }) => ({ recordId, distance })), `maxDistance ${maxDistance}`).to.deep.equal(expected);
    }
  });

  it('builds from an iterable of objects or [id, hash] pairs', () => {
    function* entries(): Generator<{ recordId: string; hash: string } | readonly [string, string]> {
      yield { recordId: 'a', hash: base };
      yield ['b', flip(base, [0])] as const;
    }
    const index = buildHashIndex(entries());
    expect(index.size).to.equal(2);
    expect(index.nearest(base, 1).map((match) => match.recordId)).to.deep.equal(['a', 'b']);
  });

  it('scans 100,000 hashes quickly', () => {
    const next = generator(7);
    const index = buildHashIndex(Array.from({ length: 100_000 }, (_, i) => [`r${i}`, randomHash(next)] as const));
    const planted = randomHash(next);
    index.add('planted', planted);
    index.nearest(planted, 40);
    const started = performance.now();
    const found = index.nearest(flip(planted, [1, 2, 3]), 40);
    const elapsed = performance.now() - started;
    expect(found[0]).to.include({ recordId: 'planted', distance: 3 });
    // 1,000,000 take about 6 ms on the development machine; this bound only catches a broken scan.
    expect(elapsed).to.be.below(50);
  });
});
