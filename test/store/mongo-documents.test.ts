import { expect } from 'chai';
import { allocatedChangeNumbers, inBatches } from '../../src/store/mongo/change-feed.ts';
import { fromRecordDocument, fromSubmissionDocument, fromRecordFateDocument, idempotentSubmissionIds, fromTokenDocument, newSubmissionDocument, toRecordDocument } from '../../src/store/mongo/documents.ts';
import { ARCHIVE_INDEXES, IDEMPOTENCY_RETENTION_SECONDS, topologyProblem } from '../../src/store/mongo/mongo-database.ts';
import { makeRecord, makeSubmission } from '../helpers/factories.ts';

describe('MongoDB documents', () => {
  it('maps a record to its document and back unchanged, with the new change number', () => {
    const record = makeRecord({ prompt: 'Draw a pelican', submissionId: 'sub_1', media: [{ path: 'ab/ab.png', width: 10, height: 20, sha256: 'a'.repeat(64), blockhash: 'f'.repeat(64) }] });
    const document = toRecordDocument({ ...record, seq: 3 } as typeof record, 9);
    expect(document.seq).to.equal(9);
    expect(fromRecordDocument({ ...document, _id: 'object-id' })).to.deep.equal({ ...record, seq: 9 });
  });

  it('leaves out fields that are undefined instead of storing them as null', () => {
    const record = { ...makeRecord(), prompt: undefined, media: [{ path: 'p.png', width: 1, height: 1, sha256: 'b'.repeat(64), blockhash: undefined }] };
    const document = toRecordDocument(record, 1);
    expect(Object.keys(document)).not.to.include('prompt');
    expect(Object.keys(document.media[0] ?? {})).not.to.include('blockhash');
  });

  it('keeps perceptual hashes inside the record, where every publisher loads them from the change feed', () => {
    const record = makeRecord({ media: [{ path: 'p.png', width: 1, height: 1, sha256: 'c'.repeat(64), blockhash: '0'.repeat(64) }] });
    expect(toRecordDocument(record, 1).media[0]?.blockhash).to.equal('0'.repeat(64));
  });

  it('makes a queued submission due at once, and maps it back to the queue record', () => {
    const submission = makeSubmission();
    const now = Date.UTC(2026, 10, 21, 8, 30);
    const document = newSubmissionDocument('sub_x', 'bot', submission, now);
    expect(document).to.deep.include({ _id: 'sub_x', status: 'queued', attempts: 0, dueAt: now, leaseOwner: null, leaseUntil: null });
    expect(fromSubmissionDocument(document)).to.deep.equal({
      submissionId: 'sub_x',
      tokenName: 'bot',
      status: 'queued',
      submission,
      submittedAt: '2026-11-21T08:30:00.000Z',
      updatedAt: '2026-11-21T08:30:00.000Z',
      attempts: 0,
      checks: [],
      recordIds: [],
      duplicateOf: null,
      reason: null,
      reviews: [],
      batchId: null,
    });
    // A document written before reviews and batches existed reads as having none.
    const { reviews: _reviews, batchId: _batchId, ...older } = document;
    expect(fromSubmissionDocument(older)).to.deep.include({ reviews: [], batchId: null });
  });

  it('reads an idempotency key as the ids its first request created, also one that kept the answer text', () => {
    const createdAt = new Date();
    expect(idempotentSubmissionIds({ tokenName: 'bot', key: 'k', requestSha256: 'a', submissionIds: ['sub_1', 'sub_2'], createdAt })).to.deep.equal(['sub_1', 'sub_2']);
    expect(idempotentSubmissionIds({ tokenName: 'bot', key: 'k', requestSha256: 'a', body: '{"submissionId":"sub_1","status":"queued"}', createdAt })).to.deep.equal(['sub_1']);
    const batch = JSON.stringify({ accepted: 1, rejected: 1, items: [{ index: 0, submissionId: 'sub_3' }, { index: 1, status: 'rejected', errors: [] }] });
    expect(idempotentSubmissionIds({ tokenName: 'bot', key: 'k', requestSha256: 'a', body: batch, createdAt })).to.deep.equal(['sub_3']);
  });

  it('reads what became of a retired id', () => {
    expect(fromRecordFateDocument({ _id: 'svg-a-1', movedTo: 'svg-a-2', reason: 'r', at: 't', sourceUrl: 'https://github.com/a', title: { zh: '题', en: 'T' } })).to.deep.equal({ id: 'svg-a-1', status: 'moved', movedTo: 'svg-a-2', reason: 'r', at: 't' });
    expect(fromRecordFateDocument({ _id: 'svg-a-1', movedTo: null, reason: 'r', at: 't', sourceUrl: 'https://github.com/a', title: { zh: '题', en: 'T' } })).to.deep.include({ status: 'withdrawn', sourceUrl: 'https://github.com/a' });
  });

  it('never gives out a token secret hash', () => {
    const token = fromTokenDocument({ name: 'bot', secretSha256: 'd'.repeat(64), scopes: ['ingest'], createdAt: '2026-11-21T00:00:00.000Z', revokedAt: null });
    expect(token).to.deep.equal({ name: 'bot', scopes: ['ingest'], createdAt: '2026-11-21T00:00:00.000Z', revokedAt: null });
  });
});

