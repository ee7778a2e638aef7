import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Publisher } from '../../indexer/publisher.ts';
import { publisherDependencies } from '../../indexer/run-publisher.ts';
import { CHANGES_READ_IN_WRITE } from '../../src/domain/ports.ts';
import type { RecordStore } from '../../src/domain/ports.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import { FINAL_STATUSES } from '../../src/domain/submission.ts';
import type { SubmissionRecord } from '../../src/domain/submission.ts';
import { createLogger } from '../../src/logger.ts';
import { openTestBackend } from '../helpers/backend.ts';
import type { TestBackend } from '../helpers/backend.ts';
import { makeRecord, makeSubmission } from '../helpers/factories.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';
import { temporaryDataDir } from '../helpers/server.ts';

/**
 * Another publisher (another process) writing between this publisher's judging of a submission
 * and its write: the records it writes are put into the real store just before this publisher's
 * write transaction begins, the way a commit of another process lands in that gap. The queue,
 * store, image fetching and preview index are the real ones.
 */
describe('publisher: works published by another publisher between judging and writing', function () {
  this.timeout(30_000);
  const images = new ImageServer();
  let dataDir = '';
  let testBackend: TestBackend;
  let shared: Buffer;

  before(async () => {
    await images.start();
    shared = await lineDrawingPng(6);
    images.files.set('/shared.png', { type: 'image/png', body: shared });
  });
  after(async () => {
    await images.stop();
  });
  beforeEach(async () => {
    dataDir = temporaryDataDir();
    testBackend = await openTestBackend(dataDir);
  });
  afterEach(async () => {
    await testBackend.destroy();
  });

  /** Publishes one submission of /shared.png; `beforeWrite` runs before each of its write transactions, given how many came before. */
  async function publishWithWritesBetween(beforeWrite: (store: RecordStore, writes: number) => Promise<void>, maxAttempts: number): Promise<SubmissionRecord> {
    const { store, submissions } = testBackend.backend;
    const result = await submissions.enqueue([{ tokenName: 'maintainer', submission: makeSubmission({ sourceUrl: 'https://github.com/demo-owner/judged-then-raced', model: 'Raced-Preview-Model', media: [images.url('/shared.png')] }) }]);
    if (result.kind !== 'accepted') throw new Error(`not accepted: ${result.kind}`);
    const submissionId = result.records[0]?.submissionId ?? '';
    let writes = 0;
    const racedStore = new Proxy(store, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const bound = (value as (...args: unknown[]) => unknown).bind(object);
        if (property !== 'changeModelRecords') return bound;
        return async (...args: unknown[]) => {
          await beforeWrite(store, writes);
          writes += 1;
          return bound(...args);
        };
      },
    });
    const publisher = new Publisher(
      { ...publisherDependencies(testBackend.backend, { allowPrivate: true, mediaDir: join(dataDir, 'media') }, createLogger('error', () => undefined)), store: racedStore },
      { owner: 'raced-publisher', concurrency: 1, leaseMs: 5000, maxAttempts, pollMs: 20, retryDelayMs: 20, uploadHosts: [images.host] },
    );
    publisher.start();
    let settled: SubmissionRecord | undefined;
    try {
      const deadline = Date.now() + 15_000;
      while (!settled || !FINAL_STATUSES.includes(settled.status)) {
        if (Date.now() > deadline) throw new Error(`still ${settled?.status}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
        settled = await submissions.getSubmission(submissionId);
      }
    } finally {
      await publisher.stop();
    }
    return settled;
  }

  const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

  it('judges a submission again when a work with the same preview was written after its judging, and settles it as a duplicate of that work', async () => {
    const digest = sha256(shared);
    const other: CanonicalRecord = makeRecord({ model: 'Other-Publisher-Model', sourceUrl: 'https://github.com/other-owner/same-picture', mediaStatus: 'local-media', media: [{ path: `${digest.slice(0, 2)}/${digest}.png`, width: 640, height: 480, sha256: digest }], submissionId: 'sub_other_publisher' });
    const settled = await publishWithWritesBetween(async (store, writes) => {
      if (writes === 0) await store.putRecords([other]);
    }, 3);
    expect(settled.status, settled.reason ?? '').to.equal('duplicate');
    expect(settled.duplicateOf).to.equal(other.id);
    expect(settled.recordIds).to.deep.equal([]);
    expect((await testBackend.backend.store.findByModel('Raced-Preview-Model')).map((record) => record.id)).to.deep.equal([]);
  });

  it('gives up after three judgings when each write found more new records than it compares, and says so', async () => {
    const settled = await publishWithWritesBetween(async (store) => {
      await store.putRecords(Array.from({ length: CHANGES_READ_IN_WRITE + 1 }, () => makeRecord()));
    }, 1);
    expect(settled.status).to.equal('needs_review');
    expect(settled.reason).to.equal('Not published: works were published by another publisher each of the 3 times this submission was about to be written, so its previews could not be compared with all of them. ');
    expect(await testBackend.backend.store.findByModel('Raced-Preview-Model')).to.deep.equal([]);
  });

  it('publishes once the writes in between stop, on a later attempt', async () => {
    const settled = await publishWithWritesBetween(async (store, writes) => {
      if (writes < 3) await store.putRecords(Array.from({ length: CHANGES_READ_IN_WRITE + 1 }, () => makeRecord()));
    }, 3);
    expect(settled.status, settled.reason ?? '').to.equal('published');
    expect(settled.attempts).to.equal(2);
  });
});
