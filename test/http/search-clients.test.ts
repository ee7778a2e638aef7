/**
 * What a high-volume search client relies on, over real HTTP: several values per filter, model,
 * author and date filters, facet counts, cursors (with Link: rel="next") that page any list to its
 * end while the catalog changes, and the query syntax.
 */
import { expect } from 'chai';
import { validators } from '../../src/validation/schemas.ts';
import type { ListResponse } from '../../src/domain/specimens.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { makeRecord } from '../helpers/factories.ts';

interface Problem {
  status: number;
  detail: string;
  errors: { parameter: string; message: string }[];
}

/** The next page's address from a Link header, if any. */
function linkNext(header: string | null): string | undefined {
  return /<([^>]+)>;\s*rel="next"/.exec(header ?? '')?.[1];
}

describe('search clients over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ demo: true });
    await server.backend.store.putRecords([
      makeRecord({ date: '2024-07-07', model: 'Model, with a comma', author: 'Lee, Ann', sourceUrl: 'https://example.org/comma/1' }),
      makeRecord({ date: '2024-07-08', model: 'model, WITH a comma', author: 'lee, ann', sourceUrl: 'https://example.org/comma/2', updated: '2026-12-24' }),
    ]);
    await server.syncSearch();
  });
  after(async () => server.close());

  const list = (path: string) => getJson<ListResponse>(server, path);
  const problem = (path: string) => getJson<Problem>(server, path);
  const total = async (path: string): Promise<number> => (await list(path)).body.total;

  it('takes several comma-separated values per filter: any of them within a field, fields with AND', async () => {
    const both = await list('/api/v1/specimens?format=svg,game&limit=50');
    expect(both.status).to.equal(200);
    expect(both.body.total).to.equal((await total('/api/v1/specimens?format=svg')) + (await total('/api/v1/specimens?format=game')));
    expect(both.body.items.every((item) => item.format === 'svg' || item.format === 'game')).to.equal(true);
    const narrowed = await list('/api/v1/specimens?format=svg,game&year=2024,2025&limit=50');
    expect(narrowed.body.items.every((item) => ['svg', 'game'].includes(item.format) && ['2024', '2025'].includes(item.year))).to.equal(true);
    expect(await total('/api/v1/specimens?format=svg, game')).to.equal(both.body.total);
    const repeated = await problem('/api/v1/specimens?format=svg&format=game');
    expect(repeated.status).to.equal(400);
    expect(repeated.body.errors).to.deep.equal([{ parameter: 'format', message: 'must be given once, not repeated (several values go in one, comma-separated: format=svg,game)' }]);
    // Repeated values that are not formats are named in the same entry: one answer names everything to mend (a verification pass).
    const repeatedBad = await problem('/api/v1/specimens?format=foo&format=bar');
    expect(repeatedBad.body.errors).to.deep.equal([
      { parameter: 'format', message: 'must be given once, not repeated (several values go in one, comma-separated), and "foo", "bar" are not valid values; also must be one of: svg, animation, 3d, game, video' },
    ]);
    const bad = await problem('/api/v1/specimens?format=svg,png');
    expect(bad.body.errors.map((error) => error.parameter)).to.deep.equal(['format']);
  });

  it('filters model and author exactly, case-insensitively, a value with a comma in double quotes', async () => {
    expect(await total(`/api/v1/specimens?model=${encodeURIComponent('"MODEL, WITH A COMMA"')}`)).to.equal(2);
    expect(await total(`/api/v1/specimens?model=${encodeURIComponent('Model')}`)).to.equal(0);
    expect(await total(`/api/v1/specimens?author=${encodeURIComponent('"Lee, Ann"')}&model=${encodeURIComponent('"model, with a comma",GPT-4')}`)).to.equal(2);
    const { body } = await list('/api/v1/specimens?facets=model&limit=1');
    const [label, count] = Object.entries(body.facets?.model ?? {}).find(([name]) => !name.includes(',')) ?? ['', 0];
    expect(await total(`/api/v1/specimens?model=${encodeURIComponent(label.toLowerCase())}`)).to.equal(count);
    const unclosed = await problem(`/api/v1/specimens?model=${encodeURIComponent('"GPT-4')}`);
    expect(unclosed.body.errors).to.deep.equal([{ parameter: 'model', message: 'has a double quote that is never closed' }]);
  });

  it('bounds dates with from and to (inclusive) and compilation dates with since', async () => {
    const from = await list('/api/v1/specimens?from=2025-01-01&to=2025-06-30&limit=50');
    expect(from.body.total).to.be.above(0);
    expect(from.body.items.every((item) => item.date >= '2025-01-01' && item.date <= '2025-06-30')).to.equal(true);
    expect(await total('/api/v1/specimens?from=2025-03-14&to=2025-03-14')).to.equal(await total('/api/v1/specimens?from=2025-03-14&to=2025-03-14&year=2025'));
    const reversed = await problem('/api/v1/specimens?from=2025-02-01&to=2025-01-01');
    expect(reversed.body.errors).to.deep.equal([{ parameter: 'to', message: 'must not be before from (2025-02-01)' }]);
    const badDate = await problem('/api/v1/specimens?from=2025-02-30&since=yesterday');
    expect(badDate.body.errors).to.deep.equal([
      // Written YYYY-MM-DD, but no day: said so (a verification pass).
      { parameter: 'from', message: 'must be a date on a day that exists (2025-02-30 is written YYYY-MM-DD, but there is no such day), e.g. 2025-05-01' },
      { parameter: 'since', message: 'must be a date written YYYY-MM-DD, e.g. 2025-05-01' },
    ]);
    const since = await list('/api/v1/specimens?since=2026-12-01&lang=en');
    expect(since.body.items.map((item) => item.updated)).to.deep.equal(['2026-12-24']);
    expect(await total('/api/v1/specimens?since=2000-01-01')).to.equal(46);
  });

  it('counts facets exactly, each with its own filter left out; the counts equal the filtered totals', async () => {
    for (const query of ['', '&q=pelican&lang=en', '&format=svg,animation&year=2025', '&source=github&kind=gallery']) {
      const { status, body } = await list(`/api/v1/specimens?facets=format,kind,year,source,model&limit=1${query}`);
      expect(status).to.equal(200);
      expect(validators.listResponse(body), JSON.stringify(validators.listResponse.errors)).to.equal(true);
      expect(Object.keys(body.facets ?? {})).to.deep.equal(['format', 'kind', 'year', 'source', 'model']);
      for (const [name, counts] of Object.entries(body.facets ?? {})) {
        const withoutOwn = new URLSearchParams(query.slice(1));
        withoutOwn.delete(name);
        let sum = 0;
        for (const [value, count] of Object.entries(counts)) {
          const alone = new URLSearchParams(withoutOwn);
          alone.set(name, name === 'model' ? `"${value}"` : value);
          expect(count, `${query} ${name}=${value}`).to.equal(await total(`/api/v1/specimens?${alone.toString()}`));
          sum += count;
        }
        expect(sum, `${query}: ${name} adds up`).to.equal(await total(`/api/v1/specimens?${withoutOwn.toString()}`));
      }
    }
    const timeline = await list('/api/v1/timeline?facets=kind,format');
    expect(timeline.body.facets?.kind).to.deep.equal({ timeline: timeline.body.total });
    expect((await problem('/api/v1/specimens?facets=colour')).body.errors.map((error) => error.parameter)).to.deep.equal(['facets']);
  });

  it('pages with next and Link: rel="next" to the end, with the same records as offsets', async () => {
    for (const query of ['', '&q=pelican&lang=en', '&format=svg,game&sort=oldest']) {
      const byOffset: string[] = [];
      for (let offset = 0; ; offset += 50) {
        const { body } = await list(`/api/v1/specimens?limit=50&offset=${offset}${query}`);
        byOffset.push(...body.items.map((item) => item.id));
        if (body.items.length < 50) break;
      }
      const walked: string[] = [];
      let path: string | undefined = `/api/v1/specimens?limit=7${query}`;
      let pages = 0;
      while (path) {
        const { status, headers, body } = await list(path);
        expect(status, path).to.equal(200);
        expect(body.offset).to.equal(walked.length);
        walked.push(...body.items.map((item) => item.id));
        const link = linkNext(headers.get('link'));
        if (body.next === null) expect(link).to.equal(undefined);
        else {
          expect(link).to.be.a('string');
          const next = new URL(link ?? '');
          expect(next.searchParams.get('cursor')).to.equal(body.next);
          expect(next.searchParams.get('limit')).to.equal('7');
          path = `${next.pathname}${next.search}`;
        }
        if (body.next === null) path = undefined;
        pages += 1;
      }
      expect(walked, query).to.deep.equal(byOffset);
      expect(pages).to.equal(Math.max(1, Math.ceil(byOffset.length / 7)));
    }
  });

  it('refuses a cursor of another query, a cursor with an offset, and anything it did not give out', async () => {
    const { body } = await list('/api/v1/specimens?q=pelican&lang=en&limit=2');
    const cursor = body.next ?? '';
    expect((await list(`/api/v1/specimens?q=pelican&lang=en&limit=5&cursor=${cursor}`)).status, 'the limit may change').to.equal(200);
    const other = await problem(`/api/v1/specimens?q=bicycle&lang=en&cursor=${cursor}`);
    expect(other.status).to.equal(400);
    expect(other.body.errors).to.deep.equal([{ parameter: 'cursor', message: 'belongs to another query: keep q, lang, sort and the filters of the page that gave it' }]);
    for (const offset of ['4', '0', '00']) {
      const withOffset = await problem(`/api/v1/specimens?q=pelican&lang=en&offset=${offset}&cursor=${cursor}`);
      expect(withOffset.status, `offset=${offset}`).to.equal(400);
      expect(withOffset.body.errors.map((error) => error.parameter), `offset=${offset}`).to.deep.equal(['offset']);
    }
    expect((await list(`/api/v1/specimens?q=pelican&lang=en&offset=&cursor=${cursor}`)).status, 'an empty offset is absent').to.equal(200);
    for (const forged of ['abc', Buffer.from('{"v":1}').toString('base64url'), '%%%', 'x'.repeat(2000)]) {
      const answer = await problem(`/api/v1/specimens?cursor=${encodeURIComponent(forged)}`);
      expect(answer.status, forged.slice(0, 20)).to.equal(400);
      expect(answer.body.errors.map((error) => error.parameter)).to.deep.equal(['cursor']);
    }
    const deep = await problem('/api/v1/specimens?offset=10001');
    expect(deep.body.detail).to.include('cursor');
  });

  it('refuses a cursor with any one bit changed, in relevance and in date order', async () => {
    for (const query of ['q=pelican&lang=en&limit=3', 'limit=3']) {
      const cursor = (await list(`/api/v1/specimens?${query}`)).body.next ?? '';
      expect((await list(`/api/v1/specimens?${query}&cursor=${cursor}`)).status, 'the cursor as given').to.equal(200);
      const bytes = Buffer.from(cursor, 'base64url');
      for (let at = 0; at < bytes.length; at += 1) {
        for (let bit = 0; bit < 8; bit += 1) {
          const altered = Buffer.from(bytes);
          altered[at] = (bytes[at] ?? 0) ^ (1 << bit);
          const answer = await problem(`/api/v1/specimens?${query}&cursor=${altered.toString('base64url')}`);
          expect(answer.status, `${query}: byte ${at}, bit ${bit}`).to.equal(400);
          expect(answer.body.errors.map((error) => error.parameter)).to.deep.equal(['cursor']);
        }
      }
    }
  });

  it('searches both languages and shows the asked one; splits mixed scripts; takes phrases, -words and OR', async () => {
    const chinese = await list(`/api/v1/specimens?q=${encodeURIComponent('鹈鹕')}&lang=en&limit=50`);
    expect(chinese.body.total).to.equal(await total(`/api/v1/specimens?q=${encodeURIComponent('鹈鹕')}&limit=50`));
    expect(chinese.body.items.every((item) => !/[\u4e00-\u9fff]/.test(item.title))).to.equal(true);
    const mixed = await total(`/api/v1/specimens?q=${encodeURIComponent('鹈鹕bicycle')}&lang=en`);
    expect(mixed).to.be.above(0);
    expect(mixed).to.equal(await total(`/api/v1/specimens?q=${encodeURIComponent('鹈鹕 bicycle')}&lang=en`));
    const pelicans = await total('/api/v1/specimens?q=pelican&lang=en');
    // Invisible characters typed or pasted into a word are read as record text is stored: without them.
    expect(await total('/api/v1/specimens?q=pel%C2%ADi%E2%80%8Bcan&lang=en')).to.equal(pelicans).and.be.above(0);
    const withoutBicycles = await total(`/api/v1/specimens?q=${encodeURIComponent('pelican -bicycle')}&lang=en`);
    const withBicycles = await total(`/api/v1/specimens?q=${encodeURIComponent('pelican bicycle')}&lang=en`);
    expect(withoutBicycles + withBicycles).to.equal(pelicans);
    const either = await total(`/api/v1/specimens?q=${encodeURIComponent('lighthouse OR pelican')}&lang=en`);
    expect(either).to.equal(pelicans + (await total('/api/v1/specimens?q=lighthouse&lang=en')) - (await total(`/api/v1/specimens?q=${encodeURIComponent('lighthouse pelican')}&lang=en`)));
    expect(await total(`/api/v1/specimens?q=${encodeURIComponent('"bicycle pelican"')}&lang=en`)).to.be.at.most(withBicycles);
    const tooMany = await problem(`/api/v1/specimens?q=${encodeURIComponent('a OR b c OR d e OR f g OR h i OR j')}`);
    expect(tooMany.body.errors.map((error) => error.parameter)).to.deep.equal(['q']);
  });
});

