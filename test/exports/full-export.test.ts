import { expect } from 'chai';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import { parseCsv } from '../helpers/csv.ts';
import { makeRecord } from '../helpers/factories.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import { openEmbeddedBackend } from '../helpers/backend.ts';
import { fullExport } from '../../src/exports/full-export.ts';
import type { SubmissionQueue } from '../../src/domain/ports.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import type { TestServer } from '../helpers/server.ts';

describe('GET /api/v1/export (authenticated)', () => {
  let server: TestServer;
  const exportSecret = generateSecret();
  const ingestSecret = generateSecret();
  let submittedId = '';
  let submissionId = '';

  before(async () => {
    server = await startTestServer({ demo: true });
    await server.backend.tokens.createToken('analyst', ['export'], secretSha256(exportSecret));
    await server.backend.tokens.createToken('bot', ['ingest'], secretSha256(ingestSecret));
    const queued = await server.backend.submissions.enqueue([{ tokenName: 'bot', submission: { sourceUrl: 'https://github.com/a/b', date: '2025-01-01', model: 'M', author: 'A', format: 'svg', title: { zh: '题', en: 'T' }, notes: { zh: '注', en: 'N' }, media: ['https://raw.githubusercontent.com/a/b/p.png'] } }]);
    if (queued.kind !== 'accepted') throw new Error('not accepted');
    submissionId = queued.records[0]?.submissionId ?? '';
    const record = makeRecord({ submissionId, title: { zh: '提交的作品', en: 'A submitted work' } });
    submittedId = record.id;
    await server.backend.store.putRecords([record]);
    await server.syncSearch();
  });
  after(async () => server.close());

  const get = (query: string, secret = exportSecret) => server.get(`/api/v1/export${query}`, { headers: { Authorization: `Bearer ${secret}` } });

  it('requires a token with the export scope', async () => {
    const missing = await server.get('/api/v1/export');
    expect(missing.status).to.equal(401);
    expect(missing.headers.get('www-authenticate')).to.match(/^Bearer/);
    expect((await get('', ingestSecret)).status).to.equal(403);
  });

  it('exports canonical bilingual records with their submission history, never a token hash', async () => {
    const response = await get('');
    expect(response.status).to.equal(200);
    expect(response.headers.get('cache-control')).to.equal('private, no-store');
    const text = await response.text();
    const body = JSON.parse(text) as { version: string; lang: string; total: number; items: { id: string; title: { zh: string; en: string }; submission: { submittedBy: string; submissionId: string } | null }[] };
    expect(body).to.include({ version: '1.0', lang: 'all', total: 45 });
    const submitted = body.items.find((item) => item.id === submittedId);
    expect(submitted?.title).to.deep.equal({ zh: '提交的作品', en: 'A submitted work' });
    expect(submitted?.submission).to.include({ submissionId, submittedBy: 'bot' });
    expect(body.items.filter((item) => item.submission === null)).to.have.length(44);
    expect(text).to.not.include(secretSha256(ingestSecret)).and.not.include(ingestSecret);
  });

  it('exports one language as NDJSON and CSV, the items being the API records', async () => {
    const lines = (await (await get('?format=ndjson&lang=en')).text()).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).to.have.length(45);
    const api = await getJson<Record<string, unknown>>(server, `/api/v1/specimens/${submittedId}?lang=en`);
    const { submission, ...record } = lines.find((line) => line.id === submittedId) ?? {};
    expect(record).to.deep.equal(api.body);
    expect(submission).to.include({ submittedBy: 'bot' });
    const csv = parseCsv(await (await get('?format=csv&lang=all')).text());
    expect(csv[0]).to.include.members(['title_zh', 'title_en', 'submissionId', 'submittedBy']);
    expect(csv).to.have.length(46);
    expect(csv.every((row) => row.length === csv[0]?.length)).to.equal(true);
    const zhCsv = parseCsv(await (await get('?format=csv&lang=zh')).text());
    expect(zhCsv).to.have.length(46);
    expect(zhCsv.every((row) => row.length === zhCsv[0]?.length)).to.equal(true);
  });

  it('writes CSV cells as the JSON has them; excel=1 adds the byte-order mark and neutralises formula-like cells', async () => {
    for (const lang of ['all', 'en']) {
      const plain = await (await get(`?format=csv&lang=${lang}`)).text();
      const rows = parseCsv(plain);
      const author = rows[0]?.indexOf('author') ?? -1;
      expect(rows.some((row) => row[author] === '@demo_mira'), lang).to.equal(true);
      const excel = await get(`?format=csv&lang=${lang}&excel=1`);
      expect(excel.headers.get('content-disposition')).to.include('-excel.csv');
      const bytes = Buffer.from(await excel.arrayBuffer());
      expect([...bytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
      const neutralised = parseCsv(bytes.subarray(3).toString('utf8'));
      expect(neutralised.some((row) => row[author] === "'@demo_mira"), lang).to.equal(true);
      expect(neutralised.some((row) => row[author] === '@demo_mira'), lang).to.equal(false);
    }
  });

  it('takes bom=1 for a CSV as the public exports do, and refuses excel or bom for JSON and NDJSON instead of ignoring them', async () => {
    const bom = await get('?format=csv&lang=en&bom=1');
    expect(bom.status).to.equal(200);
    const bytes = Buffer.from(await bom.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
    const author = parseCsv(bytes.subarray(3).toString('utf8'));
    expect(author.some((row) => row.includes('@demo_mira'))).to.equal(true);
    for (const query of ['?format=json&excel=1', '?format=ndjson&bom=1&excel=0', '?bom=1']) {
      const refused = await get(query);
      expect(refused.status, query).to.equal(400);
      const body = (await refused.json()) as { errors: { parameter: string; message: string }[] };
      expect(body.errors.map((error) => error.parameter).sort(), query).to.deep.equal(query.includes('excel') && query.includes('bom') ? ['bom', 'excel'] : [query.includes('bom') ? 'bom' : 'excel']);
      expect(body.errors[0]?.message, query).to.match(/^shapes a CSV alone: add format=csv/);
    }
  });

  it('names bad parameters', async () => {
    const response = await get('?format=xml&lang=fr&x=1');
    expect(response.status).to.equal(400);
    const body = (await response.json()) as { errors: { parameter: string }[] };
    expect(body.errors.map((error) => error.parameter).sort()).to.deep.equal(['format', 'lang', 'x']);
  });
});

describe('the authenticated export reading submissions', () => {
  it('reads the submissions of 256 records in one call, never one by one, each record with its own', async () => {
    const { backend, dispose } = await openEmbeddedBackend();
    try {
      const records: CanonicalRecord[] = [];
      for (let first = 0; first < 600; first += 100) {
        const items = Array.from({ length: 100 }, (_, index) => ({ tokenName: 'bot', submission: { sourceUrl: `https://github.com/a/b${first + index}`, date: '2025-01-01', model: 'M', author: 'A', format: 'svg' as const, title: { zh: '题', en: 'T' }, notes: { zh: '注', en: 'N' }, media: ['https://raw.githubusercontent.com/a/b/p.png'] } }));
        const queued = await backend.submissions.enqueue(items);
        if (queued.kind !== 'accepted') throw new Error('not accepted');
        for (const { submissionId } of queued.records) records.push(makeRecord({ submissionId }));
      }
      records.push(makeRecord());
      await backend.store.putRecords(records);
      const calls = { one: 0, many: 0 };
      const counted: SubmissionQueue = Object.create(backend.submissions, {
        getSubmission: { value: (id: string) => ((calls.one += 1), backend.submissions.getSubmission(id)) },
        getSubmissions: { value: (ids: readonly string[]) => ((calls.many += 1), backend.submissions.getSubmissions(ids)) },
      }) as SubmissionQueue;
      let text = '';
      for await (const chunk of fullExport(backend.store, counted, 'ndjson', 'all', 'https://archive.example')) text += chunk;
      const items = text.trim().split('\n').map((line) => JSON.parse(line) as { id: string; submission: { submissionId: string } | null });
      expect(items).to.have.length(601);
      const expected = new Map(records.map((record) => [record.id, record.submissionId ?? null]));
      for (const item of items) expect(item.submission?.submissionId ?? null, item.id).to.equal(expected.get(item.id));
      expect(calls).to.deep.equal({ one: 0, many: 3 });
    } finally {
      await dispose();
    }
  });
});
