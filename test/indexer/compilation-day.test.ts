import { expect } from 'chai';
import { join } from 'node:path';
import { Publisher } from '../../indexer/publisher.ts';
import { publisherDependencies } from '../../indexer/run-publisher.ts';
import { createLogger } from '../../src/logger.ts';
import { lineDrawingPng } from '../helpers/image-server.ts';
import { makeSubmission } from '../helpers/factories.ts';
import { publishUntilFinal, publisherFixture } from '../helpers/publisher-runs.ts';

/**
 * A record's compilation date (`updated`) is the UTC day it is written: a client syncing with
 * `since=` the day its sync started must find it. A submission checked before midnight and
 * written after it (its previews can take seconds to load) is dated the day it was written.
 */
describe('publisher: the compilation date of a record written after midnight', function () {
  this.timeout(30_000);
  const fixture = publisherFixture(async () => ({ '/midnight.png': await lineDrawingPng(7) }));

  it('is the day of the write, not the day the submission was checked', async () => {
    const { store, submissions } = fixture.backend().backend;
    const result = await submissions.enqueue([
      { tokenName: 'maintainer', submission: makeSubmission({ sourceUrl: 'https://github.com/demo-owner/midnight-work', model: 'Midnight-Model', date: '2026-11-20', media: [fixture.images.url('/midnight.png')] }) },
    ]);
    if (result.kind !== 'accepted') throw new Error(`not accepted: ${result.kind}`);
    const submissionId = result.records[0]?.submissionId ?? '';
    // Each reading of the clock is a second later: checked at 23:59:59, written in the next day.
    let seconds = 0;
    const now = (): Date => new Date(Date.UTC(2026, 10, 26, 23, 59, 59 + seconds++));
    const publisher = new Publisher(
      publisherDependencies(fixture.backend().backend, { allowPrivate: true, mediaDir: join(fixture.dataDir(), 'media') }, createLogger('error', () => undefined)),
      { owner: 'midnight-publisher', concurrency: 1, leaseMs: 5000, maxAttempts: 1, pollMs: 20, retryDelayMs: 20, uploadHosts: [fixture.images.host], now },
    );
    const settled = await publishUntilFinal(publisher, submissions, submissionId);
    expect(settled.status, settled.reason ?? '').to.equal('published');
    expect(seconds, 'the clock read at the check and again at the write').to.be.at.least(2);
    const written = (await store.findByModel('Midnight-Model')).filter((record) => record.submissionId === submissionId);
    expect(written.map((record) => [record.kind, record.updated]).sort()).to.deep.equal([
      ['gallery', '2026-11-27'],
      ['timeline', '2026-11-27'],
    ]);
    expect((await store.catalogState()).updated).to.equal('2026-11-27');
  });
});
