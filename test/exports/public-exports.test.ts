import { expect } from 'chai';
import type { ListResponse } from '../../src/domain/specimens.ts';
import { CSV_COLUMNS } from '../../src/exports/csv.ts';
import { parseCsv } from '../helpers/csv.ts';
import { makeRecord } from '../helpers/factories.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

describe('public bulk exports', () => {
  let server: TestServer;
  const hostile = makeRecord({
    date: '2026-01-01',
    title: { zh: '标题，含"引号"与\n换行', en: 'Title, with "quotes",\r\nand a line break' },
    notes: { zh: '=HYPERLINK("http://evil")', en: '+1 and @mention' },
    prompt: '-rm everything',
  });
  before(async () => {
    server = await startTestServer({ demo: true });
    await server.backend.store.putRecords([hostile]);
  });
  after(async () => server.close());

  for (const [path, lang] of [['/data/catalog.json', 'zh'], ['/en/data/catalog.json', 'en']] as const) {
    it(`${path}: every record, each the same object the API returns`, async () => {
      const response = await server.get(path);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-disposition')).to.equal(`attachment; filename="catalog-${lang}.json"`);
      const body = (await response.json()) as { version: string; updated: string; total: number; items: { id: string }[] };
      expect(body.version).to.equal('1.0');
      expect(body.updated).to.equal('2026-11-20');
      expect(body.total).to.equal(45);
      expect(body.items).to.have.length(45);
      const api = await getJson<ListResponse>(server, `/api/v1/specimens?lang=${lang}&limit=50`);
      const byId = new Map(api.body.items.map((item) => [item.id, item]));
      for (const item of body.items) expect(item).to.deep.equal(byId.get(item.id));
    });
  }

  it('CSV parses back to the same values and row count, quotes, commas, line breaks and Chinese included', async () => {
    for (const [path, lang] of [['/data/catalog.csv', 'zh'], ['/en/data/catalog.csv', 'en']] as const) {
      const response = await server.get(path);
      expect(response.headers.get('content-type')).to.match(/^text\/csv; charset=utf-8/);
      const rows = parseCsv(await response.text());
      expect(rows[0]).to.deep.equal([...CSV_COLUMNS]);
      expect(rows).to.have.length(46);
      const record = (await getJson<{ title: string; citation: string }>(server, `/api/v1/specimens/${hostile.id}?lang=${lang}`)).body;
      const row = rows.find((cells) => cells[0] === hostile.id) ?? [];
      const cell = (column: string): string => row[CSV_COLUMNS.indexOf(column as (typeof CSV_COLUMNS)[number])] ?? '';
      expect(cell('title')).to.equal(record.title);
      expect(cell('citation')).to.equal(record.citation);
      expect(rows.every((cells) => cells.length === CSV_COLUMNS.length)).to.equal(true);
    }
  });

  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const rows = parseCsv(await (await server.get('/data/catalog.csv')).text());
    const row = rows.find((cells) => cells[0] === hostile.id) ?? [];
    expect(row[CSV_COLUMNS.indexOf('notes')]).to.equal(`'=HYPERLINK("http://evil")`);
    expect(row[CSV_COLUMNS.indexOf('prompt')]).to.equal(`'-rm everything`);
  });

  it('adds a byte-order mark on ?bom=1 and refuses unknown parameters', async () => {
    const withBom = Buffer.from(await (await server.get('/en/data/catalog.csv?bom=1')).arrayBuffer());
    expect([...withBom.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
    const without = Buffer.from(await (await server.get('/en/data/catalog.csv')).arrayBuffer());
    expect(without.subarray(0, 2).toString()).to.equal('id');
    const bad = await getJson<{ errors: { parameter: string }[] }>(server, '/en/data/catalog.json?limit=5');
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((error) => error.parameter)).to.deep.equal(['limit']);
    expect((await getJson(server, '/en/data/catalog.csv?bom=yes')).status).to.equal(400);
  });

  it('tags exports with the catalog change number: 304 until the catalog changes', async () => {
    const first = await server.get('/en/data/catalog.json');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).to.match(/^"catalog-\d+-en-json"$/);
    expect((await server.get('/en/data/catalog.json', { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    await server.backend.store.putRecords([makeRecord()]);
    const changed = await server.get('/en/data/catalog.json', { headers: { 'If-None-Match': etag } });
    expect(changed.status).to.equal(200);
    expect(((await changed.json()) as { total: number }).total).to.equal(46);
  });

  it('compresses when asked and answers HEAD without a body', async () => {
    const gzip = await server.get('/en/data/catalog.csv', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).to.equal('gzip');
    expect(parseCsv(await gzip.text()).length).to.be.above(40);
    const head = await server.get('/data/catalog.json', { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(await head.text()).to.equal('');
    expect((await server.get('/data/catalog.json', { method: 'POST' })).status).to.equal(405);
  });
});