describe('a cursor walk over 30,000 records while records are published', function () {
  this.timeout(300_000);
  let server: TestServer;
  const COUNT = 30_000;
  before(async function () {
    server = await startTestServer();
    const records: CanonicalRecord[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      const day = new Date(Date.UTC(2019, 0, 1) + (i % 2000) * 86_400_000).toISOString().slice(0, 10);
      records.push(makeRecord({ date: day, format: i % 3 === 0 ? 'game' : 'svg', sourceUrl: `https://example.org/walk/${i}`, title: { zh: `作品 ${i}`, en: `Walk work ${i}` } }));
    }
    for (let i = 0; i < records.length; i += 5000) await server.backend.store.putRecords(records.slice(i, i + 5000));
    await server.backend.store.setCatalogUpdated('2026-11-20');
    await server.syncSearch();
  });
  after(async () => server.close());

  for (const [name, query] of [
    ['newest first', ''],
    ['oldest first, filtered', '&sort=oldest&format=svg,game'],
  ] as const) {
    it(`reaches the end past offset 10,000 with every id exactly once (${name})`, async () => {
      // Records present throughout the walk: the search index must hold them before it starts
      // (with Meilisearch, the previous walk's last publications may still be on their way).
      await server.syncSearch();
      const before: string[] = [];
      for await (const record of server.backend.store.streamRecords()) before.push(record.id);
      const seen: string[] = [];
      const published: string[] = [];
      let path: string | undefined = `/api/v1/specimens?limit=50&lang=en${query}`;
      for (let page = 0; path; page += 1) {
        const response = await server.get(path);
        expect(response.status, path).to.equal(200);
        const body = (await response.json()) as ListResponse;
        seen.push(...body.items.map((item) => item.id));
        path = linkNext(response.headers.get('link'))?.replace(server.baseUrl, '');
        if (page % 100 === 50) {
          // Published mid-walk: one sorting before the walk's position, one after it, one at the end.
          const fresh = [makeRecord({ date: '2027-01-01' }), makeRecord({ date: '2021-06-15' }), makeRecord({ date: '2018-01-01' })];
          await server.backend.store.putRecords(fresh);
          published.push(...fresh.map((record) => record.id));
        }
      }
      expect(seen.length).to.be.at.least(before.length);
      expect(new Set(seen).size, 'no record twice').to.equal(seen.length);
      const seenSet = new Set(seen);
      expect(before.filter((recordId) => !seenSet.has(recordId)), 'no record skipped').to.deep.equal([]);
      const known = new Set([...before, ...published]);
      expect(seen.filter((recordId) => !known.has(recordId))).to.deep.equal([]);
    });
  }
});
