import { expect } from 'chai';
import { request } from 'node:http';
import { generateSecret } from '../../src/auth/secrets.ts';
import sharp from 'sharp';
import { validators } from '../../src/validation/schemas.ts';
import { PROBLEM_TYPES } from '../../src/errors.ts';
import type { ListResponse } from '../../src/domain/specimens.ts';
import type { LocalizedRecord } from '../../src/domain/localize.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import { makeRecord } from '../helpers/factories.ts';
import { recordId } from '../../src/domain/ids.ts';
import type { TestServer } from '../helpers/server.ts';

describe('read API over HTTP (demo catalog)', function () {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ demo: true });
  });
  after(async () => server.close());

  const list = (path: string) => getJson<ListResponse>(server, path);

  describe('GET /api/v1/specimens', () => {
    it('lists records newest first in Chinese by default, in the documented shape', async () => {
      const { status, headers, body } = await list('/api/v1/specimens');
      expect(status).to.equal(200);
      expect(headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(validators.listResponse(body), JSON.stringify(validators.listResponse.errors)).to.equal(true);
      expect(body).to.include({ total: 44, offset: 0, limit: 20 });
      expect(body.items).to.have.length(20);
      expect(body.items[0]?.url).to.equal(`${server.baseUrl}/specimens/${body.items[0]?.id}/`);
      const dates = body.items.map((item) => item.date);
      expect(dates).to.deep.equal([...dates].sort().reverse());
      expect(body.items.every((item) => /^演示记录/.test(item.notes))).to.equal(true);
    });

    it('gives the same object in a list item and in the single-record endpoint, per language', async () => {
      for (const lang of ['zh', 'en']) {
        const { body } = await list(`/api/v1/specimens?lang=${lang}&limit=50`);
        for (const item of body.items) {
          const single = await getJson<LocalizedRecord>(server, `/api/v1/specimens/${item.id}?lang=${lang}`);
          expect(single.status).to.equal(200);
          expect(single.body).to.deep.equal(item);
        }
      }
    });

    it('searches an exact word, a word with one typo, a prefix and a Chinese 2-character substring', async () => {
      const exact = await list('/api/v1/specimens?q=pelican&lang=en&limit=50');
      expect(exact.body.total).to.be.at.least(5);
      expect(exact.body.items.every((item) => /pelican/i.test(`${item.title} ${item.notes} ${item.prompt ?? ''}`))).to.equal(true);
      expect((await list('/api/v1/specimens?q=pelcian&lang=en&limit=50')).body.total).to.equal(exact.body.total);
      expect((await list('/api/v1/specimens?q=pelic&lang=en&limit=50')).body.total).to.be.at.least(exact.body.total);
      const chinese = await list(`/api/v1/specimens?q=${encodeURIComponent('鹈鹕')}&limit=50`);
      expect(chinese.body.total).to.be.at.least(5);
      expect(chinese.body.items.every((item) => `${item.title}${item.notes}${item.prompt ?? ''}`.includes('鹈鹕'))).to.equal(true);
      const none = await list(`/api/v1/specimens?q=${encodeURIComponent('zzqx')}`);
      expect(none.body).to.deep.equal({ total: 0, offset: 0, limit: 20, items: [], next: null });
    });

    it('applies filters with AND, with totals that add up across formats and kinds', async () => {
      let formats = 0;
      for (const format of ['svg', 'animation', '3d', 'game', 'video']) {
        const { body } = await list(`/api/v1/specimens?format=${format}&limit=50`);
        expect(body.items.every((item) => item.format === format)).to.equal(true);
        formats += body.total;
      }
      expect(formats).to.equal(44);
      const gallery = (await list('/api/v1/specimens?kind=gallery')).body.total;
      const timeline = (await list('/api/v1/specimens?kind=timeline')).body.total;
      expect(gallery + timeline).to.equal(44);
      const combined = await list('/api/v1/specimens?format=svg&year=2025&limit=50');
      expect(combined.body.items.every((item) => item.format === 'svg' && item.year === '2025')).to.equal(true);
      const bySource = await list('/api/v1/specimens?source=github&limit=50');
      expect(bySource.body.total).to.be.above(0);
      expect(bySource.body.items.every((item) => item.source === 'github')).to.equal(true);
    });

    it('pages never overlap and cover every match', async () => {
      for (const query of ['', '&q=pelican&lang=en', '&format=svg']) {
        const seen: string[] = [];
        let total = 0;
        for (let offset = 0; offset < 60; offset += 7) {
          const { body } = await list(`/api/v1/specimens?limit=7&offset=${offset}${query}`);
          total = body.total;
          seen.push(...body.items.map((item) => item.id));
        }
        expect(seen).to.have.length(total);
        expect(new Set(seen).size).to.equal(total);
      }
    });

    it('answers an offset past the total with the exact total and no items', async () => {
      const { status, body } = await list('/api/v1/specimens?offset=5000&limit=5');
      expect(status).to.equal(200);
      expect(body).to.deep.equal({ total: 44, offset: 5000, limit: 5, items: [], next: null });
    });

    it('treats empty parameters, as a plain HTML form sends them, as absent', async () => {
      const { status, body } = await list('/api/v1/specimens?q=&format=&kind=&year=&source=&lang=en');
      expect(status).to.equal(200);
      expect(body.total).to.equal(44);
    });
  });

  describe('invalid parameters', () => {
    const cases: [string, string][] = [
      ['limit=0', 'limit'],
      ['limit=51', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=10001', 'offset'],
      ['offset=x', 'offset'],
      [`q=${'a'.repeat(201)}`, 'q'],
      ['lang=fr', 'lang'],
      ['format=png', 'format'],
      ['kind=other', 'kind'],
      ['year=20x5', 'year'],
      ['year=202', 'year'],
      ['source=myspace', 'source'],
      ['sort=random', 'sort'],
      ['page=2', 'page'],
      ['lang=en&lang=zh', 'lang'],
    ];
    for (const [query, parameter] of cases) {
      it(`refuses ${query.slice(0, 30)} with a 400 naming ${parameter}`, async () => {
        for (const path of ['/api/v1/specimens', '/api/v1/timeline']) {
          const { status, headers, body } = await getJson<{ errors: { parameter: string }[]; status: number; detail: string }>(server, `${path}?${query}`);
          expect(status).to.equal(400);
          expect(headers.get('content-type')).to.match(/^application\/problem\+json/);
          expect(validators.problem(body)).to.equal(true);
          expect(body.status).to.equal(400);
          expect(body.errors.map((error) => error.parameter)).to.deep.equal([parameter]);
        }
      });
    }

    it('refuses q holding too many words, in phrases or in all, or too long as searched, and says why', async () => {
      const refusals: [string, RegExp][] = [
        [Array(33).fill('a').join('-'), /^holds more than 32 words in phrases, quoted or joined by punctuation like a-b-c \(it holds 33\)$/],
        [`"${Array(33).fill('cat').join(' ')}"`, /more than 32 words in phrases/],
        [`pelican -"${Array(20).fill('a').join(' ')}" -${Array(13).fill('of').join('-')}`, /more than 32 words in phrases.*\(it holds 33\)$/],
        [Array(65).fill('a').join(' '), /^holds more than 64 words \(it holds 65; a run of Chinese characters counts as one\)$/],
        // 51 characters as written, 204 as searched (NFKC): ㍿ is 株式会社.
        ['㍿'.repeat(51), /^must be at most 200 characters long as searched, in Unicode normal form NFKC \(it is 204/],
      ];
      for (const [q, message] of refusals) {
        const { status, body } = await getJson<{ errors: { parameter: string; message: string }[] }>(server, `/api/v1/specimens?q=${encodeURIComponent(q)}`);
        expect(status, q).to.equal(400);
        expect(body.errors.map((error) => error.parameter), q).to.include('q');
        expect(body.errors.find((error) => error.message.match(message)), `${q}: ${JSON.stringify(body.errors)}`).to.not.equal(undefined);
      }
      // At the bounds: 32 words in phrases, 64 in all, 200 characters as searched.
      for (const q of [Array(32).fill('a').join('-'), `${Array(32).fill('a').join('-')} ${Array(32).fill('b').join(' ')}`, '㍿'.repeat(50), '鹈鹕'.repeat(100)]) {
        expect((await getJson(server, `/api/v1/specimens?q=${encodeURIComponent(q)}`)).status, q).to.equal(200);
      }
    });

    it('gives a parameter that breaks several rules one entry, its messages joined in order', async () => {
      // 67 × ⒜: 201 characters as searched, 67 words, all of them in phrases.
      const { status, body } = await getJson<{ detail: string; errors: { parameter: string; message: string }[] }>(server, `/api/v1/specimens?q=${encodeURIComponent('⒜'.repeat(67))}&sort=random`);
      expect(status).to.equal(400);
      expect(body.detail).to.equal('Invalid parameters: sort, q.');
      expect(body.errors.map((error) => error.parameter)).to.deep.equal(['sort', 'q']);
      expect(body.errors[1]?.message).to.equal(
        [
          'must be at most 200 characters long as searched, in Unicode normal form NFKC (it is 201: a character such as ⒜ or ㍿ stands for several)',
          'holds more than 64 words (it holds 67; a run of Chinese characters counts as one)',
          'holds more than 32 words in phrases, quoted or joined by punctuation like a-b-c (it holds 67)',
        ].join('; also '),
      );
    });

    it('names every bad parameter at once', async () => {
      const { body } = await getJson<{ errors: { parameter: string }[] }>(server, '/api/v1/specimens?limit=0&offset=-2&lang=fr&colour=red');
      expect(body.errors.map((error) => error.parameter).sort()).to.deep.equal(['colour', 'lang', 'limit', 'offset']);
    });

    it('tells a number of many digits the values allowed, not that it is no integer', async () => {
      const { body } = await getJson<{ errors: { parameter: string; message: string }[] }>(server, '/api/v1/specimens?limit=99999999999999999999999&offset=123456789012345678901234567890');
      expect(body.errors).to.deep.equal([
        { parameter: 'limit', message: 'must be <= 50' },
        { parameter: 'offset', message: 'must be <= 10000' },
      ]);
    });

    it('points deep readers to the bulk exports', async () => {
      const { body } = await getJson<{ detail: string }>(server, '/api/v1/specimens?offset=20000');
      expect(body.detail).to.include('/en/data/catalog.json');
    });

    it('refuses kind=gallery on the timeline', async () => {
      const { status } = await getJson(server, '/api/v1/timeline?kind=gallery');
      expect(status).to.equal(400);
      expect((await getJson(server, '/api/v1/timeline?kind=timeline')).status).to.equal(200);
    });
  });

  describe('GET /api/v1/specimens/{id}', () => {
    it('answers 404 problem+json for an unknown id, also for ids that cannot exist', async () => {
      for (const id of ['svg-nothing-00000000', 'Bad%20Id', '..%2F..%2Fetc', 'a'.repeat(129)]) {
        const { status, headers, body } = await getJson<{ status: number }>(server, `/api/v1/specimens/${id}`);
        expect(status).to.equal(404);
        expect(headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(body.status).to.equal(404);
      }
    });

    it('answers 400 for an invalid language and for unknown parameters', async () => {
      const { body: first } = await list('/api/v1/specimens?limit=1');
      const id = first.items[0]?.id ?? '';
      const invalidLang = await getJson<{ errors: { parameter: string }[] }>(server, `/api/v1/specimens/${id}?lang=de`);
      expect(invalidLang.status).to.equal(400);
      expect(invalidLang.body.errors.map((error) => error.parameter)).to.deep.equal(['lang']);
      expect((await getJson(server, `/api/v1/specimens/${id}?limit=3`)).status).to.equal(400);
      const other = first.items[0]?.id === 'game-gpt-4-44f3ac70' ? 'svg-gpt-4-8d5be076' : 'game-gpt-4-44f3ac70';
      const idInQuery = await getJson<{ errors: { parameter: string; message: string }[] }>(server, `/api/v1/specimens/${id}?id=${other}&lang=en`);
      expect(idInQuery.status, 'the id is in the path, not the query').to.equal(400);
      expect(idInQuery.body.errors).to.deep.equal([{ parameter: 'id', message: 'is not a known parameter; known: lang' }]);
      const aliases = await getJson<{ errors: { parameter: string; message: string }[] }>(server, '/api/v1/specimens?query=pelican&max_results=5&language=en');
      expect(aliases.status).to.equal(400);
      expect(aliases.body.errors.map((error) => error.message.replace(/; known: .*/, '; known: …')), 'the known parameters listed once, with the first').to.deep.equal([
        'is not a known parameter (did you mean q?); known: …',
        'is not a known parameter (did you mean limit?)',
        'is not a known parameter (did you mean lang?)',
      ]);
      for (const path of [`/api/v1/specimens/${id}?__proto__=1`, '/api/v1/specimens?__proto__=x', '/api/v1/timeline?__proto__=x']) {
        const unknown = await getJson<{ errors: { parameter: string }[] }>(server, path);
        expect(unknown.status, path).to.equal(400);
        expect(unknown.body.errors.map((error) => error.parameter), path).to.deep.equal(['__proto__']);
      }
    });
  });

  describe('GET /api/v1/timeline', () => {
    it('returns timeline records only, oldest first', async () => {
      const { status, body } = await list('/api/v1/timeline?limit=50&lang=en');
      expect(status).to.equal(200);
      expect(body.total).to.be.above(0);
      expect(body.items.every((item) => item.kind === 'timeline')).to.equal(true);
      const keys = body.items.map((item) => `${item.date} ${item.id}`);
      expect(keys).to.deep.equal([...keys].sort());
      expect(body.total).to.equal((await list('/api/v1/specimens?kind=timeline')).body.total);
    });
  });

  describe('HTTP behaviour', () => {
    it('refuses other methods with 405 and Allow', async () => {
      for (const path of ['/api/v1/specimens', '/api/v1/timeline', '/api/v1/specimens/anything', '/healthz']) {
        for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
          const response = await server.get(path, { method });
          expect(response.status, `${method} ${path}`).to.equal(405);
          expect(response.headers.get('allow')).to.equal('GET, HEAD, OPTIONS');
          expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
        }
      }
    });

    it('answers HEAD with the headers of GET and no body', async () => {
      const get = await server.get('/api/v1/specimens?limit=3');
      const head = await server.get('/api/v1/specimens?limit=3', { method: 'HEAD' });
      expect(head.status).to.equal(200);
      expect(head.headers.get('etag')).to.equal(get.headers.get('etag'));
      expect(await head.text()).to.equal('');
      // Content coding too: a body GET would send compressed is announced so on HEAD.
      for (const coding of ['gzip', 'br', 'identity']) {
        const [full, headers] = await Promise.all(['GET', 'HEAD'].map((method) => server.get('/api/v1/specimens?limit=20', { method, headers: { 'Accept-Encoding': coding } })));
        for (const field of ['content-encoding', 'content-length', 'vary', 'etag']) expect(headers?.headers.get(field), `${coding} ${field}`).to.equal(full?.headers.get(field) ?? null);
      }
    });

    it('answers OPTIONS and CORS preflights', async () => {
      const preflight = await server.get('/api/v1/specimens', { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' } });
      expect(preflight.status).to.equal(204);
      expect(preflight.headers.get('allow')).to.equal('GET, HEAD, OPTIONS');
      expect(preflight.headers.get('access-control-allow-origin')).to.equal('*');
      expect(preflight.headers.get('access-control-allow-methods')).to.include('GET');
      const get = await server.get('/api/v1/specimens', { headers: { Origin: 'https://elsewhere.example' } });
      expect(get.headers.get('access-control-allow-origin')).to.equal('*');
    });

    it('answers OPTIONS * with the methods of the server as a whole', async () => {
      const { port } = new URL(server.baseUrl);
      const answer = await new Promise<{ status: number | undefined; allow: string | undefined }>((resolve, reject) => {
        const asked = request({ host: '127.0.0.1', port, method: 'OPTIONS', path: '*' }, (response) => {
          response.resume();
          resolve({ status: response.statusCode, allow: response.headers.allow });
        });
        asked.on('error', reject);
        asked.end();
      });
      expect(answer).to.deep.equal({ status: 204, allow: 'GET, HEAD, POST, OPTIONS' });
    });

    it('sends ETag and Cache-Control, and 304 for a matching If-None-Match', async () => {
      const first = await server.get('/api/v1/specimens?lang=en&limit=5');
      const etag = first.headers.get('etag') ?? '';
      expect(etag).to.match(/^W\/"[\w-]+"$/);
      expect(first.headers.get('cache-control')).to.equal('public, max-age=60');
      const again = await server.get('/api/v1/specimens?lang=en&limit=5', { headers: { 'If-None-Match': etag } });
      expect(again.status).to.equal(304);
      expect(await again.text()).to.equal('');
      const other = await server.get('/api/v1/specimens?lang=zh&limit=5', { headers: { 'If-None-Match': etag } });
      expect(other.status).to.equal(200);
    });

    it('changes the ETag when the catalog changes', async () => {
      const before = (await server.get('/api/v1/specimens?limit=1')).headers.get('etag');
      const { body } = await list('/api/v1/specimens?limit=1');
      const record = await server.backend.store.getRecord(body.items[0]?.id ?? '');
      if (!record) throw new Error('record missing');
      const { seq: _seq, ...canonical } = record;
      await server.backend.store.putRecords([{ ...canonical, title: { ...canonical.title, zh: `${canonical.title.zh}（修订）` } }]);
      const after = await list('/api/v1/specimens?limit=1');
      expect(after.headers.get('etag')).to.not.equal(before);
      expect(after.body.items[0]?.title).to.match(/（修订）$/);
    });

    it('tags a body alike in every content coding, with a weak tag, and compares If-None-Match weakly', async () => {
      const path = '/api/v1/specimens?limit=50&lang=en';
      const tags = [];
      for (const coding of ['gzip', 'br', 'identity']) {
        const response = await server.get(path, { headers: { 'Accept-Encoding': coding } });
        expect(response.headers.get('content-encoding'), coding).to.equal(coding === 'identity' ? null : coding);
        tags.push(response.headers.get('etag'));
      }
      expect(new Set(tags).size).to.equal(1);
      const etag = tags[0] ?? '';
      expect(etag).to.match(/^W\/"[\w-]+"$/);
      for (const held of [etag, etag.slice(2), `"other", ${etag}`]) {
        const revalidated = await server.get(path, { headers: { 'If-None-Match': held, 'Accept-Encoding': 'gzip' } });
        expect(revalidated.status, held).to.equal(304);
        expect(revalidated.headers.get('etag'), held).to.equal(etag);
      }
    });

    it('compresses large bodies for clients that accept it', async () => {
      const response = await server.get('/api/v1/specimens?limit=50', { headers: { 'Accept-Encoding': 'gzip' } });
      expect(response.headers.get('content-encoding')).to.equal('gzip');
      expect(((await response.json()) as { total: number }).total).to.equal(44);
    });

    it('sends large bodies uncompressed when the client refuses every coding, identity included', async () => {
      for (const acceptEncoding of ['identity;q=0', '*;q=0', 'gzip;q=0, br;q=0, *;q=0']) {
        const response = await server.get('/api/v1/specimens?limit=50', { headers: { 'Accept-Encoding': acceptEncoding } });
        expect(response.status, acceptEncoding).to.equal(200);
        expect(response.headers.get('content-encoding'), acceptEncoding).to.equal(null);
        expect(((await response.json()) as { total: number }).total).to.equal(44);
      }
    });

    it('answers unknown paths with a 404 problem', async () => {
      const { status, body } = await getJson<{ type: string }>(server, '/api/v2/nothing');
      expect(status).to.equal(404);
      expect(body.type).to.equal(`${server.baseUrl}/problems/not-found`);
    });

    it('reports health and readiness', async () => {
      expect((await getJson(server, '/healthz')).body).to.deep.equal({ status: 'ok' });
      const ready = await getJson<{ status: string; catalog: { total: number } }>(server, '/readyz');
      expect(ready.status).to.equal(200);
      expect(ready.body.status).to.equal('ready');
      expect(ready.body.catalog.total).to.equal(44);
    });

    it('serves stored previews and thumbnails that decode as images', async () => {
      const { body } = await list('/api/v1/specimens?limit=50&lang=en');
      const withMedia = body.items.find((item) => item.media.length > 0);
      if (!withMedia?.thumbnail) throw new Error('no record with media');
      for (const url of [withMedia.media[0]?.url ?? '', withMedia.thumbnail]) {
        const response = await fetch(url);
        expect(response.status).to.equal(200);
        const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
        expect(metadata.width).to.be.above(31);
        const etag = response.headers.get('etag') ?? '';
        for (const held of [etag, `W/${etag}`]) expect((await fetch(url, { headers: { 'If-None-Match': held } })).status, held).to.equal(304);
      }
      expect((await server.get('/media/../archive.sqlite')).status).to.equal(404);
      expect((await server.get('/media/ab/nothing.png')).status).to.equal(404);
    });

    it('answers HEAD of a media file as GET, and serves one byte range of it', async () => {
      const { body } = await list('/api/v1/specimens?limit=50&lang=en');
      const url = body.items.find((item) => item.media.length > 0)?.media[0]?.url ?? '';
      const whole = await fetch(url);
      const bytes = Buffer.from(await whole.arrayBuffer());
      const head = await fetch(url, { method: 'HEAD' });
      expect(head.status).to.equal(200);
      for (const name of ['content-type', 'content-length', 'etag', 'cache-control', 'accept-ranges']) expect(head.headers.get(name), name).to.equal(whole.headers.get(name));
      expect(whole.headers.get('accept-ranges')).to.equal('bytes');
      // Opened on its own, a stored preview runs nothing and reaches nothing, whatever it holds.
      expect(whole.headers.get('content-security-policy')).to.equal("default-src 'none'; sandbox");
      const part = async (range: string, init: RequestInit = {}) => {
        const response = await fetch(url, { ...init, headers: { Range: range, ...(init.headers as Record<string, string> | undefined) } });
        return { status: response.status, contentRange: response.headers.get('content-range'), bytes: Buffer.from(await response.arrayBuffer()) };
      };
      expect(await part('bytes=0-9')).to.deep.equal({ status: 206, contentRange: `bytes 0-9/${bytes.length}`, bytes: bytes.subarray(0, 10) });
      expect(await part('bytes=-5')).to.deep.equal({ status: 206, contentRange: `bytes ${bytes.length - 5}-${bytes.length - 1}/${bytes.length}`, bytes: bytes.subarray(-5) });
      expect(await part(`bytes=${bytes.length - 3}-`)).to.deep.include({ status: 206, bytes: bytes.subarray(-3) });
      // Several ranges, or a version the client no longer holds: the whole file.
      expect(await part('bytes=0-1,4-5')).to.deep.include({ status: 200, contentRange: null, bytes });
      expect(await part('bytes=0-9', { headers: { 'If-Range': '"another-version"' } })).to.deep.include({ status: 200, bytes });
      expect(await part('bytes=0-9', { headers: { 'If-Range': whole.headers.get('etag') ?? '' } })).to.deep.include({ status: 206 });
      const past = await fetch(url, { headers: { Range: `bytes=${bytes.length}-` } });
      expect(past.status).to.equal(416);
      expect(past.headers.get('content-range')).to.equal(`bytes */${bytes.length}`);
      expect(((await past.json()) as { type: string }).type).to.equal(`${server.baseUrl}/problems/range-not-satisfiable`);
    });

    it('answers a read whose If-Match names no version of it 412, comparing strongly: a media file by its tag, any other answer only to *', async () => {
      const { body } = await list('/api/v1/specimens?limit=50&lang=en');
      const url = body.items.find((item) => item.media.length > 0)?.media[0]?.url ?? '';
      const etag = (await fetch(url)).headers.get('etag') ?? '';
      expect(etag).to.match(/^"/);
      const status = async (address: string, ifMatch: string, init: RequestInit = {}) => (await fetch(address, { ...init, headers: { 'If-Match': ifMatch, ...(init.headers as Record<string, string> | undefined) } })).status;
      expect(await status(url, etag)).to.equal(200);
      expect(await status(url, `"other", ${etag}`)).to.equal(200);
      expect(await status(url, '*')).to.equal(200);
      expect(await status(url, etag, { headers: { Range: 'bytes=0-9' } })).to.equal(206);
      expect(await status(url, `W/${etag}`), 'a weak tag never matches strongly').to.equal(412);
      const refused = await fetch(url, { headers: { 'If-Match': '"another-version"', Range: 'bytes=0-9' } });
      expect(refused.status).to.equal(412);
      expect(refused.headers.get('content-type')).to.equal('application/problem+json');
      expect(refused.headers.get('content-range')).to.equal(null);
      expect(refused.headers.get('etag')).to.equal(null);
      expect(((await refused.json()) as { type: string }).type).to.equal(`${server.baseUrl}/problems/precondition-failed`);
      // The API's tags are weak: its own tag does not pass If-Match, * does; If-None-Match's 304 gives way to the 412.
      const page = `${server.baseUrl}/api/v1/specimens?lang=en&limit=3`;
      const weak = (await fetch(page)).headers.get('etag') ?? '';
      expect(await status(page, weak)).to.equal(412);
      expect(await status(page, weak, { headers: { 'If-None-Match': weak } })).to.equal(412);
      expect(await status(page, '*')).to.equal(200);
      expect(await status(page, '*', { method: 'HEAD' })).to.equal(200);
      // Another status than 2xx or 304 stands: the precondition is about a representation there is none of.
      expect(await status(`${server.baseUrl}/api/v1/specimens/svg-unknown-00000000`, '"x"')).to.equal(404);
      expect(await status(`${server.baseUrl}/api/v1/specimens?limit=0`, '"x"')).to.equal(400);
    });

    it('writes one JSON log line per request, without headers', async () => {
      const before = server.logs.filter((entry) => entry.msg === 'request').length;
      await server.get('/api/v1/specimens?limit=1', { headers: { Authorization: 'Bearer secret-token-value' } });
      await server.get('/healthz');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const requests = server.logs.filter((entry) => entry.msg === 'request');
      expect(requests.length - before).to.equal(2);
      expect(requests.at(-2)).to.include({ method: 'GET', path: '/api/v1/specimens', status: 200 });
      expect(JSON.stringify(server.logs)).to.not.include('secret-token-value');
    });

    it('logs a token a client put in the query string or the path as mwa_… alone', async () => {
      const secret = generateSecret();
      await server.get(`/api/v1/ingest?access_token=${secret}&limit=2`);
      await server.get(`/api/v1/specimens?q=${encodeURIComponent(secret)}`);
      await server.get(`/api/v1/ingest/${secret}`, { method: 'POST' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const logged = JSON.stringify(server.logs);
      expect(logged).to.not.include(secret.slice(4, 20));
      expect(server.logs.filter((entry) => entry.msg === 'request').map((entry) => entry.query)).to.include.members(['access_token=mwa_…&limit=2', 'q=mwa_…']);
      expect(server.logs.filter((entry) => entry.msg === 'request').map((entry) => entry.path)).to.include('/api/v1/ingest/mwa_…');
    });
  });

  describe('problem types', () => {
    it('documents every problem type at the address a problem body names as its type', async () => {
      const bad = await server.get('/api/v1/specimens?limit=0');
      const { type } = (await bad.json()) as { type: string };
      expect(type).to.equal(`${server.baseUrl}/problems/invalid-parameters`);
      const page = await fetch(type);
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.equal('text/markdown; charset=utf-8');
      const text = await page.text();
      expect(text).to.match(/^# Invalid parameters\n/).and.include('HTTP status 400').and.include('`errors`');
      for (const name of Object.keys(PROBLEM_TYPES)) expect((await server.get(`/problems/${name}`)).status, name).to.equal(200);
      const unknown = await server.get('/problems/unheard-of');
      expect(unknown.status).to.equal(404);
      expect(unknown.headers.get('content-type')).to.equal('application/problem+json');
    });
  });
});

describe('GET /api/v1/specimens?sourceUrl= (a work by its address)', function () {
  let server: TestServer;
  const gallery = makeRecord({ sourceUrl: 'https://reddit.com/r/LocalLLaMA/comments/1eg3dm0/demo_tandem_pelicans', model: 'Twin-Model', date: '2024-07-30' });
  const timeline = { ...gallery, id: recordId({ canonicalSourceUrl: gallery.sourceUrl, kind: 'timeline', format: gallery.format, model: gallery.model }), kind: 'timeline' as const };
  const video = makeRecord({ sourceUrl: 'https://youtube.com/watch?v=demoFlight2', format: 'video' });
  before(async () => {
    server = await startTestServer({ records: [gallery, timeline, video, makeRecord(), makeRecord()] });
  });
  after(async () => server.close());
  const list = (path: string) => getJson<ListResponse>(server, path);

  it("finds a work's records by its address at the source in any form its platform writes, and refuses what a work's list cannot take beside it", async () => {
    const variant = encodeURIComponent('https://old.reddit.com/r/localllama/comments/1eg3dm0/?share_id=AbC123&utm_source=x');
    const found = await list(`/api/v1/specimens?sourceUrl=${variant}&lang=en`);
    expect(found.status).to.equal(200);
    expect(validators.listResponse(found.body), JSON.stringify(validators.listResponse.errors)).to.equal(true);
    expect(found.body).to.include({ total: 2, offset: 0, limit: 20, next: null });
    expect(found.body.items.map((item) => [item.id, item.kind])).to.deep.equal([[gallery.id, 'gallery'], [timeline.id, 'timeline']]);
    expect((await list(`/api/v1/specimens?sourceUrl=${variant}&kind=gallery`)).body.total).to.equal(1);
    expect((await list(`/api/v1/specimens?sourceUrl=${variant}&offset=1&limit=1`)).body.items.map((item) => item.id)).to.deep.equal([timeline.id]);
    expect((await list(`/api/v1/timeline?sourceUrl=${variant}`)).body.items.map((item) => item.id)).to.deep.equal([timeline.id]);
    expect((await list(`/api/v1/specimens?sourceUrl=${encodeURIComponent('https://youtube.com/shorts/demoFlight2')}`)).body.items.map((item) => item.id)).to.deep.equal([video.id]);
    // Copied without its scheme, as a browser's address bar shows it.
    expect((await list(`/api/v1/specimens?sourceUrl=${encodeURIComponent('www.youtube.com/shorts/demoFlight2')}`)).body.items.map((item) => item.id)).to.deep.equal([video.id]);
    for (const nothing of ['https://x.com/nobody/status/1', 'not an address']) expect((await list(`/api/v1/specimens?sourceUrl=${encodeURIComponent(nothing)}`)).body).to.include({ total: 0 });

    const refused = await server.get(`/api/v1/specimens?sourceUrl=${variant}&q=pelican&format=svg&facets=model`);
    expect(refused.status).to.equal(400);
    const problem = (await refused.json()) as { errors: { parameter: string; message: string }[] };
    expect(problem.errors.map((error) => error.parameter)).to.deep.equal(['q', 'format', 'facets']);
    expect(problem.errors[0]?.message).to.match(/^cannot be combined with sourceUrl/);
    expect((await server.get(`/?sourceUrl=${variant}`)).status, 'the website does not take it').to.equal(400);
  });
});
