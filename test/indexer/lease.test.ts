import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Publisher } from '../../indexer/publisher.ts';
import { createMediaStore, createPreviewLoader } from '../../indexer/preview-loader.ts';
import { SourceTable } from '../../src/domain/sources.ts';
import type { SubmissionQueue } from '../../src/domain/ports.ts';
import { createLogger } from '../../src/logger.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import type { SqliteDatabase } from '../../src/store/sqlite/database.ts';
import { migrateSchema } from '../../src/store/sqlite/schema.ts';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-store.ts';
import { SqliteSubmissionQueue } from '../../src/store/sqlite/sqlite-submissions.ts';
import { makeSubmission } from '../helpers/factories.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';
import { temporaryDataDir } from '../helpers/server.ts';

const LEASE_MS = 600;

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A publisher that loses its lease in the middle of an attempt, over the real embedded store and
 * queue, with its preview on a slow media host so the attempt is still checking when it happens.
 */
describe('publisher: an attempt that loses its lease', function () {
  this.timeout(20_000);
  const images = new ImageServer();
  let dataDir: string;
  let db: SqliteDatabase;
  let store: SqliteRecordStore;
  /** How far the queue's clock is ahead of real time: a publisher process stalled this long. */
  let stalledMs: number;
  let queue: SqliteSubmissionQueue;
  let logs: { msg?: string }[];
  let running: Publisher | undefined;

  before(async () => {
    await images.start();
    images.files.set('/slow.png', { type: 'image/png', body: await lineDrawingPng(11), delayMs: 1500 });
  });
  after(async () => images.stop());

  beforeEach(() => {
    dataDir = temporaryDataDir();
    db = openDatabase(join(dataDir, 'archive.sqlite'));
    migrateSchema(db);
    store = new SqliteRecordStore(db, new SqliteSearchIndex(db));
    stalledMs = 0;
    queue = new SqliteSubmissionQueue(db, () => Date.now() + stalledMs);
    logs = [];
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function startPublisher(submissions: SubmissionQueue): Publisher {
    running = new Publisher(
      {
        store,
        submissions,
        previews: createPreviewLoader({ allowPrivate: true }),
        media: createMediaStore(join(dataDir, 'media')),
        sources: async () => new SourceTable(await store.listSources()),
        logger: createLogger('info', (line) => logs.push(JSON.parse(line) as { msg?: string })),
      },
      { owner: 'host:42', concurrency: 1, leaseMs: LEASE_MS, maxAttempts: 3, pollMs: 20, retryDelayMs: 20, uploadHosts: [images.host] },
    );
    running.start();
    return running;
  }

  async function enqueue(): Promise<string> {
    const result = await queue.enqueue([{ tokenName: 'bot', submission: makeSubmission({ sourceUrl: 'https://github.com/demo-owner/slow-work', model: 'Lease-Test-Model', media: [images.url('/slow.png')] }) }]);
    if (result.kind !== 'accepted') throw new Error(result.kind);
    return result.records[0]?.submissionId ?? '';
  }

  const stopped = (): boolean => logs.some((line) => line.msg === 'lease lost; this attempt stopped');
  /** The first attempt is over: stopped, or (what must not happen) it went on to write records or an outcome. */
  const attemptOver = async (): Promise<boolean> =>
    stopped() || logs.some((line) => line.msg === 'submission settled' || line.msg === 'lease lost before the outcome was recorded') || (await store.findByModel('Lease-Test-Model')).length > 0;

  it('stops without writing records or an outcome once another claim holds the submission', async () => {
    const id = await enqueue();
    const publisher = startPublisher(queue);
    await until(() => (images.hits.get('/slow.png') ?? 0) > 0, 'the publisher to fetch the preview');
    // The queue sees the publisher's lease lapse (a stalled process), and another publisher claims the submission.
    stalledMs = 10 * LEASE_MS;
    const other = await queue.claimNext('host:7', 60_000, 3);
    expect(other?.submissionId).to.equal(id);
    await until(attemptOver, 'the attempt to end');
    await publisher.stop();
    expect((await store.findByModel('Lease-Test-Model')).map((record) => record.id)).to.deep.equal([]);
    expect(stopped()).to.equal(true);
    expect(await queue.getSubmission(id)).to.deep.include({ status: 'processing', attempts: 2 });
    expect(await queue.complete(id, other?.claimToken ?? '', { status: 'needs_review', checks: [], recordIds: [], duplicateOf: null, reason: 'checked by hand' })).to.equal(true);
  });

  it('stops when no renewal succeeds before the lease ends', async () => {
    const id = await enqueue();
    const unreachable = new Proxy(queue, {
      get(target, property, receiver) {
        if (property === 'renewLease') return async () => Promise.reject(new Error('the database cannot be reached'));
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const publisher = startPublisher(unreachable);
    await until(attemptOver, 'the attempt to end');
    await publisher.stop();
    expect((await store.findByModel('Lease-Test-Model')).map((record) => record.id)).to.deep.equal([]);
    expect(stopped()).to.equal(true);
    // Every later claim stops the same way: the submission waits in the queue, never half published.
    expect((await queue.getSubmission(id))?.status).to.equal('processing');
  });
});
