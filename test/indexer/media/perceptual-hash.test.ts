import { expect } from 'chai';
import { decodeAnalysisRaster } from '../../../indexer/media/inspect-image.ts';
import {
  AMBIGUOUS_MAX_DISTANCE,
  DUPLICATE_MAX_DISTANCE,
  blockhash,
  classifyDistance,
  contentHash,
  findContentBox,
  hammingDistance,
  isPerceptualHash,
} from '../../../indexer/media/perceptual-hash.ts';
import type { RgbaRaster } from '../../../indexer/media/perceptual-hash.ts';
import { CROPPED_KINDS, REFRAMED_KINDS, RESCALED_KINDS, derivatives, drawings, render, variants } from './fixtures/drawings.ts';

/** Deterministic noise with some fully transparent pixels (the same generator the vectors were made with). */
function noise(width: number, height: number, seed: number): RgbaRaster {
  let state = seed >>> 0;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = i % 4 === 3 ? (state >>> 24 < 32 ? 0 : 255) : state >>> 24;
  }
  return { width, height, data };
}

/** A white raster with black rectangles drawn on it. */
function canvas(width: number, height: number, rectangles: [number, number, number, number][], background = 255): RgbaRaster {
  const data = new Uint8Array(width * height * 4).fill(background);
  for (const [left, top, w, h] of rectangles) {
    for (let y = top; y < top + h; y++) {
      for (let x = left; x < left + w; x++) data.set([0, 0, 0, 255], (y * width + x) * 4);
    }
  }
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  return { width, height, data };
}

