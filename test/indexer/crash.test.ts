import { expect } from 'chai';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openBackend } from '../../src/backend.ts';
import type { Submission } from '../../src/domain/submission.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';
import { temporaryDataDir } from '../helpers/server.ts';

const WORKS = 40;

describe('crash safety: the publisher killed with SIGKILL in the middle of a batch', function () {
  this.timeout(120_000);

  it('brings every accepted submission to a final status and publishes none twice', async () => {
    const images = new ImageServer();
    await images.start();
    for (let seed = 1; seed <= WORKS; seed += 1) images.files.set(`/work-${seed}.png`, { type: 'image/png', body: await lineDrawingPng(1000 + seed) });
    const dataDir = temporaryDataDir();
    const backend = openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true });
    const env = {
      ...process.env,
      ARCHIVE_DATA_DIR: dataDir,
      ARCHIVE_UPLOAD_HOSTS: images.host,
      ARCHIVE_ALLOW_PRIVATE_MEDIA: '1',
      ARCHIVE_PUBLISHER_LEASE_MS: '1500',
      ARCHIVE_PUBLISHER_CONCURRENCY: '4',
      ARCHIVE_LOG_LEVEL: 'warn',
    };
    const startPublisher = (): ChildProcess => spawn(process.execPath, ['--import', 'tsx', 'indexer/main.ts'], { env, stdio: 'ignore' });
    try {
      const submissions: Submission[] = Array.from({ length: WORKS }, (_, i) => ({
        sourceUrl: `https://github.com/crash-demo/work-${i + 1}`,
        date: '2025-02-03',
        model: `Crash-Model-${Math.floor(i / 8)}`,
        author: 'Crash Demo',
        format: 'svg',
        title: { zh: `崩溃测试${i + 1}`, en: `Crash test ${i + 1}` },
        notes: { zh: '测试。', en: 'Test.' },
        media: [images.url(`/work-${i + 1}.png`)],
      }));
      const accepted = await backend.submissions.enqueue(submissions.map((submission) => ({ tokenName: 'crash', submission })));
      if (accepted.kind !== 'accepted') throw new Error('not accepted');

      const settledCount = async (): Promise<number> => {
        const counts = await backend.submissions.countByStatus();
        return (counts.published ?? 0) + (counts.duplicate ?? 0) + (counts.needs_review ?? 0);
      };
      for (let kill = 0; kill < 3; kill += 1) {
        const publisher = startPublisher();
        const before = await settledCount();
        const deadline = Date.now() + 30_000;
        while ((await settledCount()) < Math.min(WORKS, before + 5) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
        publisher.kill('SIGKILL');
        await new Promise((resolve) => publisher.once('exit', resolve));
      }
      const last = startPublisher();
      const deadline = Date.now() + 60_000;
      while ((await settledCount()) < WORKS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      last.kill('SIGTERM');
      await new Promise((resolve) => last.once('exit', resolve));

      const counts = await backend.submissions.countByStatus();
      expect(counts, JSON.stringify(counts)).to.deep.equal({ published: WORKS });
      const recordIds = new Set<string>();
      let records = 0;
      for await (const record of backend.store.streamRecords()) {
        records += 1;
        recordIds.add(`${record.sourceUrl} ${record.kind}`);
      }
      // One gallery record per work and one timeline record per model label: nothing twice.
      expect(records).to.equal(WORKS + 5);
      expect(recordIds.size).to.equal(records);
      for (const record of accepted.records) {
        const settled = await backend.submissions.getSubmission(record.submissionId);
        expect(settled?.status).to.equal('published');
        const [galleryId, timelineId] = settled?.recordIds ?? [];
        expect((await backend.store.getRecord(galleryId ?? ''))?.kind).to.equal('gallery');
        // A timeline record moves to an earlier work of the same model when one is published later.
        if (timelineId && !(await backend.store.getRecord(timelineId))) {
          const model = (await backend.store.getRecord(galleryId ?? ''))?.model ?? '';
          expect((await backend.store.findByModel(model)).filter((other) => other.kind === 'timeline')).to.have.length(1);
        }
      }
      // Each model's timeline record belongs to its earliest work by (date, id).
      for (let model = 0; model < 5; model += 1) {
        const works = await backend.store.findByModel(`Crash-Model-${model}`);
        const galleries = works.filter((work) => work.kind === 'gallery').sort((a, b) => (a.id < b.id ? -1 : 1));
        const timeline = works.filter((work) => work.kind === 'timeline');
        expect(timeline).to.have.length(1);
        expect(timeline[0]?.submissionId).to.equal(galleries[0]?.submissionId);
      }
      expect(await backend.search.count()).to.equal(records);
    } finally {
      await backend.close();
      await images.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
