import { expect } from 'chai';
import fc from 'fast-check';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import type { TokenScope } from '../../src/domain/submission.ts';
import { makeSubmission } from '../helpers/factories.ts';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { candidateSubmission, liesWithin, refusedAfterSchema, validSubmission } from './submission-arbitraries.ts';
import type { CandidateSubmission } from './submission-arbitraries.ts';
import { expectNoServerError, expectProblem, fuzzParameters, namedInputs, runsFor, timeoutFor } from './support.ts';

const SINGLE_RUNS = runsFor(800);
const ENVELOPE_RUNS = runsFor(400);
const BATCH_RUNS = runsFor(200);
const STATUS_RUNS = runsFor(250);

/** The body of a 202 for one submission. */
interface Accepted {
  submissionId: string;
  status: string;
  statusUrl: string;
}

/** What a batch answers: one entry per item, accepted or rejected. */
interface BatchAnswer {
  accepted: number;
  rejected: number;
  items: { index: number; status: string; submissionId?: string; statusUrl?: string; errors?: { field: string }[] }[];
}

const STATUS_KEYS = ['submissionId', 'status', 'statusUrl', 'submittedAt', 'updatedAt', 'attempts', 'checks', 'recordIds', 'duplicateOf', 'reason', 'reviews', 'batchUrl'];

