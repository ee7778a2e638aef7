import { expect } from 'chai';
import { chmodSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';
import { startTestServer, waitForSubmission } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

interface Status {
  status: string;
  checks: { name: string; outcome: string }[];
  recordIds: string[];
  reason: string | null;
  attempts: number;
}

const LEASE_MS = 5_000;

/**
 * Makes the media folder refuse writes for real: read-only for an ordinary user; for root, whom
 * permissions do not stop, a regular file where the folder should be (mkdir fails for anyone).
 */
function refuseMediaWrites(mediaDir: string): void {
  rmSync(mediaDir, { recursive: true, force: true });
  if (process.getuid?.() === 0) {
    writeFileSync(mediaDir, 'not a folder');
    return;
  }
  mkdirSync(mediaDir);
  chmodSync(mediaDir, 0o555);
}

/** Mends what refuseMediaWrites did (again, if it was mended already). */
function allowMediaWrites(mediaDir: string): void {
  if (statSync(mediaDir).isFile()) {
    rmSync(mediaDir);
    mkdirSync(mediaDir);
  }
  chmodSync(mediaDir, 0o755);
}

describe('publisher: a media folder that cannot be written', function () {
  this.timeout(60_000);
  const images = new ImageServer();
  const secret = generateSecret();
  const reviewer = generateSecret();
  let server: TestServer;
  let mediaDir = '';

  before(async () => {
    await images.start();
    images.files.set('/drawing.png', { type: 'image/png', body: await lineDrawingPng(41) });
    server = await startTestServer({ publisher: { uploadHosts: [images.host], allowPrivateMedia: true, maxAttempts: 3, retryDelayMs: 1_000 } });
    await server.backend.tokens.createToken('maintainer', ['ingest'], secretSha256(secret));
    await server.backend.tokens.createToken('lin', ['ingest', 'review'], secretSha256(reviewer));
    mediaDir = join(server.dataDir, 'media');
    refuseMediaWrites(mediaDir);
  });

  after(async () => {
    allowMediaWrites(mediaDir);
    await server.close();
    await images.stop();
  });

  it('retries with back-off, saying why, then sends the submission to needs_review naming the fault; approved once mended, it is published', async () => {
    const started = performance.now();
    const response = await server.get('/api/v1/ingest', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secret}` },
      body: JSON.stringify({ sourceUrl: 'https://github.com/demo-owner/unwritable-media', date: '2025-04-01', model: 'Unwritable-Media-Model', author: 'Demo Owner', format: 'svg', title: { zh: '作品', en: 'Work' }, notes: { zh: '测试。', en: 'Test.' }, media: [images.url('/drawing.png')] }),
    });
    expect(response.status).to.equal(202);
    const { submissionId } = (await response.json()) as { submissionId: string };
    const fault = /could not store the preview files: (EACCES mkdir media\/[0-9a-f]{2} \(the media folder is not writable\)|ENOTDIR mkdir media(\/[0-9a-f]{2})? \(a file stands where the media folder or one of its folders should be\))/;

    // Back in the queue at once (the lease is not held until it lapses), with the cause as its reason.
    const retrying = await waitForSubmission<Status>(server, submissionId, secret, (status) => status.status === 'queued' && status.attempts === 1);
    expect(performance.now() - started).to.be.below(LEASE_MS);
    expect(retrying.reason).to.match(/^Retrying: /).and.match(fault);

    const stopped = await waitForSubmission<Status>(server, submissionId, secret);
    expect(stopped.status).to.equal('needs_review');
    expect(stopped.attempts).to.equal(3);
    expect(stopped.reason).to.match(fault).and.include('gave up after 3 attempts').and.not.include('stopped');
    expect(stopped.reason).not.to.include(server.dataDir);
    expect(stopped.checks.map((check) => check.outcome)).to.deep.equal(['pass', 'pass', 'pass', 'pass', 'pass']);
    // Two waits of 1 s and 2 s; a lease held to its end would add 5 s per attempt.
    expect(performance.now() - started).to.be.below(3_000 + LEASE_MS);
    const retried = server.logs.filter((line) => line.msg === 'submission retried later' && line.submissionId === submissionId);
    expect(retried.map((line) => line.delayMs)).to.deep.equal([1_000, 2_000]);
    expect(server.logs.filter((line) => line.msg === 'publishing failed')).to.deep.equal([]);

    allowMediaWrites(mediaDir);
    const review = await server.get(`/api/v1/ingest/${submissionId}/review`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${reviewer}` },
      body: JSON.stringify({ decision: 'approve', note: 'The media folder is writable again.' }),
    });
    expect(review.status).to.equal(202);
    const published = await waitForSubmission<Status>(server, submissionId, secret);
    expect(published.status, published.reason ?? '').to.equal('published');
  });
});
