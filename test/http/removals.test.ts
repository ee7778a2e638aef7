import { expect } from 'chai';
import { planPublication } from '../../src/domain/ingest/timeline.ts';
import { withdrawRecords } from '../../src/domain/withdrawal.ts';
import type { RemovalList } from '../../src/domain/removals.ts';
import { validators } from '../../src/validation/schemas.ts';
import { makeRecord } from '../helpers/factories.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

/** The UTC day of an instant, YYYY-MM-DD. */
const dayOf = (time: number): string => new Date(time).toISOString().slice(0, 10);

interface Problem {
  type: string;
  errors?: { parameter: string; message: string }[];
}

describe('GET /api/v1/removals (the ids withdrawn or moved since a day)', function () {
  this.timeout(60_000);
  const model = 'Removals-Model';
  // The model's first archived work, with its timeline record as the publisher writes it; an earlier work published later takes the timeline over.
  const later = makeRecord({ model, date: '2025-06-01', submissionId: 'sub_removals_later' });
  const earlier = makeRecord({ model, date: '2025-01-01', submissionId: 'sub_removals_earlier' });
  const [laterGallery, laterTimeline] = planPublication(later, []).put;
  const takenDown = makeRecord({ model: 'Other-Model', title: { zh: '撤下', en: 'Taken down' } });
  const kept = makeRecord();
  let server: TestServer;
  let today: string;
  let tomorrow: string;

  before(async () => {
    server = await startTestServer({ records: [...planPublication(later, []).put, takenDown, kept] });
    const { store } = server.backend;
    // Moved: the later work's timeline record gives way to the earlier work's (as the publisher decides it).
    await store.changeModelRecords(model, (ofModel) => planPublication(earlier, ofModel));
    // Apart in time, so the list's order (the instant, then the id) is the order they happened in.
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Withdrawn: the command `npm run withdraw` runs.
    const result = await withdrawRecords(store, { ids: [takenDown.id], reason: 'The author asked for it to be taken down.', wholeWork: true, followMoves: false });
    expect(result.kind).to.equal('withdrawn');
    // The days the two removals were stamped with (a run may cross midnight UTC between them).
    const stamped = await Promise.all([laterTimeline?.id ?? '', takenDown.id].map(async (id) => (await store.recordFate(id))?.at ?? ''));
    today = stamped.map((at) => at.slice(0, 10)).sort()[0] ?? '';
    tomorrow = dayOf(Date.parse(stamped.map((at) => at.slice(0, 10)).sort().at(-1) ?? '') + 86_400_000);
  });
  after(async () => server.close());

  it('lists the moved and the withdrawn id since the day they went away, each answering 301 or 410, and neither since the day after', async () => {
    const { status, headers, body } = await getJson<RemovalList>(server, `/api/v1/removals?since=${today}`);
    expect(status).to.equal(200);
    expect(headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(validators.removalList(body), JSON.stringify(validators.removalList.errors)).to.equal(true);
    expect(body).to.include({ total: 2, limit: 100, next: null });
    expect(body.items.map(({ id, fate, movedTo, reason }) => ({ id, fate, movedTo, reason }))).to.deep.equal([
      { id: laterTimeline?.id, fate: 'moved', movedTo: laterGallery?.id, reason: (await server.backend.store.recordFate(laterTimeline?.id ?? ''))?.reason },
      { id: takenDown.id, fate: 'withdrawn', movedTo: undefined, reason: 'The author asked for it to be taken down.' },
    ]);
    expect(body.items.every((item) => item.at >= today && item.at < tomorrow)).to.equal(true);
    expect((await server.get(`/api/v1/specimens/${laterTimeline?.id}`, { redirect: 'manual' })).status).to.equal(301);
    expect((await server.get(`/api/v1/specimens/${takenDown.id}`)).status).to.equal(410);

    const dayAfter = await getJson<RemovalList>(server, `/api/v1/removals?since=${tomorrow}`);
    expect(dayAfter.status).to.equal(200);
    expect(dayAfter.body).to.deep.equal({ total: 0, limit: 100, items: [], next: null });
  });

  it('pages by cursor to the end, the next page in the body and in Link, every id once', async () => {
    const first = await getJson<RemovalList>(server, `/api/v1/removals?since=${today}&limit=1`);
    expect(first.body.items).to.have.length(1);
    expect(first.body.next).to.be.a('string');
    const link = `<${server.baseUrl}/api/v1/removals?since=${today}&limit=1&cursor=${first.body.next}>; rel="next"`;
    expect(first.headers.get('link')).to.equal(link);
    const second = await getJson<RemovalList>(server, `/api/v1/removals?since=${today}&limit=1&cursor=${first.body.next}`);
    expect(second.body).to.include({ total: 2, next: null });
    expect(second.headers.get('link')).to.equal(null);
    expect([...first.body.items, ...second.body.items].map((item) => item.id)).to.deep.equal([laterTimeline?.id, takenDown.id]);
  });

  it('answers with ETag, 304, Cache-Control and open CORS like every read, and a new removal shows at once', async () => {
    const path = `/api/v1/removals?since=${today}`;
    const first = await server.get(path);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).to.match(/^W\/"/);
    expect(first.headers.get('cache-control')).to.equal('public, max-age=60');
    expect(first.headers.get('access-control-allow-origin')).to.equal('*');
    expect((await server.get(path, { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    await withdrawRecords(server.backend.store, { ids: [kept.id], reason: 'Withdrawn after the first read.', wholeWork: true, followMoves: false });
    const after = await server.get(path, { headers: { 'If-None-Match': etag } });
    expect(after.status).to.equal(200);
    expect(((await after.json()) as RemovalList).items.map((item) => item.id)).to.include(kept.id);
    expect((await server.get(path, { method: 'POST' })).headers.get('allow')).to.equal('GET, HEAD, OPTIONS');
  });

  it('refuses, naming each bad parameter: a missing since, a day that does not exist, a limit out of range, an unknown parameter', async () => {
    const missing = await getJson<Problem>(server, '/api/v1/removals');
    expect(missing.status).to.equal(400);
    expect(missing.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(missing.body.type).to.equal(`${server.baseUrl}/problems/invalid-parameters`);
    expect(missing.body.errors).to.deep.equal([{ parameter: 'since', message: 'is required' }]);
    const several = await getJson<Problem>(server, '/api/v1/removals?since=2026-02-30&limit=0&lang=en');
    expect(several.status).to.equal(400);
    expect(several.body.errors?.map((error) => error.parameter).sort()).to.deep.equal(['lang', 'limit', 'since']);
    expect(several.body.errors?.find((error) => error.parameter === 'since')?.message).to.equal('must be a date on a day that exists (2026-02-30 is written YYYY-MM-DD, but there is no such day), e.g. 2025-05-01');
    expect((await getJson<Problem>(server, '/api/v1/removals?since=2026-2-3')).body.errors).to.deep.equal([{ parameter: 'since', message: 'must be a date written YYYY-MM-DD, e.g. 2025-05-01' }]);
    const repeated = await getJson<Problem>(server, `/api/v1/removals?since=${today}&since=${tomorrow}`);
    expect(repeated.body.errors?.map((error) => error.parameter)).to.deep.equal(['since']);
  });

  it('refuses a cursor that was altered or belongs to another since, naming cursor', async () => {
    const { body } = await getJson<RemovalList>(server, `/api/v1/removals?since=${today}&limit=1`);
    const cursor = body.next ?? '';
    const altered = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    for (const path of [`/api/v1/removals?since=${today}&cursor=${altered}`, `/api/v1/removals?since=2015-01-01&cursor=${cursor}`]) {
      const refused = await getJson<Problem>(server, path);
      expect(refused.status, path).to.equal(400);
      expect(refused.body.errors?.map((error) => error.parameter), path).to.deep.equal(['cursor']);
    }
  });
});