describe('fuzz: ingest routes against schemas/submission.schema.json', function () {
  this.timeout(60_000);
  let server: TestServer;
  const secrets: Record<'maintainer' | 'otherBot' | 'analyst' | 'revoked', string> = { maintainer: generateSecret(), otherBot: generateSecret(), analyst: generateSecret(), revoked: generateSecret() };
  /** Submission ids the maintainer's token created, for the status route. */
  const created: string[] = [];
  let keyCounter = 0;

  before(async () => {
    // No publisher: nothing accepted here is ever fetched, so no request leaves 127.0.0.1.
    server = await startTestServer();
    const scopes: Record<keyof typeof secrets, TokenScope[]> = { maintainer: ['ingest'], otherBot: ['ingest'], analyst: ['export'], revoked: ['ingest'] };
    for (const [name, secret] of Object.entries(secrets) as [keyof typeof secrets, string][]) {
      await server.backend.tokens.createToken(name, scopes[name], secretSha256(secret));
    }
    await server.backend.tokens.revokeToken('revoked');
  });
  after(async () => server.close());

  const post = (path: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>) => server.get(path, { method: 'POST', body, headers });
  const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

  async function expectStatusReadable(accepted: Accepted): Promise<void> {
    const path = new URL(accepted.statusUrl).pathname;
    const own = await server.get(path, { headers: bearer(secrets.maintainer) });
    expect(own.status, path).to.equal(200);
    const status = (await own.json()) as Record<string, unknown>;
    expect(status).to.have.keys(...STATUS_KEYS);
    expect(status).to.include({ submissionId: accepted.submissionId, status: 'queued', statusUrl: accepted.statusUrl });
    const foreign = await server.get(path, { headers: bearer(secrets.otherBot) });
    expect(foreign.status, `${path} for another token`).to.equal(404);
    await expectProblem(foreign, path);
  }

  it(`POST /api/v1/ingest: ${SINGLE_RUNS} generated bodies are accepted with 202, or refused with a 400 naming each broken field`, async function () {
    this.timeout(timeoutFor(SINGLE_RUNS, 80));
    const idempotencyKey = fc.oneof(
      { weight: 6, arbitrary: fc.constant<{ key?: string; valid: boolean }>({ valid: true }) },
      { weight: 2, arbitrary: fc.stringMatching(/^[\x21-\x7e]{1,200}$/).map((key) => ({ key, valid: true })) },
      { weight: 1, arbitrary: fc.constantFrom('with space', 'tab\there', 'x'.repeat(256), 'ünïcode', '').map((key) => ({ key, valid: false })) },
    );
    await fc.assert(
      fc.asyncProperty(candidateSubmission(), idempotencyKey, async (candidate: CandidateSubmission, idempotency) => {
        const text = JSON.stringify(candidate.body);
        // Keys must not repeat across runs with different bodies, or the answer is a (correct) 422.
        const key = idempotency.key !== undefined && idempotency.valid ? `${idempotency.key.slice(0, 40)}-${(keyCounter += 1)}` : idempotency.key;
        const headers = { 'Content-Type': 'application/json', ...bearer(secrets.maintainer), ...(key !== undefined ? { 'Idempotency-Key': key } : {}) };
        const response = await post('/api/v1/ingest', text, headers);
        const what = `POST ${text.slice(0, 300)}`;
        await expectNoServerError(response, what);
        if (candidate.mustName.length > 0) {
          // A bad key is named in the same answer as the body's broken fields.
          const mustName = idempotency.valid ? candidate.mustName : [...candidate.mustName, 'Idempotency-Key'];
          expect(response.status, `${what}: broken ${mustName.join(', ')}`).to.equal(400);
          const named = namedInputs(await expectProblem(response, what));
          for (const name of mustName) expect(named, `${what}: names ${name}`).to.include(name);
          for (const name of named) expect(liesWithin(name, mustName), `${what}: ${name} is one of the broken inputs`).to.equal(true);
          return;
        }
        if (!idempotency.valid) {
          expect(response.status, `${what}: bad Idempotency-Key ${JSON.stringify(key)}`).to.equal(400);
          expect(namedInputs(await expectProblem(response, what))).to.deep.equal(['Idempotency-Key']);
          return;
        }
        expect(response.status, what).to.equal(202);
        const accepted = (await response.json()) as Accepted;
        expect(accepted).to.have.keys('submissionId', 'status', 'statusUrl');
        expect(accepted.status).to.equal('queued');
        expect(accepted.statusUrl).to.equal(`${server.baseUrl}/api/v1/ingest/${accepted.submissionId}`);
        expect(response.headers.get('location')).to.equal(accepted.statusUrl);
        created.push(accepted.submissionId);
        await expectStatusReadable(accepted);
        if (key !== undefined) {
          const replay = await post('/api/v1/ingest', text, headers);
          expect(replay.status, `${what}: replay`).to.equal(202);
          expect(replay.headers.get('idempotent-replayed')).to.equal('true');
          expect(await replay.json()).to.deep.equal(accepted);
        }
      }),
      fuzzParameters(SINGLE_RUNS),
    );
  });

  it(`POST /api/v1/ingest: ${ENVELOPE_RUNS} generated tokens, content types and raw bodies answer 401, 403, 415, 413 or 400 in that order of checks`, async function () {
    this.timeout(timeoutFor(ENVELOPE_RUNS, 80));
    type Authorization = { header?: string; outcome: 'ok' | 401 | 403 };
    const authorization = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<Authorization>({ header: `Bearer ${secrets.maintainer}`, outcome: 'ok' }, { header: `bearer ${secrets.maintainer}`, outcome: 'ok' }, { header: `Bearer   ${secrets.maintainer}`, outcome: 'ok' }) },
      {
        weight: 3,
        arbitrary: fc.constantFrom<Authorization>(
          { outcome: 401 },
          { header: 'Bearer', outcome: 401 },
          { header: 'Bearer mwa_not-a-real-token', outcome: 401 },
          { header: `Bearer ${secrets.maintainer} extra`, outcome: 401 },
          { header: `Basic ${Buffer.from('user:pass').toString('base64')}`, outcome: 401 },
          { header: `Bearer ${secrets.revoked}`, outcome: 401 },
          { header: secrets.maintainer, outcome: 401 },
          { header: `Bearer ${secrets.analyst}`, outcome: 403 },
        ),
      },
      { weight: 1, arbitrary: fc.stringMatching(/^[\x21-\x7e]{1,80}$/).map((token): Authorization => ({ header: `Bearer ${token}`, outcome: 401 })) },
    );
    type ContentType = { header?: string; json: boolean | 'either' };
    const contentType = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<ContentType>({ header: 'application/json', json: true }, { header: 'application/json; charset=utf-8', json: true }, { header: 'APPLICATION/JSON', json: true }) },
      {
        weight: 2,
        arbitrary: fc.constantFrom<ContentType>(
          { json: false },
          { header: 'text/plain', json: false },
          { header: 'application/x-www-form-urlencoded', json: false },
          { header: 'multipart/form-data; boundary=x', json: false },
          { header: 'application/xml', json: false },
          { header: 'application/merge-patch+json', json: 'either' },
          { header: 'application/json-seq', json: false },
        ),
      },
    );
    type RawBody = { bytes: Uint8Array<ArrayBuffer>; kind: 'submission' | 'refused-submission' | 'not-json' | 'not-an-object' | 'too-large' };
    const encoder = new TextEncoder();
    const raw = (text: string, kind: RawBody['kind']): RawBody => ({ bytes: encoder.encode(text), kind });
    const body = fc.oneof(
      { weight: 3, arbitrary: validSubmission().map((submission) => raw(JSON.stringify(submission), refusedAfterSchema(submission).length ? 'refused-submission' : 'submission')) },
      { weight: 2, arbitrary: fc.constantFrom('', '{', '{"sourceUrl":', '{"a":1,}', 'NaN', "{'a':1}", '\ufeff{}', '{"a":1}{"b":2}', 'undefined', '[1,]').map((text) => raw(text, 'not-json')) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).filter((bytes) => !parsesAsJson(bytes)).map((bytes): RawBody => ({ bytes, kind: 'not-json' })) },
      { weight: 2, arbitrary: fc.oneof(fc.constantFrom('[]', '"text"', '1', 'null', 'true', '[{}]', `${'['.repeat(3000)}${']'.repeat(3000)}`), fc.json().filter((text) => !text.startsWith('{'))).map((text) => raw(text, 'not-an-object')) },
      { weight: 1, arbitrary: fc.constantFrom(300, 1024).map((kilobytes) => raw(JSON.stringify({ notes: 'x'.repeat(kilobytes * 1024) }), 'too-large')) },
    );
    await fc.assert(
      fc.asyncProperty(authorization, contentType, body, async (auth, type, payload) => {
        const headers: Record<string, string> = { ...(auth.header !== undefined ? { Authorization: auth.header } : {}), ...(type.header !== undefined ? { 'Content-Type': type.header } : {}) };
        const response = await post('/api/v1/ingest', payload.bytes, headers);
        const what = `POST ${JSON.stringify(headers)} ${payload.kind}`;
        await expectNoServerError(response, what);
        if (auth.outcome !== 'ok') {
          expect(response.status, what).to.equal(auth.outcome);
          expect(response.headers.get('www-authenticate') ?? '', what).to.match(/^Bearer/);
          await expectProblem(response, what);
          return;
        }
        if (type.json === false || (type.json === 'either' && response.status === 415)) {
          expect(response.status, what).to.equal(415);
          await expectProblem(response, what);
          return;
        }
        if (payload.kind === 'submission') {
          expect(response.status, what).to.equal(202);
          await response.arrayBuffer();
          return;
        }
        expect(response.status, what).to.equal(payload.kind === 'too-large' ? 413 : 400);
        if (payload.kind === 'refused-submission') return;
        const problem = await expectProblem(response, what);
        if (payload.kind === 'not-an-object') expect(namedInputs(problem), `${what}: the whole body is the bad field`).to.include('body');
      }),
      fuzzParameters(ENVELOPE_RUNS),
    );
  });

  it(`POST /api/v1/ingest/batch: ${BATCH_RUNS} generated batches accept every valid item and name each broken field of the others`, async function () {
    this.timeout(timeoutFor(BATCH_RUNS, 200));
    type Envelope = { body: unknown; items?: CandidateSubmission[]; mustName?: string[] };
    const batch = fc.oneof(
      { weight: 6, arbitrary: fc.array(candidateSubmission(), { minLength: 1, maxLength: 8 }).map((items): Envelope => ({ body: { submissions: items.map((item) => item.body) }, items })) },
      {
        weight: 2,
        arbitrary: fc.constantFrom<Envelope>(
          { body: {}, mustName: ['submissions'] },
          { body: { submissions: [] }, mustName: ['submissions'] },
          { body: { submissions: 'all of them' }, mustName: ['submissions'] },
          { body: { submissions: null }, mustName: ['submissions'] },
          { body: [], mustName: ['body'] },
          { body: 'submissions', mustName: ['body'] },
          { body: { submissions: [{}], extra: true }, mustName: ['extra'] },
        ),
      },
      { weight: 1, arbitrary: fc.constant<Envelope>({ body: { submissions: Array.from({ length: 101 }, () => makeSubmission()) }, mustName: ['submissions'] }) },
    );
    await fc.assert(
      fc.asyncProperty(batch, async (envelope) => {
        const text = JSON.stringify(envelope.body);
        const response = await post('/api/v1/ingest/batch', text, { 'Content-Type': 'application/json', ...bearer(secrets.maintainer) });
        const what = `POST batch ${text.slice(0, 300)}`;
        await expectNoServerError(response, what);
        if (envelope.mustName) {
          expect(response.status, what).to.equal(400);
          const named = namedInputs(await expectProblem(response, what));
          for (const name of envelope.mustName) expect(named, what).to.include(name);
          return;
        }
        const items = envelope.items ?? [];
        const valid = items.filter((item) => item.mustName.length === 0).length;
        const prefixed = (index: number) => (items[index]?.mustName ?? []).map((name) => `submissions[${index}].${name}`.replace('.[', '['));
        if (valid === 0) {
          expect(response.status, `${what}: no valid item`).to.equal(400);
          const named = namedInputs(await expectProblem(response, what));
          items.forEach((_, index) => {
            for (const name of prefixed(index)) expect(named, what).to.include(name);
          });
          return;
        }
        expect(response.status, what).to.equal(202);
        const answer = (await response.json()) as BatchAnswer;
        expect(answer).to.include({ accepted: valid, rejected: items.length - valid });
        expect(answer.items.map((item) => item.index)).to.deep.equal(items.map((_, index) => index));
        answer.items.forEach((item, index) => {
          const expected = prefixed(index);
          if (expected.length === 0) {
            expect(item.status, `${what}: item ${index}`).to.equal('queued');
            created.push(item.submissionId ?? '');
            return;
          }
          expect(item.status, `${what}: item ${index}`).to.equal('rejected');
          const named = (item.errors ?? []).map((error) => error.field);
          for (const name of expected) expect(named, `${what}: item ${index}`).to.include(name);
          for (const name of named) expect(liesWithin(name, expected), `${what}: item ${index} names ${name}`).to.equal(true);
        });
      }),
      fuzzParameters(BATCH_RUNS),
    );
  });

  it(`GET /api/v1/ingest/{submissionId} and other methods: ${STATUS_RUNS} generated ids, tokens and methods`, async function () {
    this.timeout(timeoutFor(STATUS_RUNS, 60));
    const submissionId = fc.oneof(
      fc.integer({ min: 0, max: 1_000 }).map((index) => ({ id: created[index % Math.max(1, created.length)] ?? 'sub_missing', own: created.length > 0 })),
      fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }), fc.stringMatching(/^sub_[A-Za-z0-9_-]{1,40}$/), fc.constantFrom('sub_', '%', '..%2f', 'a'.repeat(500)))
        .filter((id) => id !== '.' && id !== '..' && id !== 'batch' && !created.includes(id))
        .map((id) => ({ id, own: false })),
    );
    const token = fc.constantFrom<keyof typeof secrets | 'none'>('maintainer', 'maintainer', 'otherBot', 'analyst', 'revoked', 'none');
    const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'DELETE', 'PUT', 'PATCH', 'POST');
    await fc.assert(
      fc.asyncProperty(submissionId, token, method, async ({ id, own }, holder, verb) => {
        const path = `/api/v1/ingest/${encodeURIComponent(id)}`;
        const headers = holder === 'none' ? {} : bearer(secrets[holder]);
        const response = await server.get(path, { method: verb, headers, ...(verb === 'POST' || verb === 'PUT' || verb === 'PATCH' ? { body: '{}' } : {}) });
        const what = `${verb} ${path} as ${holder}`;
        await expectNoServerError(response, what);
        if (!['GET', 'HEAD'].includes(verb)) {
          expect(response.status, what).to.equal(405);
          expect(response.headers.get('allow'), what).to.equal('GET, HEAD, OPTIONS');
          await expectProblem(response, what);
          return;
        }
        const expected = holder === 'none' || holder === 'revoked' ? 401 : holder === 'analyst' ? 403 : own && holder === 'maintainer' ? 200 : 404;
        expect(response.status, what).to.equal(expected);
        if (verb === 'HEAD') return;
        if (expected === 200) expect(await response.json()).to.have.keys(...STATUS_KEYS);
        else await expectProblem(response, what);
      }),
      fuzzParameters(STATUS_RUNS),
    );
  });
});

function parsesAsJson(bytes: Uint8Array): boolean {
  try {
    JSON.parse(new TextDecoder().decode(bytes));
    return true;
  } catch {
    return false;
  }
}
