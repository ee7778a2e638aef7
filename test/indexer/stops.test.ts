import { expect } from 'chai';
import { join } from 'node:path';
import { Publisher } from '../../indexer/publisher.ts';
import { publisherDependencies } from '../../indexer/run-publisher.ts';
import type { RecordStore, SubmissionQueue } from '../../src/domain/ports.ts';
import type { SubmissionRecord } from '../../src/domain/submission.ts';
import { createLogger } from '../../src/logger.ts';
import { lineDrawingPng } from '../helpers/image-server.ts';
import { makeSubmission } from '../helpers/factories.ts';
import { intercepting, publishUntilFinal, publisherFixture } from '../helpers/publisher-runs.ts';

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
  const fixture = publisherFixture(async () => ({ '/drawing.png': await lineDrawingPng(4) }));
  const { images } = fixture;
  let counter = 0;

  /** Runs a publisher allowed one attempt, whose first attempt stops at the step `stopAt` wraps, until the submission is final. */
  async function publishWithOneStop(stopAt: (store: RecordStore, submissions: SubmissionQueue, stopped: () => boolean) => { store: RecordStore; submissions: SubmissionQueue }): Promise<SubmissionRecord> {
    const { store, submissions } = fixture.backend().backend;
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
      { ...publisherDependencies(fixture.backend().backend, { allowPrivate: true, mediaDir: join(fixture.dataDir(), 'media') }, createLogger('error', () => undefined)), ...faulty },
      { owner: 'stopping-publisher', concurrency: 1, leaseMs: 300, maxAttempts: 1, pollMs: 20, retryDelayMs: 20, uploadHosts: [images.host] },
    );
    return publishUntilFinal(publisher, submissions, submissionId);
  }

  it('is published, with its records, when the attempt stopped after writing them', async () => {
    const settled = await publishWithOneStop((store, submissions, stopNow) => ({
      store,
      submissions: stoppingOnce(submissions, 'complete', stopNow, 'stopped between writing the records and the status'),
    }));
    const written = (await fixture.backend().backend.store.findByModel('Stop-Test-Model')).filter((record) => record.submissionId === settled.submissionId);
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
    expect((await fixture.backend().backend.store.findByModel('Stop-Test-Model')).filter((record) => record.submissionId === settled.submissionId)).to.deep.equal([]);
  });

  it('keeps the reason and checks of an earlier attempt that was retried, and does not call it a stop', async () => {
    const { store, submissions } = fixture.backend().backend;
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
      { ...publisherDependencies(fixture.backend().backend, { allowPrivate: true, mediaDir: join(fixture.dataDir(), 'media') }, createLogger('error', () => undefined)), submissions: retried, store: stoppingOnce(store, 'changeModelRecords', () => ++writes === 1, 'stopped before writing the records') },
      { owner: 'stopping-publisher', concurrency: 1, leaseMs: 300, maxAttempts: 2, pollMs: 20, retryDelayMs: 20, uploadHosts: [images.host] },
    );
    const settled = await publishUntilFinal(publisher, submissions, submissionId);
    expect(settled.status).to.equal('needs_review');
    expect(settled.reason).to.match(/^The publisher stopped while checking this submission \(crash or timeout\) in its last allowed attempt \(2\); the attempt before it was retried: .*flaky\.png/);
    expect(settled.checks.find((check) => check.name === 'images')?.outcome).to.equal('error');
  });
});
