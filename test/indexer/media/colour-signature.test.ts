import { expect } from 'chai';
import sharp from 'sharp';
import { decodeAnalysisRaster } from '../../../indexer/media/inspect-image.ts';
import { blockhash, contentRegion, hammingDistance } from '../../../indexer/media/perceptual-hash.ts';
import {
  colourSignature,
  COLOUR_SIGNATURE_HEX_LENGTH,
  isColourSignature,
  LOW_DETAIL_MIN_BLOCKS,
  oklabBytes,
  SIGNATURE_AMBIGUOUS_MAX_DISTANCE,
  SIGNATURE_DUPLICATE_MAX_DISTANCE,
  signatureDistance,
  uninformativeBlocks,
} from '../../../indexer/media/colour-signature.ts';
import { drawings, render } from './fixtures/drawings.ts';
import { flatShapes, flatVariants } from './fixtures/flat-shapes.ts';

interface Measured {
  work: string;
  kind: string;
  hash: string;
  uninformative: number;
  signature: string;
}

async function measure(work: string, kind: string, bytes: Buffer): Promise<Measured> {
  const { region, box, background } = contentRegion(await decodeAnalysisRaster(bytes));
  return { work, kind, hash: blockhash(region), uninformative: uninformativeBlocks(region, background), signature: colourSignature(region, box.width / box.height, background) };
}

describe('colour-aware signature of low-detail previews', function () {
  this.timeout(60_000);

  it('writes OKLab bytes: white, black and a saturated red where they belong', () => {
    expect(oklabBytes(255, 255, 255)).to.deep.equal([255, 128, 128]);
    expect(oklabBytes(0, 0, 0)).to.deep.equal([0, 128, 128]);
    const [lightness, greenRed, blueYellow] = oklabBytes(255, 0, 0);
    expect(lightness).to.be.within(150, 165);
    expect(greenRed).to.be.above(190);
    expect(blueYellow).to.be.above(140);
  });

  it('refuses to compare what is not a signature, and calls another aspect ratio another shape', () => {
    const flat = { width: 64, height: 32, data: new Uint8Array(64 * 32 * 4).fill(200) };
    const signature = colourSignature(flat, 2);
    expect(signature).to.have.length(COLOUR_SIGNATURE_HEX_LENGTH);
    expect(isColourSignature(signature)).to.equal(true);
    expect(signatureDistance(signature, signature)).to.equal(0);
    expect(signatureDistance(signature, colourSignature(flat, 1))).to.equal(Infinity);
    expect(() => signatureDistance(signature, 'ff')).to.throw(TypeError);
  });

  describe('on the generated sets', () => {
    const flat: Measured[] = [];
    const lines: Measured[] = [];
    before(async () => {
      for (const shape of flatShapes()) {
        const png = await sharp(Buffer.from(shape.svg)).png().toBuffer();
        flat.push(await measure(shape.name, 'original', png));
        for (const copy of await flatVariants(png)) flat.push(await measure(shape.name, copy.kind, copy.bytes));
      }
      for (const drawing of drawings()) lines.push(await measure(drawing.name, 'original', await render(drawing)));
    });
    const low = (entry: Measured): boolean => entry.uninformative >= LOW_DETAIL_MIN_BLOCKS;

    it('finds the blockhash of filled shapes unreliable: resized copies of the same shape far apart', () => {
      const originals = new Map(flat.filter((entry) => entry.kind === 'original').map((entry) => [entry.work, entry]));
      const worst = Math.max(...flat.filter((entry) => entry.kind !== 'original' && low(entry)).map((entry) => hammingDistance(entry.hash, originals.get(entry.work)?.hash ?? entry.hash)));
      expect(worst).to.be.above(80);
    });

    it('calls most filled shapes low-detail and almost no line drawing', () => {
      expect(flat.filter((entry) => entry.kind === 'original' && low(entry)).length).to.be.at.least(40);
      expect(lines.filter(low).map((entry) => entry.work)).to.deep.equal(['tree']);
    });

    it('puts every copy of a low-detail shape within the duplicate limit, and every two different ones beyond the ambiguity limit', () => {
      const originals = new Map(flat.filter((entry) => entry.kind === 'original').map((entry) => [entry.work, entry]));
      const copies = flat.filter((entry) => entry.kind !== 'original' && low(entry) && low(originals.get(entry.work) as Measured));
      expect(copies.length).to.be.at.least(400);
      const farthest = copies.map((entry) => ({ entry, distance: signatureDistance(entry.signature, (originals.get(entry.work) as Measured).signature) })).sort((a, b) => b.distance - a.distance)[0];
      expect(farthest?.distance, `${farthest?.entry.work}/${farthest?.entry.kind}`).to.be.at.most(SIGNATURE_DUPLICATE_MAX_DISTANCE);
      const lowOriginals = [...originals.values()].filter(low);
      let nearest = { distance: Infinity, pair: '' };
      for (let i = 0; i < lowOriginals.length; i++) {
        for (let j = i + 1; j < lowOriginals.length; j++) {
          const a = lowOriginals[i] as Measured;
          const b = lowOriginals[j] as Measured;
          const distance = signatureDistance(a.signature, b.signature);
          if (distance < nearest.distance) nearest = { distance, pair: `${a.work} ~ ${b.work}` };
        }
      }
      expect(nearest.distance, nearest.pair).to.be.above(SIGNATURE_AMBIGUOUS_MAX_DISTANCE);
    });
  });
});
