import { expect } from 'chai';
import sharp from 'sharp';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import { getJson, startTestServer, waitForSubmission } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { claimedSizePng, ImageServer, lineDrawingPng, lineDrawingSvg } from '../helpers/image-server.ts';

interface Status {
  status: string;
  checks: { name: string; outcome: string; detail: string }[];
  recordIds: string[];
  duplicateOf: string | null;
  reason: string | null;
  attempts: number;
}

describe('publisher end to end: submissions to published, duplicate or needs_review', function () {
  this.timeout(60_000);
  const images = new ImageServer();
  let server: TestServer;
  const secret = generateSecret();
  let counter = 0;

  before(async () => {
    await images.start();
    server = await startTestServer({ publisher: { uploadHosts: [images.host], allowPrivateMedia: true, maxAttempts: 3, retryDelayMs: 50 } });
    await server.backend.tokens.createToken('maintainer', ['ingest'], secretSha256(secret));
    for (let seed = 1; seed <= 9; seed += 1) images.files.set(`/drawing-${seed}.png`, { type: 'image/png', body: await lineDrawingPng(seed) });
    const copy = await sharp(await lineDrawingPng(1)).resize({ width: 450 }).jpeg({ quality: 70 }).toBuffer();
    images.files.set('/drawing-1-copy.jpg', { type: 'image/jpeg', body: copy });
    images.files.set('/blank.png', { type: 'image/png', body: await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } }).png().toBuffer() });
    images.files.set('/drawing.svg', { type: 'image/svg+xml', body: lineDrawingSvg(9) });
    images.files.set('/page.png', { type: 'image/png', body: '<!doctype html><html><body>not an image</body></html>' });
    images.files.set('/bomb.png', { type: 'image/png', body: await claimedSizePng(12000, 12000) });
    images.files.set('/unavailable.png', { status: 503, type: 'text/plain', body: 'try later' });
  });
  after(async () => {
    await server.close();
    await images.stop();
  });

  function submission(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    counter += 1;
    return {
      sourceUrl: `https://github.com/demo-owner/work-${counter}`,
      date: '2025-04-0' + ((counter % 9) + 1),
      model: 'Publisher-Test-Model',
      author: 'Demo Owner',
      format: 'svg',
      title: { zh: `测试作品${counter}`, en: `Publisher test work ${counter}` },
      notes: { zh: '端到端测试。', en: 'End to end test.' },
      media: [images.url('/drawing-2.png')],
      ...overrides,
    };
  }

  async function submitAndSettle(body: Record<string, unknown>): Promise<Status> {
    const response = await server.get('/api/v1/ingest', { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secret}` } });
    expect(response.status).to.equal(202);
    const { submissionId } = (await response.json()) as { submissionId: string };
    return waitForSubmission<Status>(server, submissionId, secret);
  }

  const check = (status: Status, name: string) => status.checks.find((entry) => entry.name === name);

  let first: Status;
  let firstSubmission: Record<string, unknown>;

  it('publishes a work that passes every check, in both languages, searchable, with stored previews', async () => {
    firstSubmission = submission({ model: 'Fresh-Model-7', title: { zh: '独一无二的火烈鸟', en: 'Unmistakable flamingo drawing' }, media: [images.url('/drawing-1.png'), images.url('/drawing-3.png')] });
    first = await submitAndSettle(firstSubmission);
    expect(first.status, first.reason ?? '').to.equal('published');
    expect(first.checks.map((entry) => `${entry.name}:${entry.outcome}`)).to.deep.equal(['source-identity:pass', 'date:pass', 'preview-ownership:pass', 'duplicates:pass', 'images:pass']);
    expect(first.recordIds).to.have.length(2);
    const [galleryId, timelineId] = first.recordIds;
    const en = await getJson<{ kind: string; title: string; mediaStatus: string; media: { url: string; width: number }[]; thumbnail: string; updated: string }>(server, `/api/v1/specimens/${galleryId}?lang=en`);
    expect(en.body).to.include({ kind: 'gallery', title: 'Unmistakable flamingo drawing', mediaStatus: 'local-media' });
    expect(en.body.media).to.have.length(2);
    const preview = await fetch(en.body.media[0]?.url ?? '');
    expect(preview.status).to.equal(200);
    expect((await sharp(Buffer.from(await preview.arrayBuffer())).metadata()).width).to.equal(600);
    expect((await sharp(Buffer.from(await (await fetch(en.body.thumbnail)).arrayBuffer())).metadata()).format).to.equal('webp');
    expect((await getJson<{ kind: string }>(server, `/api/v1/specimens/${timelineId}`)).body.kind).to.equal('timeline');
    const search = await getJson<{ items: { id: string }[] }>(server, '/api/v1/specimens?q=flamingo&lang=en');
    expect(search.body.items.map((item) => item.id)).to.include(galleryId);
    const zh = await getJson<{ items: { id: string }[] }>(server, `/api/v1/specimens?q=${encodeURIComponent('火烈')}`);
    expect(zh.body.items.map((item) => item.id)).to.include(galleryId);
    const timeline = await getJson<{ items: { id: string }[] }>(server, '/api/v1/timeline?limit=50');
    expect(timeline.body.items.map((item) => item.id)).to.include(timelineId);
  });

  it('publishes a model label written with a zero-width space as it is shown, so filters and facets find it', async () => {
    images.files.set('/hidden-model.png', { type: 'image/png', body: await lineDrawingPng(21) });
    const status = await submitAndSettle(submission({ model: 'ZW\u200b-Model', title: { zh: '隐\u2066藏\u2069', en: 'Hid\u200bden' }, media: [images.url('/hidden-model.png')] }));
    expect(status.status, status.reason ?? '').to.equal('published');
    const found = await getJson<{ items: { id: string; model: string; title: string }[]; facets: { model: Record<string, number> } }>(server, '/api/v1/specimens?model=ZW-Model&kind=gallery&facets=model&lang=en');
    expect(found.body.items.map((item) => [item.id, item.model, item.title])).to.deep.equal([[status.recordIds[0], 'ZW-Model', 'Hidden']]);
    expect(found.body.facets.model).to.include({ 'ZW-Model': 1 }).and.not.have.property('ZW\u200b-Model');
    const stored = await server.backend.store.getRecord(status.recordIds[0] ?? '');
    expect(stored).to.deep.include({ model: 'ZW-Model', title: { zh: '隐藏', en: 'Hidden' } });
  });

  it("keeps a joiner where it joins (an emoji sequence, a Persian name) and takes it out of a model label and a Latin word", async () => {
    images.files.set('/joined-author.png', { type: 'image/png', body: await lineDrawingPng(22) });
    const author = 'Ana \u{1f469}\u200d\u{1f4bb} Pérez, \u0645\u062d\u0645\u062f\u200c\u0631\u0636\u0627';
    const status = await submitAndSettle(submission({ model: 'Joined\u200d-Model', author, title: { zh: '连接', en: 'Jo\u200dined' }, media: [images.url('/joined-author.png')] }));
    expect(status.status, status.reason ?? '').to.equal('published');
    expect(await server.backend.store.getRecord(status.recordIds[0] ?? '')).to.deep.include({ model: 'Joined-Model', author, title: { zh: '连接', en: 'Joined' } });
  });

  it('publishes a model label and an author written with spaces around them without the spaces, under the timeline of the label', async () => {
    images.files.set('/spaced-model.png', { type: 'image/png', body: await lineDrawingPng(23) });
    images.files.set('/unspaced-model.png', { type: 'image/png', body: await lineDrawingPng(24) });
    const spaced = await submitAndSettle(submission({ model: '  Spaced-Model  ', author: ' Someone ', date: '2025-02-01', media: [images.url('/spaced-model.png')] }));
    expect(spaced.status, spaced.reason ?? '').to.equal('published');
    expect(await server.backend.store.getRecord(spaced.recordIds[0] ?? '')).to.deep.include({ model: 'Spaced-Model', author: 'Someone' });
    const unspaced = await submitAndSettle(submission({ model: 'Spaced-Model', date: '2025-03-01', media: [images.url('/unspaced-model.png')] }));
    expect(unspaced.recordIds, 'a later work of the same label: no second timeline record').to.have.length(1);
  });

  it('gives a model label one timeline whatever the case it is written in, as the model filter reads labels', async () => {
    images.files.set('/case-upper.png', { type: 'image/png', body: await lineDrawingPng(25) });
    images.files.set('/case-lower.png', { type: 'image/png', body: await lineDrawingPng(26) });
    const first = await submitAndSettle(submission({ model: 'Case-Model-Q', date: '2025-01-01', media: [images.url('/case-upper.png')] }));
    expect(first.recordIds, 'the first work of the label').to.have.length(2);
    const later = await submitAndSettle(submission({ model: 'case-model-q', date: '2025-02-01', media: [images.url('/case-lower.png')] }));
    expect(later.status, later.reason ?? '').to.equal('published');
    expect(later.recordIds, 'the same label in lower case: a gallery record only').to.have.length(1);
    expect(await server.backend.store.getRecord(later.recordIds[0] ?? '')).to.deep.include({ model: 'case-model-q' });
  });

  it('gives a later work of the same model a gallery record only', async () => {
    const later = await submitAndSettle(submission({ model: 'Fresh-Model-7', date: '2025-09-01', media: [images.url('/drawing-4.png')] }));
    expect(later.status, later.reason ?? '').to.equal('published');
    expect(later.recordIds).to.have.length(1);
  });

  it('moves the timeline record to an earlier work of the model that arrives later', async () => {
    const earlier = await submitAndSettle(submission({ model: 'Fresh-Model-7', date: '2024-01-15', media: [images.url('/drawing-6.png')] }));
    expect(earlier.status, earlier.reason ?? '').to.equal('published');
    expect(earlier.recordIds).to.have.length(2);
    const old = await server.get(`/api/v1/specimens/${first.recordIds[1]}`, { redirect: 'manual' });
    expect(old.status).to.equal(301);
    expect(old.headers.get('location')).to.equal(`${server.baseUrl}/api/v1/specimens/${first.recordIds[0]}`);
    const timeline = await getJson<{ items: { id: string; model: string }[] }>(server, '/api/v1/timeline?limit=50');
    expect(timeline.body.items.filter((item) => item.model === 'Fresh-Model-7').map((item) => item.id)).to.deep.equal([earlier.recordIds[1]]);
  });

  it('calls the same source again a duplicate', async () => {
    const again = await submitAndSettle({ ...firstSubmission, sourceUrl: `${firstSubmission.sourceUrl as string}?utm_source=feed`, media: [images.url('/drawing-5.png')] });
    expect(again.status).to.equal('duplicate');
    expect(again.duplicateOf).to.equal(first.recordIds[0]);
  });

  it('publishes one of several submissions of one work, or of one preview, checked at the same moment, and calls the others its duplicates', async () => {
    // Served slowly, so the publisher (four claims at once) holds every one of them checked before any is published.
    for (let seed = 11; seed <= 14; seed += 1) images.files.set(`/slow-${seed}.png`, { type: 'image/png', body: await lineDrawingPng(seed), delayMs: 400 });
    const sameWork = [11, 12, 13].map((seed) => submission({ sourceUrl: 'https://github.com/demo-owner/raced-work', title: { zh: `同一作品${seed}`, en: `Raced work ${seed}` }, media: [images.url(`/slow-${seed}.png`)] }));
    const workStatuses = await Promise.all(sameWork.map(submitAndSettle));
    const published = workStatuses.filter((status) => status.status === 'published');
    expect(published, JSON.stringify(workStatuses.map((status) => [status.status, status.reason]))).to.have.length(1);
    const winner = published[0] as Status;
    for (const status of workStatuses.filter((entry) => entry !== winner)) {
      expect(status.status).to.equal('duplicate');
      expect(status.duplicateOf).to.equal(winner.recordIds[0]);
    }
    // The record is the published submission's, not overwritten by another.
    const record = await getJson<{ title: string }>(server, `/api/v1/specimens/${winner.recordIds[0]}?lang=en`);
    expect(record.body.title).to.equal((sameWork[workStatuses.indexOf(winner)]?.title as { en: string }).en);

    const samePreview = [1, 2, 3].map((n) => submission({ sourceUrl: `https://github.com/demo-owner/raced-preview-${n}`, media: [images.url('/slow-14.png')] }));
    const previewStatuses = await Promise.all(samePreview.map(submitAndSettle));
    expect(previewStatuses.map((status) => status.status).sort()).to.deep.equal(['duplicate', 'duplicate', 'published']);
    const first = previewStatuses.find((status) => status.status === 'published') as Status;
    for (const status of previewStatuses.filter((entry) => entry !== first)) expect(check(status, 'duplicates')?.detail).to.match(new RegExp(`byte-identical to a preview of ${first.recordIds[0] ?? ''}`));
  });

  it('calls the same repository with its owner and name in other case a duplicate', async () => {
    const published = await submitAndSettle(submission({ sourceUrl: 'https://github.com/demo-lin/pelican-svg', media: [images.url('/drawing-7.png')] }));
    expect(published.status, published.reason ?? '').to.equal('published');
    const again = await submitAndSettle(submission({ sourceUrl: 'https://github.com/Demo-Lin/Pelican-SVG', media: [images.url('/drawing-9.png')] }));
    expect(again.status, JSON.stringify(again.checks)).to.equal('duplicate');
    expect(check(again, 'duplicates')?.detail).to.match(/already archived/);
    expect(again.duplicateOf).to.equal(published.recordIds[0]);
  });

  it('publishes a work whose source and preview URLs write the scheme and host in capitals, under its lower-case canonical URL', async () => {
    images.files.set('/capitals.png', { type: 'image/png', body: await lineDrawingPng(33) });
    const status = await submitAndSettle(submission({ sourceUrl: 'HTTPS://GITHUB.COM/demo-owner/in-capitals', media: [images.url('/capitals.png').replace(/^http:/, 'HTTP:')] }));
    expect(status.status, JSON.stringify(status.checks)).to.equal('published');
    const record = await getJson<{ sourceUrl: string; media: unknown[] }>(server, `/api/v1/specimens/${status.recordIds[0]}?lang=en`);
    expect(record.body.sourceUrl).to.equal('https://github.com/demo-owner/in-capitals');
    expect(record.body.media).to.have.length(1);
  });

  it('calls an x.com status shared without a handle a duplicate of the same status with one, and the other way round', async () => {
    const statusId = ((BigInt(Date.parse('2025-04-02T12:00:00Z') - 1288834974657) << 22n) + 7n).toString();
    const otherId = ((BigInt(Date.parse('2025-04-02T12:00:00Z') - 1288834974657) << 22n) + 8n).toString();
    const media = [images.url('/drawing-8.png')];
    const withHandle = await submitAndSettle(submission({ sourceUrl: `https://x.com/demo_mira/status/${statusId}`, date: '2025-04-02', author: '@demo_mira', media }));
    expect(withHandle.status, withHandle.reason ?? '').to.equal('published');
    const shared = await submitAndSettle(submission({ sourceUrl: `https://x.com/i/web/status/${statusId}`, date: '2025-04-02', author: '@demo_mira', media }));
    expect(shared.status, JSON.stringify(shared.checks)).to.equal('duplicate');
    expect(shared.duplicateOf).to.equal(withHandle.recordIds[0]);
    expect(check(shared, 'duplicates')?.detail).to.match(/already archived/);
    images.files.set('/drawing-10.png', { type: 'image/png', body: await lineDrawingPng(10) });
    const sharedFirst = await submitAndSettle(submission({ sourceUrl: `https://twitter.com/i/web/status/${otherId}`, date: '2025-04-02', author: 'Demo Mira', media: [images.url('/drawing-10.png')] }));
    expect(sharedFirst.status, sharedFirst.reason ?? '').to.equal('published');
    const record = await getJson<{ sourceUrl: string }>(server, `/api/v1/specimens/${sharedFirst.recordIds[0] ?? ''}?lang=en`);
    expect(record.body.sourceUrl).to.equal(`https://x.com/i/web/status/${otherId}`);
    const handleLater = await submitAndSettle(submission({ sourceUrl: `https://x.com/Demo_Mira/status/${otherId}`, date: '2025-04-02', author: '@demo_mira', media: [images.url('/drawing-9.png')] }));
    expect(handleLater.status, JSON.stringify(handleLater.checks)).to.equal('duplicate');
    expect(handleLater.duplicateOf).to.equal(sharedFirst.recordIds[0]);
  });

  it('calls a resized, recompressed copy of a published preview a duplicate', async () => {
    const copy = await submitAndSettle(submission({ media: [images.url('/drawing-1-copy.jpg')] }));
    expect(copy.status, JSON.stringify(copy.checks)).to.equal('duplicate');
    expect(copy.duplicateOf).to.equal(first.recordIds[0]);
  });

  const refusals: [string, Record<string, unknown>, string, RegExp][] = [
    ['a blank image', { media: ['/blank.png'] }, 'images', /blank/],
    ['an SVG preview', { media: ['/drawing.svg'] }, 'images', /raster|svg/i],
    ['HTML served as PNG', { media: ['/page.png'] }, 'images', /./],
    ['a decompression bomb', { media: ['/bomb.png'] }, 'images', /pixel/i],
    ['a missing image', { media: ['/nothing.png'] }, 'images', /404/],
    ['a future date', { date: '2099-01-01' }, 'date', /future/],
  ];
  for (const [what, overrides, checkName, detail] of refusals) {
    it(`sends ${what} to needs_review, naming the ${checkName} check`, async () => {
      const media = (overrides.media as string[] | undefined)?.map((path) => images.url(path));
      const status = await submitAndSettle(submission({ ...overrides, ...(media ? { media } : {}) }));
      expect(status.status).to.equal('needs_review');
      expect(check(status, checkName)?.outcome).to.equal('fail');
      expect(check(status, checkName)?.detail).to.match(detail);
      expect(status.reason).to.include(checkName);
      expect(status.recordIds).to.deep.equal([]);
    });
  }

  it('sends previews from a host that is not the source\'s to needs_review', async () => {
    const status = await submitAndSettle(submission({ media: [images.url('/drawing-5.png').replace('127.0.0.1', 'localhost')] }));
    expect(status.status).to.equal('needs_review');
    expect(check(status, 'preview-ownership')?.outcome).to.equal('fail');
    expect(check(status, 'preview-ownership')?.detail).to.include('localhost');
  });

  it('retries a media host that is temporarily down, then gives up with the reason', async () => {
    const status = await submitAndSettle(submission({ media: [images.url('/unavailable.png')] }));
    expect(status.status).to.equal('needs_review');
    expect(status.attempts).to.equal(3);
    expect(images.hits.get('/unavailable.png')).to.equal(3);
    expect(check(status, 'images')?.outcome).to.equal('error');
    expect(status.reason).to.match(/503/);
  });
});

