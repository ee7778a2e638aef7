import { expect } from 'chai';
import sharp from 'sharp';
import type { Backend } from '../../src/backend.ts';
import { checkImages } from '../../src/domain/checks/images.ts';
import { checkDuplicates, findSameSource } from '../../src/domain/checks/duplicates.ts';
import type { LoadedPreview } from '../../src/domain/previews.ts';
import { createPreviewLoader } from '../../indexer/preview-loader.ts';
import { PublishedPreviews } from '../../indexer/published-previews.ts';
import { openEmbeddedBackend } from '../helpers/backend.ts';
import { makeRecord } from '../helpers/factories.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';

describe('publisher checks: images and duplicates', function () {
  this.timeout(20_000);
  const images = new ImageServer();
  const loader = createPreviewLoader({ allowPrivate: true });
  let dispose: () => Promise<void>;
  let backend: Backend;

  before(async () => {
    await images.start();
    images.files.set('/a.png', { type: 'image/png', body: await lineDrawingPng(301) });
    images.files.set('/b.png', { type: 'image/png', body: await lineDrawingPng(302) });
    images.files.set('/a-copy.jpg', { type: 'image/jpeg', body: await sharp(await lineDrawingPng(301)).resize({ width: 420 }).jpeg({ quality: 75 }).toBuffer() });
    images.files.set('/down.png', { status: 503, type: 'text/plain', body: 'later' });
  });
  after(async () => images.stop());
  beforeEach(async () => {
    ({ backend, dispose } = await openEmbeddedBackend());
  });
  afterEach(() => dispose());

  it('passes decodable previews, fails on a permanent fault and reports a transient one as an error', async () => {
    const good = await checkImages(loader, [images.url('/a.png'), images.url('/b.png')]);
    expect(good.verdict).to.include({ name: 'images', outcome: 'pass' });
    expect(good.verdict.detail).to.match(/2 previews decoded.*600×400 png/);
    expect(good.previews.map((preview) => preview.blockhash)).to.have.length(2);
    const missing = await checkImages(loader, [images.url('/a.png'), images.url('/gone.png')]);
    expect(missing.verdict.outcome).to.equal('fail');
    expect(missing.verdict.detail).to.include('/gone.png');
    expect(missing.transient).to.equal(false);
    const down = await checkImages(loader, [images.url('/down.png')]);
    expect(down.verdict.outcome).to.equal('error');
    expect(down.transient).to.equal(true);
  });

  async function load(path: string): Promise<LoadedPreview> {
    const result = await loader.load(images.url(path));
    if (!result.ok) throw new Error(result.reason);
    return result.preview;
  }

  it('finds the same source, the same bytes and a resized copy; ignores the submission\'s own records', async () => {
    const a = await load('/a.png');
    const published = makeRecord({ submissionId: 'sub_first', media: [{ path: 'aa/a.png', width: 600, height: 400, sha256: a.sha256, blockhash: a.blockhash }] });
    await backend.store.putRecords([published]);
    const previews = new PublishedPreviews(backend.store);
    await previews.refresh();

    expect((await findSameSource(backend.store, published.sourceUrl, 'sub_second'))?.duplicateOf).to.equal(published.id);
    expect(await findSameSource(backend.store, published.sourceUrl, 'sub_first')).to.equal(undefined);
    const bytes = checkDuplicates(previews.lookup([a], 'sub_second'));
    expect(bytes.duplicateOf).to.equal(published.id);
    expect(bytes.verdict.detail).to.match(/byte-identical/);
    const copy = checkDuplicates(previews.lookup([await load('/a-copy.jpg')], 'sub_second'));
    expect(copy.duplicateOf).to.equal(published.id);
    expect(copy.verdict.detail).to.match(/a perceptual copy \(blockhash distance \d+ of 256\)/);
    const other = checkDuplicates(previews.lookup([await load('/b.png')], 'sub_second'));
    expect(other.verdict.outcome).to.equal('pass');
    expect(checkDuplicates(previews.lookup([a], 'sub_first')).verdict.outcome).to.equal('pass');
  });

  it('never passes a comparison it could not make', () => {
    expect(checkDuplicates(undefined, true).verdict.outcome).to.equal('pending');
    expect(checkDuplicates(undefined).verdict).to.include({ outcome: 'skipped' });
  });

  it('sees previews published by another process through the change feed', async () => {
    const previews = new PublishedPreviews(backend.store);
    await previews.refresh();
    const b = await load('/b.png');
    expect(previews.lookup([b], 'sub_x')).to.deep.equal([]);
    const elsewhere = makeRecord({ source: 'reddit', media: [{ path: 'bb/b.png', width: 600, height: 400, sha256: b.sha256, blockhash: b.blockhash }] });
    await backend.store.putRecords([elsewhere]);
    await previews.refresh();
    const [match] = previews.lookup([b], 'sub_x');
    expect(match).to.include({ recordId: elsewhere.id, source: 'reddit', likeness: 'identical', verdict: 'duplicate' });
  });
});
