import { expect } from 'chai';
import type { IdempotencyRequest, SubmissionQueue } from '../../src/domain/ports.ts';
import type { ReviewDecision, SubmissionOutcome } from '../../src/domain/submission.ts';
import { makeSubmission } from '../helpers/factories.ts';

/** A clock the test moves by hand. */
export interface TestClock {
  now: () => number;
  advance(ms: number): void;
}

/** Opens a fresh, empty queue reading time from `clock`, and a function that disposes of it. */
export type QueueFactory = (clock: () => number) => Promise<{ queue: SubmissionQueue; dispose: () => Promise<void> }>;

const DAY_MS = 24 * 60 * 60 * 1000;
const LEASE_MS = 10_000;

function keyed(key: string, requestSha256: string, tokenName = 'bot'): IdempotencyRequest {
  return { tokenName, key, requestSha256 };
}

const decision = (kind: 'approve' | 'reject', at: string): ReviewDecision => ({ decision: kind, by: 'reviewer', note: kind === 'approve' ? 'the same author, a new work' : 'not a model\'s work', at, from: 'needs_review' });

const needsReview: SubmissionOutcome = { status: 'needs_review', checks: [{ name: 'duplicates', outcome: 'fail', detail: 'resembles svg-x-1' }], recordIds: [], duplicateOf: null, reason: 'duplicates: resembles svg-x-1' };

const published: SubmissionOutcome = { status: 'published', checks: [{ name: 'date', outcome: 'pass', detail: 'ok' }], recordIds: ['svg-x-00000000'], duplicateOf: null, reason: null };

