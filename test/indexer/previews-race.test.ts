import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Publisher } from '../../indexer/publisher.ts';
import { publisherDependencies } from '../../indexer/run-publisher.ts';
import { CHANGES_READ_IN_WRITE } from '../../src/domain/ports.ts';
import type { RecordStore } from '../../src/domain/ports.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import type { SubmissionRecord } from '../../src/domain/submission.ts';
import { createLogger } from '../../src/logger.ts';
import { makeRecord, makeSubmission } from '../helpers/factories.ts';
import { lineDrawingPng } from '../helpers/image-server.ts';
import { intercepting, publishUntilFinal, publisherFixture } from '../helpers/publisher-runs.ts';

/**
 * Another publisher (another process) writing between this publisher's judging of a submission
 * and its write: the records it writes are put into the real store just before this publisher's
 * write transaction begins, the way a commit of another process lands in that gap. The queue,
 * store, image fetching and preview index are the real ones.
 */
describe('publisher: works published by another publisher between judging and writing', function () {
  this.timeout(30_000);
  const sharedPng = lineDrawingPng(6);
  const fixture = publisherFixture(async () => ({ '/shared.png': await sharedPng }));
  const { images } = fixture;

  /** Publishes one submission of /shared.png; `beforeWrite` runs before each of its write transactions, given how many came before. */
  async function publishWithWritesBetween(beforeWrite: (store: RecordStore, writes: number) => Promise<void>, maxAttempts: number): Promise<SubmissionRecord> {
    const { store, submissions } = fixture.backend().backend;
    const result = await submissions.enqueue([{ tokenName: 'maintainer', submission: makeSubmission({ sourceUrl: 'https://github.com/demo-owner/judged-then-raced', model: 'Raced-Preview-Model', media: [images.url('/shared.png')] }) }]);
    if (result.kind !== 'accepted') throw new Error(`not accepted: ${result.kind}`);
    const submissionId = result.records[0]?.submissionId ?? '';
    let writes = 0;
    const racedStore = intercepting(store, 'changeModelRecords', (original) => async (...args: unknown[]) => {
      await beforeWrite(store, writes);
      writes += 1;
      return original(...args);
    });
    const publisher = new Publisher(
      { ...publisherDependencies(fixture.backend().backend, { allowPrivate: true, mediaDir: join(fixture.dataDir(), 'media') }, createLogger('error', () => undefined)), store: racedStore },
      { owner: 'raced-publisher', concurrency: 1, leaseMs: 5000, maxAttempts, pollMs: 20, retryDelayMs: 20, uploadHosts: [images.host] },
    );
    return publishUntilFinal(publisher, submissions, submissionId);
  }

  const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

  it('judges a submission again when a work with the same preview was written after its judging, and settles it as a duplicate of that work', async () => {
    const digest = sha256(await sharedPng);
    const other: CanonicalRecord = makeRecord({ model: 'Other-Publisher-Model', sourceUrl: 'https://github.com/other-owner/same-picture', mediaStatus: 'local-media', media: [{ path: `${digest.slice(0, 2)}/${digest}.png`, width: 640, height: 480, sha256: digest }], submissionId: 'sub_other_publisher' });
    const settled = await publishWithWritesBetween(async (store, writes) => {
      if (writes === 0) await store.putRecords([other]);
    }, 3);
    expect(settled.status, settled.reason ?? '').to.equal('duplicate');
    expect(settled.duplicateOf).to.equal(other.id);
    expect(settled.recordIds).to.deep.equal([]);
    expect((await fixture.backend().backend.store.findByModel('Raced-Preview-Model')).map((record) => record.id)).to.deep.equal([]);
  });

  it('gives up after three judgings when each write found more new records than it compares, and says so', async () => {
    const settled = await publishWithWritesBetween(async (store) => {
      await store.putRecords(Array.from({ length: CHANGES_READ_IN_WRITE + 1 }, () => makeRecord()));
    }, 1);
    expect(settled.status).to.equal('needs_review');
    expect(settled.reason).to.equal('Not published: works were published by another publisher each of the 3 times this submission was about to be written, so its previews could not be compared with all of them. ');
    expect(await fixture.backend().backend.store.findByModel('Raced-Preview-Model')).to.deep.equal([]);
  });

  it('publishes once the writes in between stop, on a later attempt', async () => {
    const settled = await publishWithWritesBetween(async (store, writes) => {
      if (writes < 3) await store.putRecords(Array.from({ length: CHANGES_READ_IN_WRITE + 1 }, () => makeRecord()));
    }, 3);
    expect(settled.status, settled.reason ?? '').to.equal('published');
    expect(settled.attempts).to.equal(2);
  });
});
