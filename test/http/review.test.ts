import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import type { TokenScope } from '../../src/domain/submission.ts';
import { withdrawRecords } from '../../src/domain/withdrawal.ts';
import { getJson, startTestServer, waitForSubmission } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';

const run = promisify(execFile);

interface Status {
  submissionId: string;
  status: string;
  attempts: number;
  checks: { name: string; outcome: string; detail: string; override?: { by: string; note: string; at: string } }[];
  recordIds: string[];
  reason: string | null;
  reviews: { decision: string; by: string; note: string }[];
  batchUrl: string | null;
  submittedBy?: string;
}

/** The maintainer's loop over HTTP and the shell: list, batch status, review, and the decisions in the export. */
describe('ingest: the maintainer\'s loop (listing, batches, review over HTTP and npm run review)', function () {
  this.timeout(60_000);
  const images = new ImageServer();
  let server: TestServer;
  const secrets: Record<string, string> = {};
  let counter = 0;

  before(async () => {
    await images.start();
    for (let seed = 41; seed <= 48; seed += 1) images.files.set(`/work-${seed}.png`, { type: 'image/png', body: await lineDrawingPng(seed) });
    server = await startTestServer({ publisher: { uploadHosts: [images.host], allowPrivateMedia: true, maxAttempts: 3, retryDelayMs: 50 } });
    for (const [name, scopes] of [['bot', ['ingest']], ['other-bot', ['ingest']], ['lin', ['review']], ['analyst', ['export']]] as [string, TokenScope[]][]) {
      secrets[name] = generateSecret();
      await server.backend.tokens.createToken(name, scopes, secretSha256(secrets[name] ?? ''));
    }
  });
  after(async () => {
    await server.close();
    await images.stop();
  });

  const as = (token: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { Authorization: `Bearer ${secrets[token]}`, 'Content-Type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });
  function work(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    counter += 1;
    return {
      sourceUrl: `https://github.com/demo-owner/loop-${counter}`,
      date: '2025-05-01',
      model: `Loop-Model-${counter}`,
      author: 'Demo Owner',
      format: 'svg',
      title: { zh: `循环${counter}`, en: `Loop ${counter}` },
      notes: { zh: '测试。', en: 'Test.' },
      media: [images.url(`/work-${40 + counter}.png`)],
      ...overrides,
    };
  }
  async function submit(body: Record<string, unknown>, token = 'bot'): Promise<string> {
    const response = await server.get('/api/v1/ingest', as(token, { method: 'POST', body: JSON.stringify(body) }));
    expect(response.status).to.equal(202);
    return ((await response.json()) as { submissionId: string }).submissionId;
  }
  const settled = (submissionId: string, token = 'bot'): Promise<Status> => waitForSubmission<Status>(server, submissionId, secrets[token] ?? '');
  const review = (submissionId: string, body: unknown, token = 'lin') => server.get(`/api/v1/ingest/${submissionId}/review`, as(token, { method: 'POST', body: JSON.stringify(body) }));

  /** The submission once the publisher has acted on its `reviews`th review (it leaves queued again for a final status or needs_review). */
  async function waitForReview(submissionId: string, reviews = 1): Promise<Status> {
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
      const status = (await getJson<Status>(server, `/api/v1/ingest/${submissionId}`, as('bot'))).body;
      if (status.reviews.length >= reviews && status.status !== 'queued' && status.status !== 'processing') return status;
    }
    throw new Error(`${submissionId} was not settled after its review`);
  }

  let unknownSource: string;
  let futureDate: string;

  it('lists a token\'s own submissions newest first, a page at a time, by status', async () => {
    unknownSource = await submit(work({ sourceUrl: 'https://unknown.example/a-work' }));
    futureDate = await submit(work({ date: '2099-01-01' }));
    await submit(work(), 'other-bot');
    for (const id of [unknownSource, futureDate]) expect((await settled(id)).status).to.equal('needs_review');
    const first = await getJson<{ items: Status[]; nextCursor: string | null; next: string | null }>(server, '/api/v1/ingest?status=needs_review&limit=1', as('bot'));
    expect(first.status).to.equal(200);
    expect(first.body.items.map((item) => item.submissionId)).to.deep.equal([futureDate]);
    expect(first.body.next).to.equal(`${server.baseUrl}/api/v1/ingest?status=needs_review&limit=1&cursor=${first.body.nextCursor}`);
    const second = await getJson<{ items: Status[]; nextCursor: string | null }>(server, new URL(first.body.next ?? '').pathname + new URL(first.body.next ?? '').search, as('bot'));
    expect(second.body.items.map((item) => item.submissionId)).to.deep.equal([unknownSource]);
    expect(second.body.nextCursor).to.equal(null);
    const everything = await getJson<{ items: Status[] }>(server, `/api/v1/ingest?since=${new Date(Date.now() - 60_000).toISOString()}`, as('bot'));
    expect(everything.body.items.every((item) => item.submittedBy === undefined)).to.equal(true);
    expect(everything.body.items).to.have.length(2);
    const bad = await getJson<{ errors: { parameter: string }[] }>(server, '/api/v1/ingest?status=lost&limit=0&since=yesterday&cursor=x&sort=new', as('bot'));
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((error) => error.parameter).sort()).to.deep.equal(['cursor', 'limit', 'since', 'sort', 'status']);
    // Unknown names: the known ones listed once, each with the one it likely meant.
    const unknown = await getJson<{ errors: { parameter: string; message: string }[] }>(server, '/api/v1/ingest?limt=5&page=2', as('bot'));
    expect(unknown.body.errors).to.deep.equal([
      { parameter: 'limt', message: 'is not a known parameter (did you mean limit?); known: status, since, cursor, limit, all' },
      { parameter: 'page', message: 'is not a known parameter' },
    ]);
    expect((await server.get('/api/v1/ingest?cursor=not-ours', as('bot'))).status).to.equal(400);
    expect((await server.get('/api/v1/ingest?all=true', as('bot'))).status).to.equal(403);
    const all = await getJson<{ items: Status[] }>(server, '/api/v1/ingest?all=true&status=needs_review', as('lin'));
    expect(all.body.items.map((item) => [item.submissionId, item.submittedBy])).to.deep.include.members([[unknownSource, 'bot'], [futureDate, 'bot']]);
  });

  it('refuses a review without the review scope, with a bad body, of an unknown or not reviewable submission', async () => {
    expect((await review(unknownSource, { decision: 'approve', note: 'ok' }, 'bot')).status).to.equal(403);
    const bad = await review(unknownSource, { decision: 'maybe', extra: 1 });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { errors: { field: string }[] }).errors.map((error) => error.field).sort()).to.deep.equal(['decision', 'extra', 'note']);
    const notAnObject = await review(unknownSource, ['approve']);
    expect(notAnObject.status).to.equal(400);
    expect(await notAnObject.json()).to.deep.include({ detail: 'Invalid review: body.', errors: [{ field: 'body', message: 'must be a JSON object: { "decision": "approve" | "reject", "note": "…" }' }] });
    expect((await review('sub_unknown', { decision: 'reject', note: 'x' })).status).to.equal(404);
    const published = await settled(await submit(work()));
    expect(published.status).to.equal('published');
    const conflict = await review(published.submissionId, { decision: 'reject', note: 'too late' });
    expect(conflict.status).to.equal(409);
    expect(((await conflict.json()) as { submissionStatus: string }).submissionStatus).to.equal('published');
  });

  it('publishes an approved submission, every failed check recorded as overridden by whom and why', async () => {
    const response = await review(unknownSource, { decision: 'approve', note: 'A personal site of the author; the work is theirs.' });
    expect(response.status).to.equal(202);
    expect(response.headers.get('location')).to.equal(`${server.baseUrl}/api/v1/ingest/${unknownSource}`);
    const status = await settled(unknownSource);
    expect(status.status, status.reason ?? '').to.equal('published');
    expect(status.reviews.map((decision) => [decision.decision, decision.by])).to.deep.equal([['approve', 'lin']]);
    const identity = status.checks.find((check) => check.name === 'source-identity');
    expect(identity).to.deep.include({ outcome: 'fail', override: { by: 'lin', note: 'A personal site of the author; the work is theirs.', at: identity?.override?.at } });
    expect(identity?.override?.at).to.match(/^\d{4}-\d\d-\d\dT/);
    expect(status.checks.filter((check) => check.outcome === 'pass').every((check) => !check.override)).to.equal(true);
    const record = await getJson<{ source: string; sourceUrl: string }>(server, `/api/v1/specimens/${status.recordIds[0]}`);
    expect(record.body).to.include({ source: 'web', sourceUrl: 'https://unknown.example/a-work' });
  });

  it('sends an approved work whose previews did not load back to review, naming only that, the host it approved marked overridden', async () => {
    // On a host not the source's: fetched only once approved; one of the two is missing.
    images.files.set('/elsewhere.png', { type: 'image/png', body: await lineDrawingPng(60) });
    const [present, missing] = ['/elsewhere.png', '/late.png'].map((path) => images.url(path).replace('127.0.0.1', 'localhost'));
    // Not made by work(), so that the works after it keep their numbered previews.
    const elsewhere = { sourceUrl: 'https://github.com/demo-owner/hosted-elsewhere', date: '2025-05-01', model: 'Elsewhere-1', author: 'Demo Owner', format: 'svg', title: { zh: '别处', en: 'Elsewhere' }, notes: { zh: '测试。', en: 'Test.' } };
    const id = await submit({ ...elsewhere, media: [present, missing] });
    const before = await settled(id);
    expect(before.checks.find((check) => check.name === 'preview-ownership')?.detail).to.match(/They were not fetched\.$/);
    expect((await review(id, { decision: 'approve', note: 'The author hosts the previews.' })).status).to.equal(202);
    const approved = await waitForReview(id);
    expect(approved.status).to.equal('needs_review');
    expect(approved.reason).to.equal(`Approved by lin, but the work cannot be published: images: ${missing}: HTTP 404 Not Found`);
    const ownership = approved.checks.find((check) => check.name === 'preview-ownership');
    expect(ownership).to.deep.include({ outcome: 'fail', override: { by: 'lin', note: 'The author hosts the previews.', at: ownership?.override?.at } });
    expect(ownership?.detail).to.match(/They were fetched because lin approved the work\.$/);
    expect(approved.checks.find((check) => check.name === 'images')).to.deep.include({ outcome: 'fail' }).and.not.have.property('override');
    expect(approved.checks.filter((check) => check.outcome === 'skipped').every((check) => !check.override), 'a skipped check found nothing to override').to.equal(true);

    images.files.set('/late.png', { type: 'image/png', body: await lineDrawingPng(61) });
    expect((await review(id, { decision: 'approve', note: 'The missing preview is up now.' })).status).to.equal(202);
    const published = await waitForReview(id, 2);
    expect(published.status, published.reason ?? '').to.equal('published');
    expect(published.checks.find((check) => check.name === 'preview-ownership')?.override?.note).to.equal('The missing preview is up now.');
    expect(published.checks.find((check) => check.name === 'images')).to.deep.include({ outcome: 'pass' }).and.not.have.property('override');
  });

  it('makes a rejected submission final, and keeps both decisions in the authenticated export', async () => {
    const response = await review(futureDate, { decision: 'reject', note: 'The date cannot be right.' });
    expect(response.status).to.equal(200);
    expect((await response.json()) as Status).to.deep.include({ status: 'rejected', reason: 'Rejected by lin: The date cannot be right.' });
    expect((await review(futureDate, { decision: 'approve', note: 'second thoughts' })).status).to.equal(409);
    const exported = (await (await server.get('/api/v1/export?format=json&lang=all', as('analyst'))).json()) as { items: { id: string; submission: { submissionId: string; reviews: unknown[] } | null }[]; decisions: { submissionId: string; decision: string; by: string; status: string }[] };
    const approvedRecord = exported.items.find((item) => item.submission?.submissionId === unknownSource);
    expect(approvedRecord?.submission?.reviews).to.have.length(1);
    expect(exported.decisions.map((decision) => [decision.submissionId, decision.decision, decision.by, decision.status])).to.deep.include.members([
      [unknownSource, 'approve', 'lin', 'published'],
      [futureDate, 'reject', 'lin', 'rejected'],
    ]);
  });

  it('follows a batch: per-status counts and each item, for the token that sent it', async () => {
    const response = await server.get('/api/v1/ingest/batch', as('bot', { method: 'POST', body: JSON.stringify({ submissions: [work(), work({ date: 'soon' }), work({ date: '2099-02-02' })] }) }));
    expect(response.status).to.equal(202);
    const answer = (await response.json()) as { batchId: string; batchUrl: string; items: { submissionId?: string }[] };
    expect(response.headers.get('location')).to.equal(answer.batchUrl);
    for (const item of answer.items) if (item.submissionId) await settled(item.submissionId);
    const batch = await getJson<{ accepted: number; rejected: number; counts: Record<string, number>; items: { index: number; status: string; errors?: unknown[] }[] }>(server, new URL(answer.batchUrl).pathname, as('bot'));
    expect(batch.status).to.equal(200);
    expect(batch.body).to.deep.include({ accepted: 2, rejected: 1 });
    expect(batch.body.counts).to.deep.include({ published: 1, needs_review: 1, queued: 0 });
    expect(batch.body.items.map((item) => [item.index, item.status])).to.deep.equal([[0, 'published'], [1, 'rejected'], [2, 'needs_review']]);
    const member = await getJson<Status>(server, `/api/v1/ingest/${answer.items[0]?.submissionId}`, as('bot'));
    expect(member.body.batchUrl).to.equal(answer.batchUrl);
    expect((await server.get(new URL(answer.batchUrl).pathname, as('other-bot'))).status).to.equal(404);
    expect((await server.get(new URL(answer.batchUrl).pathname, as('lin'))).status).to.equal(200);
  });

  it('does the same from the shell: npm run review -- list, approve and reject', async function () {
    const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'scripts/review.ts', ...args], { env: { ...process.env, ...server.processEnvironment, ARCHIVE_DATA_DIR: server.dataDir, ARCHIVE_LOG_LEVEL: 'silent' } });
    const approved = await submit(work({ date: '2099-03-03' }));
    const rejected = await submit(work({ date: '2099-04-04' }));
    for (const id of [approved, rejected]) await settled(id);
    const listed = (await cli('list')).stdout;
    expect(listed).to.include(approved).and.include(rejected).and.include('date: fail');
    const approval = await cli('approve', approved, '--note', 'Dated by the author in the future on purpose.', '--by', 'lin-shell', '--wait', '20');
    expect(approval.stdout).to.match(new RegExp(`approved ${approved}`)).and.match(/published/);
    const status = await settled(approved);
    expect(status.status).to.equal('published');
    expect(status.checks.find((check) => check.name === 'date')?.override?.by).to.equal('lin-shell');
    expect((await cli('reject', rejected, '--note', 'Not a work of a model.')).stdout).to.include(`rejected ${rejected}`);
    expect((await settled(rejected)).reviews.map((decision) => decision.by)).to.deep.equal([`shell:${(await import('node:os')).userInfo().username}`]);
    let failure: { stderr?: string } = {};
    await cli('approve', rejected, '--note', 'again').catch((error: { stderr?: string }) => (failure = error));
    expect(failure.stderr).to.match(/rejected; only a submission in needs_review/);
    await cli('approve', approved).catch((error: { stderr?: string }) => (failure = error));
    expect(failure.stderr).to.match(/--note/);
  });

  it('sends a new submission of a withdrawn work to needs_review, naming the withdrawal, and publishes it again when approved', async () => {
    images.files.set('/withdrawn-work.png', { type: 'image/png', body: await lineDrawingPng(77) });
    const body = work({ sourceUrl: 'https://github.com/demo-owner/taken-down', media: [images.url('/withdrawn-work.png')] });
    const first = await settled(await submit(body));
    expect(first.status).to.equal('published');
    const reason = 'The author asked for the work to be removed.';
    const withdrawal = await withdrawRecords(server.backend.store, { ids: [first.recordIds[0] ?? ''], reason, wholeWork: true, followMoves: false });
    expect(withdrawal.kind === 'withdrawn' && withdrawal.report.withdrawn.map((record) => record.id).sort()).to.deep.equal([...first.recordIds].sort());
    const fetchesBefore = images.hits.get('/withdrawn-work.png');

    // The same work again, its URL in another case: not published, and its preview not fetched.
    const again = await submit({ ...body, sourceUrl: 'https://github.com/Demo-Owner/Taken-Down' });
    const held = await settled(again);
    expect(held.status).to.equal('needs_review');
    const duplicates = held.checks.find((check) => check.name === 'duplicates');
    expect(duplicates?.outcome).to.equal('fail');
    expect(duplicates?.detail).to.equal(
      `https://github.com/demo-owner/taken-down is a work withdrawn from the archive on ${new Date().toISOString().slice(0, 10)} (${[...first.recordIds].sort().join(', ')}): ${reason} A maintainer decides whether it is published again.`,
    );
    expect(held.checks.find((check) => check.name === 'images')?.outcome).to.equal('skipped');
    expect(held.reason).to.include('withdrawn from the archive');
    expect(images.hits.get('/withdrawn-work.png')).to.equal(fetchesBefore);

    expect((await review(again, { decision: 'approve', note: 'The author asked for it to be archived again.' })).status).to.equal(202);
    const published = await settled(again);
    expect(published.status).to.equal('published');
    expect(published.checks.find((check) => check.name === 'duplicates')).to.deep.include({ detail: duplicates?.detail });
    expect(published.checks.find((check) => check.name === 'duplicates')?.override?.by).to.equal('lin');
    for (const id of published.recordIds) expect((await server.get(`/api/v1/specimens/${id}`)).status, id).to.equal(200);
  });

  it("knows a work under every address its platform writes: another form of a published post is its duplicate, of a withdrawn video held for review", async () => {
    images.files.set('/reddit-post.png', { type: 'image/png', body: await lineDrawingPng(81) });
    images.files.set('/reddit-post-again.png', { type: 'image/png', body: await lineDrawingPng(82) });
    const post = await settled(await submit(work({ sourceUrl: 'https://www.reddit.com/r/LocalLLaMA/comments/1eg3dm0/demo_tandem_pelicans/', author: 'Someone', media: [images.url('/reddit-post.png')] })));
    expect(post.status).to.equal('published');
    // Another image, so only the address can tell it is the same post.
    const again = await settled(await submit(work({ sourceUrl: 'https://reddit.com/r/localllama/comments/1eg3dm0?share_id=AbC123', author: 'Someone', media: [images.url('/reddit-post-again.png')] })));
    expect(again).to.include({ status: 'duplicate', duplicateOf: post.recordIds[0] });

    images.files.set('/video.png', { type: 'image/png', body: await lineDrawingPng(83) });
    images.files.set('/video-short.png', { type: 'image/png', body: await lineDrawingPng(84) });
    const video = await settled(await submit(work({ sourceUrl: 'https://www.youtube.com/watch?v=demoFlight2', author: 'Someone', format: 'video', media: [images.url('/video.png')] })));
    expect(video.status).to.equal('published');
    await withdrawRecords(server.backend.store, { ids: [video.recordIds[0] ?? ''], reason: 'A takedown.', wholeWork: true, followMoves: false });
    const short = await settled(await submit(work({ sourceUrl: 'https://www.youtube.com/shorts/demoFlight2', author: 'Someone', format: 'video', media: [images.url('/video-short.png')] })));
    expect(short.status).to.equal('needs_review');
    expect(short.checks.find((check) => check.name === 'duplicates')?.detail).to.match(/is a work withdrawn from the archive on .*A takedown\./);
  });
});
