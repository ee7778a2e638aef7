import { expect } from 'chai';
import type { Backend } from '../../src/backend.ts';
import { cursorAfter, decodeCursor, listSubmissions } from '../../src/domain/ingest/list.ts';
import { review } from '../../src/domain/ingest/review.ts';
import { secureSourceUrl, submit } from '../../src/domain/ingest/submit.ts';
import { BUILT_IN_SOURCE_TABLE } from '../../src/domain/sources.ts';
import { makeSubmission } from '../helpers/factories.ts';
import { openEmbeddedBackend } from '../helpers/backend.ts';

/** The ingest commands called as HTTP and the scripts call them: plain values in, domain results out. */
describe('ingest commands: submit, list and review with plain values', () => {
  let backend: Backend;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ backend, dispose } = await openEmbeddedBackend());
  });
  afterEach(() => dispose());
  const ports = () => ({ submissions: backend.submissions, sources: BUILT_IN_SOURCE_TABLE });

  it('makes an http source URL of a known source https and refuses one of another host', () => {
    expect(secureSourceUrl(makeSubmission({ sourceUrl: 'http://github.com/a/b?x=1' }), BUILT_IN_SOURCE_TABLE, 'sourceUrl')).to.deep.include({ ok: true, submission: makeSubmission({ sourceUrl: 'https://github.com/a/b?x=1' }) });
    expect(secureSourceUrl(makeSubmission({ sourceUrl: 'http://example.org/b' }), BUILT_IN_SOURCE_TABLE, 'submissions[3].sourceUrl')).to.deep.include({ ok: false });
  });

  it('accepts a batch\'s valid items with their positions, replays them for the same key, and answers invalid when nothing is valid', async () => {
    const items = [{ ok: true as const, submission: makeSubmission() }, { ok: false as const, errors: [{ field: 'submissions[1].date', message: 'bad' }] }, { ok: true as const, submission: makeSubmission({ sourceUrl: 'http://x.com/a/status/1' }) }];
    const first = await submit(ports(), { tokenName: 'bot', items, batch: true, idempotency: { key: 'k', requestSha256: 'a'.repeat(64) } });
    if (first.kind !== 'accepted') throw new Error(first.kind);
    expect(first.items.map((item) => ('submissionId' in item ? 'accepted' : 'refused'))).to.deep.equal(['accepted', 'refused', 'accepted']);
    const third = first.items[2];
    expect((await backend.submissions.getSubmission(third && 'submissionId' in third ? third.submissionId : ''))?.submission.sourceUrl).to.equal('https://x.com/a/status/1');
    const again = await submit(ports(), { tokenName: 'bot', items, batch: true, idempotency: { key: 'k', requestSha256: 'a'.repeat(64) } });
    expect(again).to.deep.equal({ ...first, replayed: true });
    expect(await submit(ports(), { tokenName: 'bot', items: [{ ok: false, errors: [{ field: 'submissions[1].date', message: 'bad' }] }], batch: false })).to.deep.equal({ kind: 'invalid', errors: [{ field: 'submissions[1].date', message: 'bad' }] });
  });

  it('pages through a token\'s submissions with cursors it wrote, and refuses others', async () => {
    for (let i = 0; i < 3; i += 1) await submit(ports(), { tokenName: 'bot', items: [{ ok: true, submission: makeSubmission({ sourceUrl: `https://github.com/a/${i}` }) }], batch: false });
    const first = await listSubmissions(backend, { tokenName: 'bot', limit: 2 });
    if (first.kind !== 'page' || !first.nextCursor) throw new Error('no next page');
    expect(decodeCursor(first.nextCursor, { tokenName: 'bot' })).to.deep.equal({ submittedAt: first.items[1]?.submittedAt, submissionId: first.items[1]?.submissionId });
    const second = await listSubmissions(backend, { tokenName: 'bot', limit: 2, cursor: first.nextCursor });
    expect(second.kind === 'page' && second.items.length === 1 && second.nextCursor === null).to.equal(true);
    expect(await listSubmissions(backend, { limit: 2, cursor: 'not-a-cursor' })).to.deep.equal({ kind: 'bad-cursor', problem: 'malformed' });
    expect(decodeCursor(cursorAfter({}, { submittedAt: 'yesterday', submissionId: 'sub_x' }), {})).to.equal('malformed');
    // Another listing's cursor, and one changed on its way back, are refused rather than read.
    expect(decodeCursor(first.nextCursor, { tokenName: 'bot', status: 'queued' }), 'another status').to.equal('other-query');
    expect(decodeCursor(first.nextCursor, {}), "every token's submissions").to.equal('other-query');
    const changed = `${first.nextCursor.slice(0, 10)}${first.nextCursor[10] === 'A' ? 'B' : 'A'}${first.nextCursor.slice(11)}`;
    expect(decodeCursor(changed, { tokenName: 'bot' }), 'one character changed').to.equal('malformed');
  });

  it('refuses a review without a note or of a submission not in needs_review', async () => {
    const accepted = await submit(ports(), { tokenName: 'bot', items: [{ ok: true, submission: makeSubmission() }], batch: false });
    const item = accepted.kind === 'accepted' ? accepted.items[0] : undefined;
    const submissionId = item && 'submissionId' in item ? item.submissionId : '';
    const now = new Date();
    expect(await review(backend, { submissionId, decision: 'approve', note: '  ', reviewer: 'lin', now })).to.deep.include({ kind: 'invalid' });
    expect(await review(backend, { submissionId, decision: 'approve', note: 'fine', reviewer: 'lin', now })).to.deep.equal({ kind: 'not-reviewable', status: 'queued' });
    expect(await review(backend, { submissionId: 'sub_none', decision: 'reject', note: 'no', reviewer: 'lin', now })).to.deep.equal({ kind: 'not-found' });
  });
});
