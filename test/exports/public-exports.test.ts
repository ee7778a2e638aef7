import { expect } from 'chai';
import type { ListResponse } from '../../src/domain/specimens.ts';
import { BILINGUAL_CSV_COLUMNS, CSV_COLUMNS } from '../../src/exports/csv.ts';
import { writtenWithOf } from '../../src/http/response-cache.ts';
import { parseCsv } from '../helpers/csv.ts';
import { makeRecord } from '../helpers/factories.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

describe('public bulk exports', () => {
  let server: TestServer;
  const hostile = makeRecord({
    date: '2026-01-01',
    // U+2028 and U+2029 too: JSON allows them raw, and line splitters (Python's splitlines) break a line there.
    title: { zh: '标题，含"引号"与\n换行\u2028分行\u2029分段', en: 'Title, with "quotes",\r\nand a line break' },
    notes: { zh: '=HYPERLINK("http://evil")', en: '+1 and @mention' },
    prompt: '-rm everything',
  });
  before(async () => {
    server = await startTestServer({ demo: true });
    await server.backend.store.putRecords([hostile]);
    await server.syncSearch();
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

  /** A JSON value as the CSV writes it: absent and null are empty, media are their URLs separated by spaces. */
  function asCell(item: Record<string, unknown>, column: string): string {
    const value = item[column];
    if (column === 'media') return (value as { url: string }[]).map((media) => media.url).join(' ');
    return value === undefined || value === null ? '' : String(value);
  }

  async function jsonExport(lang: 'zh' | 'en'): Promise<Map<string, Record<string, unknown>>> {
    const body = (await (await server.get(lang === 'zh' ? '/data/catalog.json' : '/en/data/catalog.json')).json()) as { items: Record<string, unknown>[] };
    return new Map(body.items.map((item) => [String(item.id), item]));
  }

  it('CSV parsed back equals the JSON export value for value: quotes, commas, line breaks, Chinese, and @, -, +, = kept', async () => {
    for (const [path, lang] of [['/data/catalog.csv', 'zh'], ['/en/data/catalog.csv', 'en']] as const) {
      const response = await server.get(path);
      expect(response.headers.get('content-type')).to.match(/^text\/csv; charset=utf-8/);
      const rows = parseCsv(await response.text());
      expect(rows[0]).to.deep.equal([...CSV_COLUMNS]);
      const json = await jsonExport(lang);
      expect(rows).to.have.length(json.size + 1);
      for (const row of rows.slice(1)) {
        const item = json.get(row[0] ?? '');
        expect(item, `${path}: ${row[0]} is in the JSON export`).to.not.equal(undefined);
        CSV_COLUMNS.forEach((column, index) => expect(row[index], `${path} ${row[0]} ${column}`).to.equal(asCell(item ?? {}, column)));
      }
      const cells = (id: string) => rows.find((row) => row[0] === id) ?? [];
      expect(cells(hostile.id)[CSV_COLUMNS.indexOf('prompt')]).to.equal('-rm everything');
      expect(rows.some((row) => row[CSV_COLUMNS.indexOf('author')] === '@demo_mira')).to.equal(true);
    }
  });

  it('NDJSON carries the JSON export\'s records, one per line', async () => {
    for (const [path, lang] of [['/data/catalog.ndjson', 'zh'], ['/en/data/catalog.ndjson', 'en']] as const) {
      const response = await server.get(path);
      expect(response.headers.get('content-type')).to.match(/^application\/x-ndjson/);
      const text = await response.text();
      expect(text.endsWith('\n')).to.equal(true);
      expect(text, 'U+2028 and U+2029 escaped').to.not.match(/[\u2028\u2029]/);
      const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      const json = await jsonExport(lang);
      expect(lines).to.have.length(json.size);
      for (const line of lines) expect(line).to.deep.equal(json.get(String(line.id)));
    }
  });

  it('the bilingual CSV holds both languages in one row, each cell the value of that language\'s JSON', async () => {
    const rows = parseCsv(await (await server.get('/data/catalog.bilingual.csv')).text());
    expect(rows[0]).to.deep.equal([...BILINGUAL_CSV_COLUMNS]);
    const [zh, en] = [await jsonExport('zh'), await jsonExport('en')];
    expect(rows).to.have.length(zh.size + 1);
    for (const row of rows.slice(1)) {
      BILINGUAL_CSV_COLUMNS.forEach((column, index) => {
        const [, field, lang] = /^(.+)_(zh|en)$/.exec(column) ?? [undefined, column, 'en'];
        const item = (lang === 'zh' ? zh : en).get(row[0] ?? '') ?? {};
        expect(row[index], `${row[0]} ${column}`).to.equal(asCell(item, field ?? column));
      });
    }
    const row = rows.find((cells) => cells[0] === hostile.id) ?? [];
    expect(row[BILINGUAL_CSV_COLUMNS.indexOf('title_zh')]).to.equal(hostile.title.zh);
    expect(row[BILINGUAL_CSV_COLUMNS.indexOf('title_en')]).to.equal(hostile.title.en);
  });

  it('?excel=1 adds the byte-order mark and neutralises cells a spreadsheet would run as formulas', async () => {
    for (const path of ['/data/catalog.csv?excel=1', '/data/catalog.bilingual.csv?excel=1']) {
      const response = await server.get(path);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect([...bytes.subarray(0, 3)], path).to.deep.equal([0xef, 0xbb, 0xbf]);
      expect(response.headers.get('content-disposition')).to.match(/-excel\.csv"$/);
      const rows = parseCsv(bytes.subarray(3).toString('utf8'));
      const header = rows[0] ?? [];
      const row = rows.find((cells) => cells[0] === hostile.id) ?? [];
      const notes = header.indexOf(header.includes('notes') ? 'notes' : 'notes_zh');
      expect(row[notes], path).to.equal(`'=HYPERLINK("http://evil")`);
      expect(row[header.indexOf('prompt')], path).to.equal(`'-rm everything`);
      expect(rows.some((cells) => cells[header.indexOf('author')] === `'@demo_mira`), path).to.equal(true);
    }
  });

  it('adds a byte-order mark alone on ?bom=1, ignores tracking parameters and refuses other unknown ones', async () => {
    const withBom = Buffer.from(await (await server.get('/en/data/catalog.csv?bom=1')).arrayBuffer());
    expect([...withBom.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
    expect(parseCsv(withBom.subarray(3).toString('utf8')).some((row) => row.includes('@demo_mira'))).to.equal(true);
    const without = Buffer.from(await (await server.get('/en/data/catalog.csv')).arrayBuffer());
    expect(without.subarray(0, 2).toString()).to.equal('id');
    const bad = await getJson<{ errors: { parameter: string }[] }>(server, '/en/data/catalog.json?limit=5&utm_source=newsletter');
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((error) => error.parameter)).to.deep.equal(['limit']);
    expect((await getJson(server, '/en/data/catalog.csv?bom=yes')).status).to.equal(400);
    expect((await getJson(server, '/en/data/catalog.csv?excel=2')).status).to.equal(400);
    for (const path of ['/en/data/catalog.json?utm_source=newsletter&utm_medium=email', '/data/catalog.csv?utm_campaign=launch&fbclid=abc', '/en/data/catalog.ndjson?utm_source=x&utm_source=y', '/en/llms.txt?utm_source=chat']) {
      expect((await server.get(path)).status, path).to.equal(200);
    }
  });

  it('tags exports with the catalog change number, its mark and the base URL: 304 until the catalog or the address changes', async () => {
    const first = await server.get('/en/data/catalog.json');
    const etag = first.headers.get('etag') ?? '';
    const { changeNumber, changeStamp } = await server.backend.store.catalogState();
    expect(changeStamp).to.match(/^[0-9a-f]{12}$/);
    // The number alone repeats in another database, or after a backup is restored and written to; its mark does not.
    expect(etag).to.equal(`W/"catalog-en-json-${changeNumber}.${changeStamp}-${writtenWithOf(server.baseUrl)}"`);
    // Every record's url holds the base URL: an archive moved to another address writes other bodies under other tags.
    expect(writtenWithOf('https://archive.example.org')).to.not.equal(writtenWithOf('https://models.example.org'));
    expect((await server.get('/en/data/catalog.json', { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    await server.backend.store.putRecords([makeRecord()]);
    const changed = await server.get('/en/data/catalog.json', { headers: { 'If-None-Match': etag } });
    expect(changed.status).to.equal(200);
    expect(((await changed.json()) as { total: number }).total).to.equal(46);
    // The compilation date alone is in the body too.
    const dated = changed.headers.get('etag') ?? '';
    await server.backend.store.setCatalogUpdated('2099-01-01');
    const redated = await server.get('/en/data/catalog.json', { headers: { 'If-None-Match': dated } });
    expect(redated.status).to.equal(200);
    expect(((await redated.json()) as { updated: string }).updated).to.equal('2099-01-01');
  });

  it('compresses when asked and answers HEAD without a body', async () => {
    const gzip = await server.get('/en/data/catalog.csv', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).to.equal('gzip');
    expect(parseCsv(await gzip.text()).length).to.be.above(40);
    // Every text format, NDJSON too (its media type is not in the registry's list of compressible types).
    for (const path of ['/en/data/catalog.ndjson', '/data/catalog.ndjson', '/en/data/catalog.json']) {
      for (const coding of ['gzip', 'br']) {
        const answer = await server.get(path, { headers: { 'Accept-Encoding': coding } });
        expect(answer.headers.get('content-encoding'), `${path} ${coding}`).to.equal(coding);
        expect((await answer.text()).length, `${path} ${coding}`).to.be.above(2048);
      }
    }
    const head = await server.get('/data/catalog.json', { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(await head.text()).to.equal('');
    const gzipHead = await server.get('/en/data/catalog.csv', { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' } });
    for (const field of ['content-encoding', 'content-type', 'content-disposition', 'etag']) expect(gzipHead.headers.get(field), field).to.equal(gzip.headers.get(field));
    expect((await server.get('/data/catalog.json', { method: 'POST' })).status).to.equal(405);
  });
});