describe('publisher: loopback previews when private media are not allowed', function () {
  this.timeout(30_000);
  it('refuses to fetch from loopback and says so', async () => {
    const images = new ImageServer();
    await images.start();
    images.files.set('/a.png', { type: 'image/png', body: await lineDrawingPng(11) });
    const server = await startTestServer({ publisher: { uploadHosts: [images.host], allowPrivateMedia: false } });
    try {
      const secret = generateSecret();
      await server.backend.tokens.createToken('m', ['ingest'], secretSha256(secret));
      const response = await server.get('/api/v1/ingest', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secret}` },
        body: JSON.stringify({ sourceUrl: 'https://github.com/demo/x', date: '2025-01-01', model: 'M', author: 'A', format: 'svg', title: { zh: '题', en: 'T' }, notes: { zh: '注', en: 'N' }, media: [images.url('/a.png')] }),
      });
      const { statusUrl } = (await response.json()) as { statusUrl: string };
      let status: Status | undefined;
      for (let i = 0; i < 200 && status?.status !== 'needs_review'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await getJson<Status>(server, new URL(statusUrl).pathname, { headers: { Authorization: `Bearer ${secret}` } })).body;
      }
      expect(status?.status).to.equal('needs_review');
      expect(status?.checks.find((entry) => entry.name === 'images')?.detail).to.match(/private|loopback|blocked|not allowed/i);
      expect(images.hits.get('/a.png')).to.equal(undefined);
    } finally {
      await server.close();
      await images.stop();
    }
  });
});