describe('perceptual hash', () => {
  it('computes exactly what blockhash-core 0.1.0 bmvbhash(data, 16) computes', () => {
    // Hashes produced by the blockhash-core package itself on these inputs (even and uneven sizes).
    const vectors: [number, number, number, string][] = [
      [16, 16, 1, '096cef8d11e6ba8361f6c848757574c3b5b3e466d6502e8ad4b824f70bf3a970'],
      [32, 32, 2, '2c575d0bd9d82dc49ebf0a12e64df0161cd669f4784d82b321578ea473fc643a'],
      [33, 47, 3, '98db8e16f33b30232601b8c3f1e37de4719cc7cee3f0482c4674a411d8d73bd6'],
      [100, 75, 4, '33f5ad1be91076144398586f3b249775433461550bceeadd8e887993e96a8736'],
      [256, 171, 5, '6c6e9d06598768e5f43645d6b34466cad4ea80dba1d7b14aa9a6c43d924fa5aa'],
      [31, 200, 6, '41e66c3f62391ce354dca1f9f5850b1dfe891c379d390ce0cffab62da0672230'],
    ];
    for (const [width, height, seed, expected] of vectors) expect(blockhash(noise(width, height, seed)), `${width}×${height}`).to.equal(expected);
    expect(() => blockhash(noise(8, 40, 1))).to.throw(RangeError);
  });

  it('measures Hamming distance on 64-digit hashes and refuses malformed ones', () => {
    const zero = '0'.repeat(64);
    expect(hammingDistance(zero, zero)).to.equal(0);
    expect(hammingDistance(zero, 'f'.repeat(64))).to.equal(256);
    expect(hammingDistance(zero, `8${'0'.repeat(62)}1`)).to.equal(2);
    expect(hammingDistance('ffffffff'.repeat(8), `7fffffff${'ffffffff'.repeat(6)}fffffffe`)).to.equal(2);
    expect(hammingDistance('A'.repeat(64), 'a'.repeat(64))).to.equal(0);
    expect(() => hammingDistance(zero, '0'.repeat(63))).to.throw(TypeError);
    expect(() => hammingDistance(zero, `g${'0'.repeat(63)}`)).to.throw(TypeError);
    expect(isPerceptualHash(zero)).to.equal(true);
    expect(isPerceptualHash('0'.repeat(65))).to.equal(false);
  });

  it('classifies distances against the two thresholds', () => {
    expect(DUPLICATE_MAX_DISTANCE).to.be.below(AMBIGUOUS_MAX_DISTANCE);
    expect(classifyDistance(0)).to.equal('duplicate');
    expect(classifyDistance(DUPLICATE_MAX_DISTANCE)).to.equal('duplicate');
    expect(classifyDistance(DUPLICATE_MAX_DISTANCE + 1)).to.equal('ambiguous');
    expect(classifyDistance(AMBIGUOUS_MAX_DISTANCE)).to.equal('ambiguous');
    expect(classifyDistance(AMBIGUOUS_MAX_DISTANCE + 1)).to.equal('distinct');
  });

  it('finds the content box inside a uniform border, and the whole image when there is none', () => {
    expect(findContentBox(canvas(200, 100, [[40, 20, 30, 10], [120, 60, 10, 25]]))).to.deep.equal({ left: 39, top: 19, width: 92, height: 67 });
    expect(findContentBox(canvas(50, 50, []))).to.deep.equal({ left: 0, top: 0, width: 50, height: 50 });
    const full = noise(64, 64, 9);
    expect(findContentBox(full)).to.deep.equal({ left: 0, top: 0, width: 64, height: 64 });
    // A dark background works like a light one.
    const dark = canvas(100, 100, [], 20);
    dark.data.set([250, 250, 250, 255], (50 * 100 + 30) * 4);
    expect(findContentBox(dark)).to.deep.equal({ left: 29, top: 49, width: 3, height: 3 });
  });

  it('hashes the same drawing on a larger canvas the same once trimmed, and differently untrimmed', () => {
    const shapes: [number, number, number, number][] = [[10, 10, 40, 6], [10, 10, 6, 60], [44, 30, 6, 40], [20, 64, 30, 6]];
    const small = canvas(64, 80, shapes);
    const large = canvas(160, 120, shapes.map(([x, y, w, h]) => [x + 70, y + 15, w, h]));
    expect(hammingDistance(contentHash(small).hash, contentHash(large).hash)).to.equal(0);
    expect(hammingDistance(contentHash(small, { trim: false }).hash, contentHash(large, { trim: false }).hash)).to.be.above(AMBIGUOUS_MAX_DISTANCE);
  });

  it('composites transparency over white: strokes on a transparent canvas hash like the same strokes on white', () => {
    const white = canvas(64, 64, [[8, 8, 48, 4], [30, 8, 4, 48]]);
    const transparent = { ...white, data: Uint8Array.from(white.data) };
    for (let i = 0; i < transparent.data.length; i += 4) {
      if (transparent.data[i] === 255) transparent.data.set([0, 0, 0, 0], i);
    }
    expect(contentHash(transparent).hash).to.equal(contentHash(white).hash);
  });

  describe('thresholds on the generated set (24 drawings, 10 copies each)', function () {
    this.timeout(60_000);
    interface Entry {
      drawing: string;
      kind: string;
      hash: string;
      untrimmed: string;
    }
    const entries: Entry[] = [];
    const edited: { name: string; from: string; hash: string }[] = [];
    const originalOf = (name: string): Entry => entries.find((entry) => entry.drawing === name && entry.kind === 'original') as Entry;
    const copies = (kinds: string[]): { entry: Entry; distance: number; untrimmed: number }[] =>
      entries
        .filter((entry) => kinds.includes(entry.kind))
        .map((entry) => ({ entry, distance: hammingDistance(entry.hash, originalOf(entry.drawing).hash), untrimmed: hammingDistance(entry.untrimmed, originalOf(entry.drawing).untrimmed) }));
    const describeWorst = (list: { entry: Entry; distance: number }[]): string => {
      const worst = [...list].sort((a, b) => b.distance - a.distance)[0];
      return worst ? `worst: ${worst.entry.drawing}/${worst.entry.kind} at ${worst.distance}` : 'none';
    };

    before(async () => {
      const hashOf = async (bytes: Buffer): Promise<{ hash: string; untrimmed: string }> => {
        const raster = await decodeAnalysisRaster(bytes);
        return { hash: contentHash(raster).hash, untrimmed: contentHash(raster, { trim: false, snap: false }).hash };
      };
      for (const drawing of drawings()) {
        const png = await render(drawing);
        for (const copy of [{ kind: 'original', bytes: png }, ...(await variants(drawing, png))]) entries.push({ drawing: drawing.name, kind: copy.kind, ...(await hashOf(copy.bytes)) });
      }
      for (const drawing of derivatives()) edited.push({ name: drawing.name, from: drawing.from, hash: (await hashOf(await render(drawing))).hash });
    });

    it('makes 24 different drawings with 10 copies each', () => {
      expect(new Set(entries.map((entry) => entry.drawing)).size).to.equal(24);
      expect(entries).to.have.length(24 * 11);
    });

    it('puts resized and JPEG-recompressed copies within DUPLICATE_MAX_DISTANCE', () => {
      const list = copies(RESCALED_KINDS);
      expect(list).to.have.length(24 * RESCALED_KINDS.length);
      expect(list.every(({ distance }) => distance <= DUPLICATE_MAX_DISTANCE), describeWorst(list)).to.equal(true);
    });

    it('puts copies with another border within DUPLICATE_MAX_DISTANCE, which the untrimmed hash does not', () => {
      const list = copies(REFRAMED_KINDS);
      expect(list.every(({ distance }) => distance <= DUPLICATE_MAX_DISTANCE), describeWorst(list)).to.equal(true);
      const untrimmedMisses = list.filter(({ untrimmed }) => untrimmed > DUPLICATE_MAX_DISTANCE).length;
      expect(untrimmedMisses, 'the plain blockhash of the whole image misses most re-padded copies').to.be.above(list.length / 2);
    });

    it('puts slightly cropped copies within DUPLICATE_MAX_DISTANCE', () => {
      const list = copies(CROPPED_KINDS);
      expect(list.every(({ distance }) => distance <= DUPLICATE_MAX_DISTANCE), describeWorst(list)).to.equal(true);
    });

    it('puts every pair of different drawings, copies included, above AMBIGUOUS_MAX_DISTANCE', () => {
      let nearest = { distance: 257, pair: '' };
      for (let i = 0; i < entries.length; i++) {
        for (let j = i + 1; j < entries.length; j++) {
          const a = entries[i] as Entry;
          const b = entries[j] as Entry;
          if (a.drawing === b.drawing) continue;
          const distance = hammingDistance(a.hash, b.hash);
          if (distance < nearest.distance) nearest = { distance, pair: `${a.drawing}/${a.kind} ~ ${b.drawing}/${b.kind}` };
        }
      }
      expect(nearest.distance, nearest.pair).to.be.above(AMBIGUOUS_MAX_DISTANCE);
    });

    it('never calls a drawing with added elements a duplicate of the one it was made from', () => {
      const added = edited.filter((entry) => !['pelican-classic+filled', 'square-grid+recoloured'].includes(entry.name));
      expect(added).to.have.length(4);
      for (const entry of added) {
        const distances = entries.filter((other) => other.drawing === entry.from).map((other) => hammingDistance(entry.hash, other.hash));
        expect(Math.min(...distances), entry.name).to.be.above(DUPLICATE_MAX_DISTANCE);
      }
    });
  });
});
