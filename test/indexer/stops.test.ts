import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Publisher } from '../../indexer/publisher.ts';
import { publisherDependencies } from '../../indexer/run-publisher.ts';
import type { RecordStore, SubmissionQueue } from '../../src/domain/ports.ts';
import { FINAL_STATUSES } from '../../src/domain/submission.ts';
import type { SubmissionRecord } from '../../src/domain/submission.ts';
import { createLogger } from '../../src/logger.ts';
import { openTestBackend } from '../helpers/backend.ts';
import type { TestBackend } from '../helpers/backend.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';
import { temporaryDataDir } from '../helpers/server.ts';
import { makeSubmission } from '../helpers/factories.ts';

type Method = (...args: unknown[]) => unknown;

/** The object with one method replaced by what `around` makes of the original (bound to the object). */
function intercepting<T extends object>(target: T, method: keyof T & string, around: (original: Method) => Method): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const bound = (value as Method).bind(object);
      return property === method ? around(bound) : bound;
    },
  });
}

/** The object with one method that throws, as a stopping publisher would, when stopNow says so. */
function stoppingOnce<T extends object>(target: T, method: keyof T & string, stopNow: () => boolean, message: string): T {
  return intercepting(target, method, (original) => async (...args: unknown[]) => {
    if (stopNow()) throw new Error(message);
    return original(...args);
  });
}

/**
 * The publisher stopping on a submission's last allowed attempt. A stop is simulated the way a
 * crash looks to the queue: the attempt throws at a chosen step, its heartbeat ends and its lease
 * lapses. The queue, store and image fetching are the real ones.
 */
describe('publisher: a submission whose last allowed attempt stopped', function () {
  this.timeout(30_000);
  const images = new ImageServer();
  let dataDir = '';
  let testBackend: TestBackend;
  let counter = 0;

  before(async () => {
    await images.start();
    images.files.set('/drawing.png', { type: 'image/png', body: await lineDrawingPng(4) });
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
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs a publisher allowed one attempt, whose first attempt stops at the step `stopAt` wraps, until the submission is final. */
  async function publishWithOneStop(stopAt: (store: RecordStore, submissions: SubmissionQueue, stopped: () => boolean) => { store: RecordStore; submissions: SubmissionQueue }): Promise<SubmissionRecord> {
    const { store, submissions } = testBackend.backend;
    counter += 1;
    const result = await submissions.enqueue([
      {
        tokenName: 'maintainer',
        submission: makeSubmission({ sourceUrl: `https://github.com/demo-owner/stopping-work-${counter}`, model: 'Stop-Test-Model', media: [images.url('/drawing.png')] }),
      },
    ]);
    if (result.kind !== 'accepted') throw new Error(`not accepted: ${result.kind}`);
    const submissionId = result.records[0]?.submissionId ?? '';
    let stops = 0;
    const faulty = stopAt(store, submissions, () => {
      stops += 1;
      return stops === 1;
    });
    const publisher = new Publisher(
      { ...publisherDependencies(testBackend.backend, { allowPrivate: true, mediaDir: join(dataDir, 'media') }, createLogger('error', () => undefined)), ...faulty },
      { owner: 'stopping-publisher', concurrency: 1, leaseMs: 300, maxAttempts: 1, pollMs: 20, retryDelayMs: 20, uploadHosts: [images.host] },
    );
    publisher.start();
    try {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const status = await submissions.getSubmission(submissionId);
        if (status && FINAL_STATUSES.includes(status.status)) return status;
        if (Date.now() > deadline) throw new Error(`still ${status?.status}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await publisher.stop();
    }
  }

  it('is published, with its records, when the attempt stopped after writing them', async () => {
    const settled = await publishWithOneStop((store, submissions, stopNow) => ({
      store,
      submissions: stoppingOnce(submissions, 'complete', stopNow, 'stopped between writing the records and the status'),
    }));
    const written = (await testBackend.backend.store.findByModel('Stop-Test-Model')).filter((record) => record.submissionId === settled.submissionId);
    expect(written.map((record) => record.kind).sort()).to.deep.equal(['gallery', 'timeline']);
    expect(settled.status).to.equal('published');
    expect([...settled.recordIds].sort()).to.deep.equal(written.map((record) => record.id).sort());
    expect(settled.checks.map((check) => check.outcome)).to.deep.equal(['pass', 'pass', 'pass', 'pass', 'pass']);
    expect(settled.attempts).to.equal(2);
  });

  it('goes to needs_review, with nothing published, when the attempt stopped before writing', async () => {
    const settled = await publishWithOneStop((store, submissions, stopNow) => ({
      store: stoppingOnce(store, 'changeModelRecords', stopNow, 'stopped before writing the records'),
      submissions,
    }));
    expect(settled.status).to.equal('needs_review');
    expect(settled.reason).to.match(/stopped 1 time while checking/);
    expect(settled.recordIds).to.deep.equal([]);
    expect((await testBackend.backend.store.findByModel('Stop-Test-Model')).filter((record) => record.submissionId === settled.submissionId)).to.deep.equal([]);
  });

  it('keeps the reason and checks of an earlier attempt that was retried, and does not call it a stop', async () => {
    const { store, submissions } = testBackend.backend;
    // The preview host answers 503 until the first attempt is sent back to the queue, then the drawing.
    images.files.set('/flaky.png', { status: 503, type: 'text/plain', body: 'later' });
    const result = await submissions.enqueue([{ tokenName: 'maintainer', submission: makeSubmission({ sourceUrl: 'https://github.com/demo-owner/retried-then-stopped', model: 'Stop-Test-Model', media: [images.url('/flaky.png')] }) }]);
    if (result.kind !== 'accepted') throw new Error(`not accepted: ${result.kind}`);
    const submissionId = result.records[0]?.submissionId ?? '';
    const retried = intercepting(submissions, 'retryLater', (original) => async (...args: unknown[]) => {
      const answer = await original(...args);
      images.files.set('/flaky.png', { type: 'image/png', body: await lineDrawingPng(4) });
      return answer;
    });
    let writes = 0;
    const publisher = new Publisher(
      { ...publisherDependencies(testBackend.backend, { allowPrivate: true, mediaDir: join(dataDir, 'media') }, createLogger('error', () => undefined)), submissions: retried, store: stoppingOnce(store, 'changeModelRecords', () => ++writes === 1, 'stopped before writing the records') },
      { owner: 'stopping-publisher', concurrency: 1, leaseMs: 300, maxAttempts: 2, pollMs: 20, retryDelayMs: 20, uploadHosts: [images.host] },
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
    expect(settled.status).to.equal('needs_review');
    expect(settled.reason).to.match(/^The publisher stopped while checking this submission \(crash or timeout\) in its last allowed attempt \(2\); the attempt before it was retried: .*flaky\.png/);
    expect(settled.checks.find((check) => check.name === 'images')?.outcome).to.equal('error');
  });
});