/** The behaviour every SubmissionQueue adapter must show. */
export function submissionQueueContract(name: string, open: QueueFactory): void {
  describe(`SubmissionQueue contract: ${name}`, () => {
    let queue: SubmissionQueue;
    let dispose: () => Promise<void>;
    let clock: TestClock;
    beforeEach(async () => {
      // Real time, so a TTL monitor in the store never finds these keys already expired.
      let time = Date.now();
      clock = { now: () => time, advance: (ms) => (time += ms) };
      ({ queue, dispose } = await open(clock.now));
    });
    afterEach(async () => dispose());

    const enqueueOne = async (sourceUrl: string) => {
      const result = await queue.enqueue([{ tokenName: 'bot', submission: makeSubmission({ sourceUrl }) }]);
      if (result.kind !== 'accepted') throw new Error(`not accepted: ${result.kind}`);
      return result.records[0]?.submissionId ?? '';
    };

    it('accepts submissions as queued and gives each back as it was submitted', async () => {
      const submission = makeSubmission({ prompt: 'draw it' });
      const result = await queue.enqueue([{ tokenName: 'bot', submission }, { tokenName: 'bot', submission: makeSubmission({ sourceUrl: 'https://github.com/a/other' }) }]);
      expect(result.kind).to.equal('accepted');
      if (result.kind !== 'accepted') return;
      expect(result.records).to.have.length(2);
      const first = await queue.getSubmission(result.records[0]?.submissionId ?? '');
      expect(first).to.deep.include({ tokenName: 'bot', status: 'queued', attempts: 0, checks: [], recordIds: [], duplicateOf: null, reason: null, reviews: [], batchId: null });
      expect(first?.submission).to.deep.equal(submission);
      expect(first?.submittedAt).to.equal(new Date(clock.now()).toISOString());
      expect(await queue.getSubmission('sub_unknown')).to.equal(undefined);
      expect(await queue.countByStatus()).to.deep.equal({ queued: 2 });
    });

    it('claims the oldest due submission once, counting an attempt, with a token of its own', async () => {
      const first = await enqueueOne('https://github.com/a/one');
      clock.advance(1);
      const second = await enqueueOne('https://github.com/a/two');
      const claimed = await queue.claimNext('p1', LEASE_MS, 3);
      expect(claimed).to.deep.include({ submissionId: first, status: 'processing', attempts: 1 });
      const next = await queue.claimNext('p1', LEASE_MS, 3);
      expect(next?.submissionId).to.equal(second);
      expect(claimed?.claimToken).to.be.a('string').with.length.above(15);
      expect(next?.claimToken).to.not.equal(claimed?.claimToken);
      expect(await queue.claimNext('p3', LEASE_MS, 3)).to.equal(undefined);
      expect(await queue.countByStatus()).to.deep.equal({ processing: 2 });
      expect(await queue.getSubmission(first)).to.not.have.property('claimToken');
    });

    it('gives a lapsed claim to the next publisher and refuses the old claim', async () => {
      const id = await enqueueOne('https://github.com/a/lapse');
      const first = await queue.claimNext('p1', LEASE_MS, 3);
      clock.advance(LEASE_MS - 1);
      expect(await queue.claimNext('p2', LEASE_MS, 3)).to.equal(undefined);
      clock.advance(2);
      const again = await queue.claimNext('p2', LEASE_MS, 3);
      expect(again).to.deep.include({ submissionId: id, attempts: 2 });
      expect(await queue.renewLease(id, first?.claimToken ?? '', LEASE_MS)).to.equal(false);
      expect(await queue.complete(id, first?.claimToken ?? '', published)).to.equal(false);
      expect(await queue.complete(id, again?.claimToken ?? '', published)).to.equal(true);
    });

    it('refuses a lapsed claim once another claim by the same publisher process holds the submission', async () => {
      const id = await enqueueOne('https://github.com/a/slots');
      // Two concurrency slots of one process share its owner name; only the claim token tells them apart.
      const lapsed = await queue.claimNext('host:42', LEASE_MS, 3);
      clock.advance(LEASE_MS + 1);
      const current = await queue.claimNext('host:42', LEASE_MS, 3);
      expect(current?.submissionId).to.equal(id);
      const token = lapsed?.claimToken ?? '';
      expect(await queue.renewLease(id, token, LEASE_MS)).to.equal(false);
      expect(await queue.retryLater(id, token, 'media host down', 1000)).to.equal(false);
      expect(await queue.complete(id, token, published)).to.equal(false);
      expect(await queue.getSubmission(id)).to.deep.include({ status: 'processing', attempts: 2 });
      expect(await queue.renewLease(id, current?.claimToken ?? '', LEASE_MS)).to.equal(true);
      expect(await queue.complete(id, current?.claimToken ?? '', published)).to.equal(true);
    });

    it('keeps a renewed lease beyond its first end', async () => {
      const id = await enqueueOne('https://github.com/a/renew');
      const claim = await queue.claimNext('p1', LEASE_MS, 3);
      clock.advance(LEASE_MS - 100);
      expect(await queue.renewLease(id, claim?.claimToken ?? '', LEASE_MS)).to.equal(true);
      clock.advance(LEASE_MS - 100);
      expect(await queue.claimNext('p2', LEASE_MS, 3)).to.equal(undefined);
    });

    it('records the outcome, after which the submission is never claimed again', async () => {
      const id = await enqueueOne('https://github.com/a/done');
      const claim = await queue.claimNext('p1', LEASE_MS, 3);
      expect(await queue.complete(id, claim?.claimToken ?? '', published)).to.equal(true);
      expect(await queue.getSubmission(id)).to.deep.include({ status: 'published', checks: published.checks, recordIds: published.recordIds, duplicateOf: null, reason: null });
      clock.advance(10 * LEASE_MS);
      expect(await queue.claimNext('p2', LEASE_MS, 3)).to.equal(undefined);
      expect(await queue.complete(id, claim?.claimToken ?? '', published)).to.equal(false);
    });

    it('returns a submission to the queue after a transient fault, due after the delay', async () => {
      const id = await enqueueOne('https://github.com/a/retry');
      const claim = await queue.claimNext('p1', LEASE_MS, 3);
      expect(await queue.retryLater(id, 'not-this-claim', 'not mine', 1000)).to.equal(false);
      expect(await queue.retryLater(id, claim?.claimToken ?? '', 'media host down', 1000)).to.equal(true);
      expect(await queue.getSubmission(id)).to.deep.include({ status: 'queued', reason: 'media host down', attempts: 1 });
      expect(await queue.claimNext('p1', LEASE_MS, 3)).to.equal(undefined);
      clock.advance(1000);
      expect(await queue.claimNext('p1', LEASE_MS, 3)).to.deep.include({ submissionId: id, attempts: 2 });
    });

    it('moves a submission whose last allowed attempt lapsed to needs_review', async () => {
      const id = await enqueueOne('https://github.com/a/crashy');
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        expect((await queue.claimNext('p1', LEASE_MS, 2))?.attempts).to.equal(attempt);
        clock.advance(LEASE_MS + 1);
      }
      expect(await queue.claimNext('p2', LEASE_MS, 2)).to.equal(undefined);
      const settled = await queue.getSubmission(id);
      expect(settled?.status).to.equal('needs_review');
      expect(settled?.reason).to.match(/stopped 2 times/);
      expect(await queue.countByStatus()).to.deep.equal({ needs_review: 1 });
    });

    it('answers a repeated idempotent request with the first answer and refuses the key for another request', async () => {
      const items = [{ tokenName: 'bot', submission: makeSubmission() }];
      const first = await queue.enqueue(items, keyed('k1', 'a'.repeat(64)));
      expect(first.kind).to.equal('accepted');
      if (first.kind !== 'accepted') return;
      const repeat = await queue.enqueue(items, keyed('k1', 'a'.repeat(64)));
      expect(repeat).to.deep.equal({ kind: 'replay', submissionIds: [first.records[0]?.submissionId], batchId: null });
      expect(await queue.enqueue(items, keyed('k1', 'b'.repeat(64)))).to.deep.equal({ kind: 'key-reused' });
      expect((await queue.enqueue(items, keyed('k1', 'b'.repeat(64), 'other-bot'))).kind).to.equal('accepted');
      expect(await queue.countByStatus()).to.deep.equal({ queued: 2 });
    });

    it('forgets an idempotency key after 24 hours', async () => {
      const items = [{ tokenName: 'bot', submission: makeSubmission() }];
      await queue.enqueue(items, keyed('k2', 'a'.repeat(64)));
      clock.advance(DAY_MS + 1000);
      expect((await queue.enqueue(items, keyed('k2', 'b'.repeat(64)))).kind).to.equal('accepted');
      expect((await queue.enqueue(items, keyed('k2', 'b'.repeat(64)))).kind).to.equal('replay');
    });

    it('accepts a batch all or none', async () => {
      const circular = makeSubmission({ sourceUrl: 'https://github.com/a/two' }) as ReturnType<typeof makeSubmission> & { self?: unknown };
      circular.self = circular;
      const items = [{ tokenName: 'bot', submission: makeSubmission() }, { tokenName: 'bot', submission: circular }];
      let failed = false;
      try {
        await queue.enqueue(items, keyed('k3', 'c'.repeat(64)));
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
      expect(await queue.countByStatus()).to.deep.equal({});
      expect((await queue.enqueue([items[0] ?? { tokenName: 'bot', submission: makeSubmission() }], keyed('k3', 'c'.repeat(64)))).kind).to.equal('accepted');
    });

    it('keeps a batch with its positions and refused items, and replays its ids and batch for a retried key', async () => {
      const items = [{ tokenName: 'bot', submission: makeSubmission({ sourceUrl: 'https://github.com/b/zero' }) }, { tokenName: 'bot', submission: makeSubmission({ sourceUrl: 'https://github.com/b/two' }) }];
      const refused = [{ index: 1, errors: [{ field: 'submissions[1].date', message: 'must match format "date"' }] }];
      const result = await queue.enqueue(items, keyed('batch-1', 'd'.repeat(64)), undefined, { indexes: [0, 2], refused });
      if (result.kind !== 'accepted' || !result.batchId) throw new Error(`not accepted as a batch: ${result.kind}`);
      const ids = result.records.map((record) => record.submissionId);
      expect(result.records.every((record) => record.batchId === result.batchId)).to.equal(true);
      const batch = await queue.getBatch(result.batchId);
      expect(batch).to.deep.include({ batchId: result.batchId, tokenName: 'bot', submittedAt: new Date(clock.now()).toISOString(), refused });
      expect(batch?.items).to.deep.equal([{ index: 0, submissionId: ids[0] }, { index: 2, submissionId: ids[1] }]);
      expect(await queue.getBatch('bat_unknown')).to.equal(undefined);
      expect((await queue.getSubmissions([ids[1] ?? '', 'sub_unknown', ids[0] ?? ''])).map((record) => record.submissionId)).to.deep.equal([ids[1], ids[0]]);
      expect(await queue.enqueue(items, keyed('batch-1', 'd'.repeat(64)), undefined, { indexes: [0, 2], refused })).to.deep.equal({ kind: 'replay', submissionIds: ids, batchId: result.batchId });
    });

    it('lists submissions newest first, by token, status and time, a page at a time', async () => {
      const made: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        made.push(await enqueueOne(`https://github.com/l/${i}`));
        if (i !== 2) clock.advance(1000);
      }
      const other = await queue.enqueue([{ tokenName: 'other-bot', submission: makeSubmission({ sourceUrl: 'https://github.com/l/other' }) }]);
      if (other.kind !== 'accepted') throw new Error('not accepted');
      const newestFirst = [...made].reverse();
      const ids = (records: { submissionId: string }[]) => records.map((record) => record.submissionId);
      const all = await queue.listSubmissions({ tokenName: 'bot', limit: 10 });
      expect(ids(all)).to.have.members(made);
      // Two submissions share a millisecond: ties go by id, descending, so the order is total.
      const expected = [...all].sort((a, b) => (a.submittedAt === b.submittedAt ? (a.submissionId < b.submissionId ? 1 : -1) : a.submittedAt < b.submittedAt ? 1 : -1));
      expect(ids(all)).to.deep.equal(ids(expected));
      expect(all[0]?.submissionId).to.equal(newestFirst[0]);
      const first = await queue.listSubmissions({ tokenName: 'bot', limit: 2 });
      const last = first.at(-1);
      const second = await queue.listSubmissions({ tokenName: 'bot', limit: 10, before: { submittedAt: last?.submittedAt ?? '', submissionId: last?.submissionId ?? '' } });
      expect([...ids(first), ...ids(second)]).to.deep.equal(ids(all));
      expect(ids(await queue.listSubmissions({ limit: 10 }))).to.include(other.records[0]?.submissionId);
      const since = all[1]?.submittedAt ?? '';
      expect(ids(await queue.listSubmissions({ tokenName: 'bot', since, limit: 10 }))).to.deep.equal(ids(all.filter((record) => record.submittedAt >= since)));
      await queue.claimNext('p1', LEASE_MS, 3);
      const processing = await queue.listSubmissions({ tokenName: 'bot', status: 'processing', limit: 10 });
      expect(processing.map((record) => record.status)).to.deep.equal(['processing']);
      expect(await queue.listSubmissions({ tokenName: 'nobody', limit: 10 })).to.deep.equal([]);
    });

    it('records a review: approve queues the submission afresh, reject makes it final, both kept in its history', async () => {
      const approved = await enqueueOne('https://github.com/r/approved');
      clock.advance(1);
      const rejected = await enqueueOne('https://github.com/r/rejected');
      for (const id of [approved, rejected]) {
        const claimed = await queue.claimNext('p1', LEASE_MS, 3);
        expect(await queue.complete(claimed?.submissionId ?? '', claimed?.claimToken ?? '', needsReview)).to.equal(true);
        expect(claimed?.submissionId).to.equal(id);
      }
      clock.advance(5000);
      const at = new Date(clock.now()).toISOString();
      expect(await queue.review(approved, { ...decision('approve', at), from: 'needs_review' })).to.deep.include({ status: 'queued', attempts: 0, reviews: [decision('approve', at)] });
      expect(await queue.review(approved, decision('reject', at))).to.equal('not-reviewable');
      expect(await queue.review('sub_unknown', decision('reject', at))).to.equal(undefined);
      const reclaimed = await queue.claimNext('p2', LEASE_MS, 3);
      expect(reclaimed).to.deep.include({ submissionId: approved, status: 'processing', attempts: 1 });
      expect(reclaimed?.reviews).to.deep.equal([decision('approve', at)]);
      const rejection = await queue.review(rejected, decision('reject', at));
      expect(rejection).to.deep.include({ status: 'rejected', updatedAt: at });
      expect(typeof rejection === 'object' && rejection.reason).to.match(/not a model's work/);
      expect(await queue.claimNext('p3', LEASE_MS, 3)).to.equal(undefined);
      expect(await queue.countByStatus()).to.deep.equal({ processing: 1, rejected: 1 });
    });

    it('keeps the verdicts so far with a retry', async () => {
      const id = await enqueueOne('https://github.com/a/retry-checks');
      const claimed = await queue.claimNext('p1', LEASE_MS, 3);
      const checks = [{ name: 'images' as const, outcome: 'error' as const, detail: 'HTTP 503' }, { name: 'duplicates' as const, outcome: 'pending' as const, detail: 'compared once the previews load' }];
      expect(await queue.retryLater(id, claimed?.claimToken ?? '', 'Retrying: HTTP 503', 1000, checks)).to.equal(true);
      expect(await queue.getSubmission(id)).to.deep.include({ status: 'queued', checks });
    });

    it('refuses a whole batch that would pass the daily quota', async () => {
      const batch = (count: number) => Array.from({ length: count }, (_, i) => ({ tokenName: 'bot', submission: makeSubmission({ sourceUrl: `https://github.com/q/${i}` }) }));
      expect((await queue.enqueue(batch(2), undefined, { limit: 3 })).kind).to.equal('accepted');
      expect(await queue.enqueue(batch(2), undefined, { limit: 3 })).to.deep.equal({ kind: 'over-quota', used: 2, limit: 3 });
      expect(await queue.countByStatus()).to.deep.equal({ queued: 2 });
      clock.advance(DAY_MS);
      expect((await queue.enqueue(batch(2), undefined, { limit: 3 })).kind).to.equal('accepted');
    });
  });
}
