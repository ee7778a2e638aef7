import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import sharp from 'sharp';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import type { SubmissionStatus } from '../../src/domain/submission.ts';
import { getJson, startTestServer, waitForSubmission } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';
import { flatShapes } from './media/fixtures/flat-shapes.ts';

interface Status {
  status: SubmissionStatus;
  attempts: number;
  checks: { name: string; outcome: string; detail: string }[];
  recordIds: string[];
  duplicateOf: string | null;
  reason: string | null;
  submittedAt: string;
  updatedAt: string;
}

/**
 * Archival integrity and cheap verdicts, end to end over HTTP with the real publisher: ids that
 * keep answering, checks that decide before any fetch, http source URLs, flat-colour copies, and
 * what the ownership check says it found.
 */
describe('publisher: integrity of ids and verdicts without waiting', function () {
  this.timeout(60_000);
  const images = new ImageServer();
  /** A host the archive must refuse: neither a source's nor an upload host. It counts what it receives. */
  const foreign = new ImageServer();
  let server: TestServer;
  const secret = generateSecret();
  let counter = 0;
  const auth = { Authorization: `Bearer ${secret}` };

  before(async () => {
    await images.start();
    await foreign.start();
    // A retry would wait a minute: whatever settles in these tests settles in its first attempt.
    server = await startTestServer({ publisher: { uploadHosts: [images.host], allowPrivateMedia: true, maxAttempts: 3, retryDelayMs: 60_000 } });
    await server.backend.tokens.createToken('maintainer', ['ingest'], secretSha256(secret));
    for (const seed of [21, 22, 23, 24, 25, 26, 27, 28]) images.files.set(`/drawing-${seed}.png`, { type: 'image/png', body: await lineDrawingPng(seed) });
    images.files.set('/drawing-23-again.png', { type: 'image/png', body: await lineDrawingPng(23) });
    images.files.set('/drawing-23-small.jpg', { type: 'image/jpeg', body: await sharp(await lineDrawingPng(23)).resize({ width: 420 }).jpeg({ quality: 75 }).toBuffer() });
    images.files.set('/down.png', { status: 503, type: 'text/plain', body: 'try later' });
    const shape = flatShapes().find((entry) => entry.name === 'two-bars-f0b000');
    const recoloured = flatShapes().find((entry) => entry.name === 'two-bars-2a6be0');
    if (!shape || !recoloured) throw new Error('the flat shapes are missing');
    const png = await sharp(Buffer.from(shape.svg)).png().toBuffer();
    images.files.set('/flat.png', { type: 'image/png', body: png });
    images.files.set('/flat-half.png', { type: 'image/png', body: await sharp(png).resize({ width: 200 }).png().toBuffer() });
    images.files.set('/flat-recoloured.png', { type: 'image/png', body: await sharp(Buffer.from(recoloured.svg)).resize({ width: 400 }).png().toBuffer() });
    foreign.files.set('/preview.png', { status: 503, type: 'text/plain', body: 'down' });
  });
  after(async () => {
    await server.close();
    await images.stop();
    await foreign.stop();
  });

  function work(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    counter += 1;
    return {
      sourceUrl: `https://github.com/demo-owner/integrity-${counter}`,
      date: '2025-04-01',
      model: `Integrity-Model-${counter}`,
      author: 'Demo Owner',
      format: 'svg',
      title: { zh: `完整性${counter}`, en: `Integrity ${counter}` },
      notes: { zh: '测试。', en: 'Test.' },
      media: [images.url('/drawing-21.png')],
      ...overrides,
    };
  }

  async function submit(body: Record<string, unknown>): Promise<string> {
    const response = await server.get('/api/v1/ingest', { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...auth } });
    expect(response.status, await response.clone().text()).to.equal(202);
    return ((await response.json()) as { submissionId: string }).submissionId;
  }

  const until = (submissionId: string, done: (status: Status) => boolean): Promise<Status> => waitForSubmission<Status>(server, submissionId, secret, done);
  const settled = (submissionId: string): Promise<Status> => waitForSubmission<Status>(server, submissionId, secret);
  const check = (status: Status, name: string) => status.checks.find((entry) => entry.name === name);
  const foreignRequests = (): number => [...foreign.hits.values()].reduce((sum, hits) => sum + hits, 0);

  it('settles a submission with a foreign media host at once, in its first attempt, without a request to that host', async () => {
    const status = await settled(await submit(work({ media: [images.url('/drawing-22.png'), foreign.url('/preview.png')] })));
    expect(status.status).to.equal('needs_review');
    expect(status.attempts).to.equal(1);
    expect(foreignRequests()).to.equal(0);
    expect(images.hits.get('/drawing-22.png')).to.equal(undefined);
    expect(check(status, 'preview-ownership')).to.include({ outcome: 'fail' });
    expect(check(status, 'preview-ownership')?.detail).to.include(foreign.host).and.match(/not fetched/);
    expect(check(status, 'images')?.outcome).to.equal('skipped');
    expect(check(status, 'duplicates')?.outcome).to.equal('skipped');
    expect(status.checks.filter((entry) => entry.outcome === 'pass').map((entry) => entry.name)).to.deep.equal(['source-identity', 'date']);
  });

  it('never reports a pass for a comparison it could not make while the previews are being retried', async () => {
    const status = await until(await submit(work({ media: [images.url('/down.png')] })), (current) => current.checks.length > 0);
    expect(status).to.include({ status: 'queued', attempts: 1 });
    expect(check(status, 'images')?.outcome).to.equal('error');
    expect(check(status, 'duplicates')?.outcome).to.equal('pending');
    expect(check(status, 'preview-ownership')?.outcome).to.equal('pending');
    expect(status.checks.filter((entry) => entry.outcome === 'pass' && /could not be compared/.test(entry.detail))).to.deep.equal([]);
  });

  it('makes an http source URL of a known source https, and refuses one of an unknown host naming the field', async () => {
    const published = await settled(await submit(work({ sourceUrl: 'http://github.com/demo-owner/plain-http', media: [images.url('/drawing-24.png')] })));
    expect(published.status, published.reason ?? '').to.equal('published');
    const record = await getJson<{ sourceUrl: string }>(server, `/api/v1/specimens/${published.recordIds[0]}`);
    expect(record.body.sourceUrl).to.equal('https://github.com/demo-owner/plain-http');
    const refused = await server.get('/api/v1/ingest', { method: 'POST', body: JSON.stringify(work({ sourceUrl: 'http://unknown.example/work' })), headers: { 'Content-Type': 'application/json', ...auth } });
    expect(refused.status).to.equal(400);
    expect(((await refused.json()) as { errors: { field: string; message: string }[] }).errors).to.deep.equal([
      { field: 'sourceUrl', message: 'must use https: unknown.example is not a known source, so its http address cannot be made https by the archive' },
    ]);
    const batch = await server.get('/api/v1/ingest/batch', { method: 'POST', body: JSON.stringify({ submissions: [work(), work({ sourceUrl: 'http://unknown.example/other' })] }), headers: { 'Content-Type': 'application/json', ...auth } });
    expect(batch.status).to.equal(202);
    expect(((await batch.json()) as { items: { errors?: { field: string }[] }[] }).items[1]?.errors?.map((error) => error.field)).to.deep.equal(['submissions[1].sourceUrl']);
  });

  it('keeps a published id answering when its timeline record moves: 301 with the current id, API and website', async () => {
    const model = 'Moving-Timeline-Model';
    const later = await settled(await submit(work({ model, date: '2025-06-01', media: [images.url('/drawing-25.png')] })));
    expect(later.recordIds).to.have.length(2);
    const [laterGallery, laterTimeline] = later.recordIds;
    const earlier = await settled(await submit(work({ model, date: '2024-02-01', media: [images.url('/drawing-26.png')] })));
    expect(earlier.status, earlier.reason ?? '').to.equal('published');

    const api = await server.get(`/api/v1/specimens/${laterTimeline}?lang=en`, { redirect: 'manual' });
    expect(api.status).to.equal(301);
    const location = `${server.baseUrl}/api/v1/specimens/${laterGallery}?lang=en`;
    expect(api.headers.get('location')).to.equal(location);
    expect(api.headers.get('link')).to.equal(`<${location}>; rel="canonical"`);
    expect(((await api.json()) as { currentId: string }).currentId).to.equal(laterGallery);
    expect((await server.get(`/api/v1/specimens/${laterTimeline}?lang=en`)).status).to.equal(200);
    for (const prefix of ['', '/en']) {
      const page = await server.get(`${prefix}/specimens/${laterTimeline}/`, { redirect: 'manual', headers: { Accept: 'text/html' } });
      expect(page.status).to.equal(301);
      expect(page.headers.get('location')).to.equal(`${server.baseUrl}${prefix}/specimens/${laterGallery}/`);
      expect(page.headers.get('link')).to.equal(`<${server.baseUrl}${prefix}/specimens/${laterGallery}/>; rel="canonical"`);
    }
    const markdown = await server.get(`/en/specimens/${laterTimeline}/index.md`, { redirect: 'manual' });
    expect(markdown.headers.get('location')).to.equal(`${server.baseUrl}/en/specimens/${laterGallery}/index.md`);
    // An agent asking the tool server for the old id is told where the record is now.
    const client = new Client({ name: 'integrity-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
    try {
      const result = (await client.callTool({ name: 'get_specimen', arguments: { id: laterTimeline, lang: 'en' } })) as CallToolResult;
      expect(result.isError).to.equal(true);
      expect(JSON.stringify(result.content)).to.include(`moved to \\"${laterGallery}\\"`);
    } finally {
      await client.close();
    }
    // The submission shows the ids that answer now.
    expect((await getJson<Status>(server, `/api/v1/ingest/${await firstSubmissionOf(laterGallery ?? '')}`, { headers: auth })).body.recordIds).to.deep.equal([laterGallery]);
  });

  async function firstSubmissionOf(recordId: string): Promise<string> {
    return (await server.backend.store.getRecord(recordId))?.submissionId ?? '';
  }

  it('answers 410 for a withdrawn record, saying why and where the work was published', async () => {
    const status = await settled(await submit(work({ media: [images.url('/drawing-27.png')] })));
    const [gallery] = status.recordIds;
    const record = await server.backend.store.getRecord(gallery ?? '');
    await server.backend.store.deleteRecords(status.recordIds, 'The author asked for the work to be taken down.');
    const gone = await server.get(`/api/v1/specimens/${gallery}`);
    expect(gone.status).to.equal(410);
    expect(gone.headers.get('content-type')).to.match(/problem\+json/);
    const body = (await gone.json()) as { detail: string; sourceUrl: string; reason: string; workTitle: { en: string } };
    expect(body).to.deep.include({ sourceUrl: record?.sourceUrl, reason: 'The author asked for the work to be taken down.', workTitle: record?.title });
    expect(body.detail).to.include(record?.sourceUrl ?? 'x');
    const page = await server.get(`/en/specimens/${gallery}/`, { headers: { Accept: 'text/html' } });
    expect(page.status).to.equal(410);
    expect(await page.text()).to.include('This record was withdrawn').and.include(record?.sourceUrl ?? 'x');
    expect((await server.get('/api/v1/specimens/svg-never-published-00000000')).status).to.equal(404);
  });

  it('calls a resized copy of a flat-colour picture a duplicate, and the same shape in another colour a new work', async () => {
    const original = await settled(await submit(work({ media: [images.url('/flat.png')] })));
    expect(original.status, original.reason ?? '').to.equal('published');
    const copy = await settled(await submit(work({ media: [images.url('/flat-half.png')] })));
    expect(copy.status, JSON.stringify(copy.checks)).to.equal('duplicate');
    expect(copy.duplicateOf).to.equal(original.recordIds[0]);
    expect(check(copy, 'duplicates')?.detail).to.match(/colour-aware signature distance/);
    const recoloured = await settled(await submit(work({ media: [images.url('/flat-recoloured.png')] })));
    expect(recoloured.status, JSON.stringify(recoloured.checks)).to.equal('published');
  });

  it('knows a source added to the table at once: the publisher checks against it, the record page shows its label', async () => {
    await server.backend.sources.putSource({ key: 'mastodon', label: { zh: '长毛象', en: 'Mastodon' }, hosts: ['mastodon.social'], mediaHosts: ['files.mastodon.social'], handlePattern: '^/@([A-Za-z0-9_]+)/' });
    const status = await settled(await submit(work({ sourceUrl: 'https://mastodon.social/@demo/1234', author: '@demo', media: [images.url('/drawing-28.png')] })));
    expect(status.status, status.reason ?? '').to.equal('published');
    expect(check(status, 'source-identity')?.detail).to.equal('Mastodon source https://mastodon.social/@demo/1234 by @demo.');
    const page = await server.get(`/en/specimens/${status.recordIds[0]}/`, { headers: { Accept: 'text/html' } });
    expect(await page.text()).to.include('Mastodon');
  });

  it('says what it found when a preview belongs to another source: byte-identical, or perceptual with the distance', async () => {
    const elsewhere = await settled(await submit(work({ sourceUrl: `https://reddit.com/r/demo/comments/integrity${counter}/work`, media: [images.url('/drawing-23.png')] })));
    expect(elsewhere.status, elsewhere.reason ?? '').to.equal('published');
    const identical = await settled(await submit(work({ media: [images.url('/drawing-23-again.png')] })));
    expect(check(identical, 'preview-ownership')?.detail).to.equal(`${images.url('/drawing-23-again.png')} is byte-identical to a preview of ${elsewhere.recordIds[0]} from source reddit.`);
    const resized = await settled(await submit(work({ media: [images.url('/drawing-23-small.jpg')] })));
    expect(check(resized, 'preview-ownership')?.detail).to.match(new RegExp(`is a perceptual copy \\(blockhash distance \\d+ of 256\\) of a preview of ${elsewhere.recordIds[0]} from source reddit\\.$`));
    expect(check(resized, 'preview-ownership')?.detail).not.to.match(/already the preview of/);
  });
});
