import { expect } from 'chai';
import sharp from 'sharp';
import { inspectImage, sniffRasterFormat } from '../../../indexer/media/inspect-image.ts';
import type { ImageAccepted, ImageInspection, ImageRefused } from '../../../indexer/media/inspect-image.ts';
import { DUPLICATE_MAX_DISTANCE, hammingDistance, isPerceptualHash } from '../../../indexer/media/perceptual-hash.ts';
import { sampleImages } from './fixtures/images.ts';
import type { SampleImages } from './fixtures/images.ts';

function accepted(result: ImageInspection): ImageAccepted {
  if (!result.ok) throw new Error(`expected the image to pass, got ${result.failure}: ${result.reason}`);
  return result;
}

function refused(result: ImageInspection): ImageRefused {
  if (result.ok) throw new Error(`expected the image to be refused, got ${result.format} ${result.width}×${result.height}`);
  return result;
}

describe('image inspection', () => {
  let images: SampleImages;
  before(async () => {
    images = await sampleImages();
  });

  it('accepts a PNG drawing with its size, format, storage extension and a 256-bit hash', async () => {
    const result = accepted(await inspectImage(images.png));
    expect(result).to.include({ format: 'png', extension: 'png', width: 420, height: 400, pages: 1, blank: false });
    expect(isPerceptualHash(result.blockhash)).to.equal(true);
    expect(result.stats).to.include({ sampleWidth: 256, sampleHeight: 244 });
    expect(result.stats.contentArea).to.be.within(0.3, 0.95);
    expect(result.stats.stdev[0]).to.be.above(10);
  });

  it('accepts JPEG and WebP copies of it with nearly the same hash', async () => {
    const png = accepted(await inspectImage(images.png));
    const jpeg = accepted(await inspectImage(images.jpeg));
    const webp = accepted(await inspectImage(images.webp));
    expect(jpeg).to.include({ format: 'jpeg', extension: 'jpg', width: 420, height: 400 });
    expect(webp).to.include({ format: 'webp', extension: 'webp' });
    expect(hammingDistance(png.blockhash, jpeg.blockhash)).to.be.at.most(DUPLICATE_MAX_DISTANCE);
    expect(hammingDistance(png.blockhash, webp.blockhash)).to.be.at.most(DUPLICATE_MAX_DISTANCE);
  });

  it('inspects the first frame of an animated GIF and reports the frame count', async () => {
    expect(accepted(await inspectImage(images.animatedGif))).to.include({ format: 'gif', extension: 'gif', width: 64, height: 64, pages: 2 });
  });

  it('applies the EXIF orientation to the reported size', async () => {
    const rotated = await sharp(images.png).flatten({ background: '#ffffff' }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect(accepted(await inspectImage(rotated))).to.include({ width: 400, height: 420 });
  });

  it('marks a flat-colour image and a fully transparent one as blank, and a drawing as not blank', async () => {
    const flat = accepted(await inspectImage(images.blankPng));
    expect(flat.blank).to.equal(true);
    expect(flat.stats.stdev.every((deviation) => deviation < 2)).to.equal(true);
    const transparent = accepted(await inspectImage(images.transparentPng));
    expect(transparent.blank).to.equal(true);
    expect(transparent.stats.transparent).to.equal(1);
    expect(accepted(await inspectImage(images.jpeg)).blank).to.equal(false);
    // Black strokes on a transparent canvas: every colour channel is 0, only alpha shows the drawing.
    const strokes = Buffer.alloc(100 * 100 * 4);
    for (let y = 20; y < 80; y++) strokes[(y * 100 + 50) * 4 + 3] = 255;
    const drawn = accepted(await inspectImage(await sharp(strokes, { raw: { width: 100, height: 100, channels: 4 } }).png().toBuffer()));
    expect(drawn.blank).to.equal(false);
    expect(drawn.stats.stdev.slice(0, 3)).to.deep.equal([0, 0, 0]);
  });

  it('refuses SVG, HTML and PDF by their bytes, whatever they are called', async () => {
    expect(refused(await inspectImage(images.svg))).to.deep.include({ failure: 'not-raster' });
    expect(refused(await inspectImage(images.svg)).reason).to.match(/SVG/);
    expect(refused(await inspectImage(images.html)).reason).to.match(/HTML/);
    expect(refused(await inspectImage(images.pdf)).reason).to.match(/PDF/);
    expect(refused(await inspectImage(Buffer.from('\uFEFF  <?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'))).reason).to.match(/SVG/);
    expect(refused(await inspectImage(Buffer.alloc(0)))).to.deep.include({ failure: 'empty' });
  });

  it('refuses a 12000×12000 PNG from its header, quickly and without decoding it', async () => {
    expect(images.bombPng.length).to.be.below(100_000);
    const started = performance.now();
    const result = refused(await inspectImage(images.bombPng));
    expect(performance.now() - started).to.be.below(500);
    expect(result.failure).to.equal('too-many-pixels');
    expect(result.reason).to.equal('12000×12000 is 144.0 megapixels, more than the 40 allowed');
    // The same file is a real image: a higher limit lets it through.
    expect(accepted(await inspectImage(images.bombPng, { maxPixels: 200_000_000 })).blank).to.equal(true);
  });

  it('refuses images smaller than 32×32 and images that do not decode', async () => {
    const tiny = refused(await inspectImage(images.tinyPng));
    expect(tiny).to.deep.equal({ ok: false, failure: 'too-small', reason: '16×40 is smaller than 32×32' });
    expect(refused(await inspectImage(images.truncatedPng)).failure).to.equal('undecodable');
    const garbage = Buffer.concat([images.png.subarray(0, 8), Buffer.alloc(200, 7)]);
    expect(refused(await inspectImage(garbage)).failure).to.equal('undecodable');
  });

  it('sniffs formats from signatures only', () => {
    expect(sniffRasterFormat(images.png)).to.equal('png');
    expect(sniffRasterFormat(images.jpeg)).to.equal('jpeg');
    expect(sniffRasterFormat(images.webp)).to.equal('webp');
    expect(sniffRasterFormat(images.animatedGif)).to.equal('gif');
    expect(sniffRasterFormat(images.svg)).to.equal(undefined);
    expect(sniffRasterFormat(Buffer.from('RIFF0000WAVE'))).to.equal(undefined);
  });
});