describe('MongoDB change numbers', () => {
  it('gives a write the numbers just below and up to the counter after its increment', () => {
    expect(allocatedChangeNumbers(10, 3)).to.deep.equal([8, 9, 10]);
    expect(allocatedChangeNumbers(1, 1)).to.deep.equal([1]);
    expect(allocatedChangeNumbers(5, 0)).to.deep.equal([]);
  });

  it('refuses a counter that cannot follow from the increment', () => {
    expect(() => allocatedChangeNumbers(2, 3)).to.throw(RangeError);
    expect(() => allocatedChangeNumbers(2.5, 1)).to.throw(RangeError);
    expect(() => allocatedChangeNumbers(4, -1)).to.throw(RangeError);
  });

  it('splits large writes into transaction-sized batches, in order', () => {
    expect(inBatches([1, 2, 3, 4, 5], 2)).to.deep.equal([[1, 2], [3, 4], [5]]);
    expect(inBatches([], 2)).to.deep.equal([]);
    expect(() => inBatches([1], 0)).to.throw(RangeError);
  });
});

describe('MongoDB indexes', () => {
  it('declares the unique keys the adapters rely on and a 24-hour TTL for idempotency keys', () => {
    const unique = (collection: string) => (ARCHIVE_INDEXES[collection] ?? []).filter((index) => index.unique).map((index) => Object.keys(index.key).join('+'));
    expect(unique('records')).to.have.members(['id', 'sourceUrl+kind', 'seq']);
    expect(unique('removals')).to.deep.equal(['seq']);
    expect(unique('tokens')).to.have.members(['name', 'secretSha256']);
    expect(unique('idempotency_keys')).to.deep.equal(['tokenName+key']);
    const ttl = (ARCHIVE_INDEXES.idempotency_keys ?? []).find((index) => index.expireAfterSeconds !== undefined);
    expect(ttl?.key).to.deep.equal({ createdAt: 1 });
    expect(ttl?.expireAfterSeconds).to.equal(IDEMPOTENCY_RETENTION_SECONDS).and.equal(86_400);
    expect((ARCHIVE_INDEXES.submissions ?? []).map((index) => Object.keys(index.key).join('+'))).to.include.members(['status+dueAt+_id', 'status+leaseUntil']);
  });
});

describe('MongoDB topology', () => {
  it('accepts a replica set member or a mongos router and explains a standalone server', () => {
    expect(topologyProblem({ setName: 'rs0', isWritablePrimary: true } as { setName: string })).to.equal(undefined);
    expect(topologyProblem({ msg: 'isdbgrid' })).to.equal(undefined);
    expect(topologyProblem({})).to.match(/not a replica set member.*rs.initiate/);
  });
});
