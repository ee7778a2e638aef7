import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { openBackend } from '../../../src/backend.ts';
import type { Backend } from '../../../src/backend.ts';
import { checkImages } from '../../../indexer/checks/images.ts';
import { checkDuplicates } from '../../../indexer/checks/duplicates.ts';
import { createPreviewLoader } from '../../../indexer/preview-loader.ts';
import { PublishedPreviews } from '../../../indexer/published-previews.ts';
import type { LoadedPreview } from '../../../indexer/previews.ts';
import { makeRecord } from '../../helpers/factories.ts';
import { ImageServer, lineDrawingPng } from '../../helpers/image-server.ts';
import { temporaryDataDir } from '../../helpers/server.ts';

describe('publisher checks: images and duplicates', function () {
  this.timeout(20_000);
  const images = new ImageServer();
  const loader = createPreviewLoader({ allowPrivate: true });
  let dataDir: string;
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
    dataDir = temporaryDataDir();
    backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true });
  });
  afterEach(async () => {
    await backend.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

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

    const bySource = await checkDuplicates(backend.store, published.sourceUrl, 'sub_second', previews.lookup([], 'sub_second'), true);
    expect(bySource.duplicateOf).to.equal(published.id);
    const bytes = await checkDuplicates(backend.store, 'https://github.com/other/work', 'sub_second', previews.lookup([a], 'sub_second'), true);
    expect(bytes.duplicateOf).to.equal(published.id);
    expect(bytes.verdict.detail).to.match(/byte-identical/);
    const copy = await checkDuplicates(backend.store, 'https://github.com/other/work', 'sub_second', previews.lookup([await load('/a-copy.jpg')], 'sub_second'), true);
    expect(copy.duplicateOf).to.equal(published.id);
    expect(copy.verdict.detail).to.match(/perceptual distance/);
    const other = await checkDuplicates(backend.store, 'https://github.com/other/work', 'sub_second', previews.lookup([await load('/b.png')], 'sub_second'), true);
    expect(other.verdict.outcome).to.equal('pass');
    const retry = await checkDuplicates(backend.store, published.sourceUrl, 'sub_first', previews.lookup([a], 'sub_first'), true);
    expect(retry.verdict.outcome).to.equal('pass');
    const noUrl = await checkDuplicates(backend.store, undefined, 'sub_third', previews.lookup([], 'sub_third'), true);
    expect(noUrl.verdict.outcome).to.equal('error');
  });

  it('sees previews published by another process through the change feed', async () => {
    const previews = new PublishedPreviews(backend.store);
    await previews.refresh();
    const b = await load('/b.png');
    expect(previews.lookup([b], 'sub_x').matches).to.deep.equal([]);
    const elsewhere = makeRecord({ source: 'reddit', media: [{ path: 'bb/b.png', width: 600, height: 400, sha256: b.sha256, blockhash: b.blockhash }] });
    await backend.store.putRecords([elsewhere]);
    await previews.refresh();
    const lookups = previews.lookup([b], 'sub_x');
    expect(lookups.matches[0]).to.include({ recordId: elsewhere.id, exact: true });
    expect(lookups.foreign('github').map((entry) => entry.recordId)).to.deep.equal([elsewhere.id]);
    expect(lookups.foreign('reddit')).to.deep.equal([]);
  });
});
