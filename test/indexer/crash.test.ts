import { expect } from 'chai';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import type { Backend } from '../../src/backend.ts';
import { FORMATS } from '../../src/domain/record.ts';
import type { Submission } from '../../src/domain/submission.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';
import { openTestBackend } from '../helpers/backend.ts';
import { processIndexPrefix, searchEnvironment, startServerProcess } from '../helpers/server-process.ts';
import type { ServerProcess } from '../helpers/server-process.ts';
import { temporaryDataDir } from '../helpers/server.ts';

const FINAL_STATUSES = ['published', 'duplicate', 'needs_review'];

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A seeded generator (mulberry32), so a failing run can be repeated with CRASH_SEED. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** A made-up word of 8 letters per work, far (in edits) from every other work's word, so a search for it finds that work. */
function titleWord(work: number): string {
  const hex = createHash('sha256').update(`crash-work-${work}`).digest('hex').slice(0, 8);
  return [...hex].map((digit) => String.fromCharCode(97 + parseInt(digit, 16))).join('');
}

function isoDay(offsetDays: number): string {
  return new Date(Date.UTC(2025, 0, 1) + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

async function settledCount(backend: Backend): Promise<number> {
  const counts = await backend.submissions.countByStatus();
  return FINAL_STATUSES.reduce((sum, status) => sum + (counts[status] ?? 0), 0);
}

async function waitUntilSettled(backend: Backend, expected: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await settledCount(backend)) < expected && Date.now() < deadline) await sleep(100);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function integrityCheck(databaseFile: string): unknown {
  const db = new Database(databaseFile, { readonly: true });
  try {
    return db.pragma('integrity_check', { simple: true });
  } finally {
    db.close();
  }
}

/**
 * What must hold after any number of crashes: every submission published once, one gallery record
 * per work, one timeline record per model label belonging to its earliest work by (date, id),
 * nothing else in the store, and the search index holding exactly the store's records.
 */
async function expectPublishedExactlyOnce(backend: Backend, submissionIds: readonly string[], models: readonly string[]): Promise<void> {
  const counts = await backend.submissions.countByStatus();
  expect(counts, JSON.stringify(counts)).to.deep.equal({ published: submissionIds.length });
  const records = [];
  for await (const record of backend.store.streamRecords()) records.push(record);
  const galleries = records.filter((record) => record.kind === 'gallery');
  expect(galleries).to.have.length(submissionIds.length);
  expect(records).to.have.length(submissionIds.length + models.length);
  expect(new Set(records.map((record) => `${record.sourceUrl} ${record.kind}`)).size).to.equal(records.length);
  expect(new Set(galleries.map((record) => record.submissionId)).size, 'one gallery record per submission').to.equal(galleries.length);
  for (const submissionId of submissionIds) {
    const settled = await backend.submissions.getSubmission(submissionId);
    const galleryId = settled?.recordIds[0] ?? '';
    const gallery = await backend.store.getRecord(galleryId);
    expect(gallery?.kind, submissionId).to.equal('gallery');
    expect(gallery?.submissionId).to.equal(submissionId);
  }
  for (const model of models) {
    const works = await backend.store.findByModel(model);
    const earliest = works.filter((work) => work.kind === 'gallery').sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? -1 : 1))[0];
    const timeline = works.filter((work) => work.kind === 'timeline');
    expect(timeline, model).to.have.length(1);
    expect(timeline[0]?.submissionId, model).to.equal(earliest?.submissionId);
  }
  expect(await backend.search.count()).to.equal(records.length);
}

describe('crash safety: the publisher killed with SIGKILL in the middle of a batch', function () {
  it('brings every accepted submission to a final status and publishes none twice (npm run indexer)', async function () {
    this.timeout(60_000);
    const works = 40;
    const images = new ImageServer();
    await images.start();
    for (let seed = 1; seed <= works; seed += 1) images.files.set(`/work-${seed}.png`, { type: 'image/png', body: await lineDrawingPng(1000 + seed) });
    const dataDir = temporaryDataDir();
    // The store and search index the indexer processes use (with Meilisearch, under this folder's prefix).
    const opened = await openTestBackend(dataDir, { indexPrefix: processIndexPrefix(dataDir) });
    const { backend } = opened;
    const env = {
      ...process.env,
      ...searchEnvironment(dataDir, {}),
      ARCHIVE_DATA_DIR: dataDir,
      ARCHIVE_UPLOAD_HOSTS: images.host,
      ARCHIVE_ALLOW_PRIVATE_MEDIA: '1',
      ARCHIVE_PUBLISHER_LEASE_MS: '1500',
      ARCHIVE_PUBLISHER_CONCURRENCY: '4',
      ARCHIVE_LOG_LEVEL: 'warn',
    };
    let publisherErrors = '';
    const startPublisher = (): ChildProcess => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'indexer/main.ts'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr?.on('data', (chunk: Buffer) => (publisherErrors += chunk.toString()));
      return child;
    };
    try {
      const submissions: Submission[] = Array.from({ length: works }, (_, i) => ({
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

      for (let kill = 0; kill < 3; kill += 1) {
        const publisher = startPublisher();
        const before = await settledCount(backend);
        const deadline = Date.now() + 30_000;
        while ((await settledCount(backend)) < Math.min(works, before + 5) && Date.now() < deadline) await sleep(25);
        publisher.kill('SIGKILL');
        await new Promise((resolve) => publisher.once('exit', resolve));
      }
      const last = startPublisher();
      await waitUntilSettled(backend, works, 40_000);
      last.kill('SIGTERM');
      await new Promise((resolve) => last.once('exit', resolve));
      expect(await settledCount(backend), publisherErrors).to.equal(works);
      await opened.syncSearch();

      await expectPublishedExactlyOnce(
        backend,
        accepted.records.map((record) => record.submissionId),
        Array.from({ length: 5 }, (_, model) => `Crash-Model-${model}`),
      );
      expect(integrityCheck(join(dataDir, 'archive.sqlite'))).to.equal('ok');
    } finally {
      await opened.destroy();
      await images.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('survives SIGKILLs of the whole server (npm start) at random moments while 200 works submitted over HTTP are published', async function () {
    // Bounded: at most ~25 s of publishing on a busy machine, 5 starts of the server, 60 s of settling at most.
    this.timeout(120_000);
    const works = 200;
    const batchSize = 50;
    const models = Array.from({ length: 25 }, (_, model) => `Crash-Server-Model-${model}`);
    const seed = Number(process.env.CRASH_SEED ?? 20261122);
    const random = seededRandom(seed);
    const context = `CRASH_SEED=${seed}`;

    const images = new ImageServer();
    await images.start();
    for (let work = 1; work <= works; work += 1) images.files.set(`/server-work-${work}.png`, { type: 'image/png', body: await lineDrawingPng(7000 + work) });
    const dataDir = temporaryDataDir();
    const databaseFile = join(dataDir, 'archive.sqlite');
    const opened = await openTestBackend(dataDir, { indexPrefix: processIndexPrefix(dataDir) });
    const { backend } = opened;
    const secret = generateSecret();
    await backend.tokens.createToken('crash-bot', ['ingest'], secretSha256(secret));
    const serverEnv = {
      ARCHIVE_UPLOAD_HOSTS: images.host,
      ARCHIVE_ALLOW_PRIVATE_MEDIA: '1',
      ARCHIVE_PUBLISHER_LEASE_MS: '1500',
      ARCHIVE_PUBLISHER_CONCURRENCY: '4',
      ARCHIVE_RATE_LIMIT_READS: '0',
      ARCHIVE_RATE_LIMIT_INGEST: '0',
    };
    // Works are spread over dates so that later arrivals are often a model's earlier work and take over its timeline record.
    const submissions: Submission[] = Array.from({ length: works }, (_, i) => ({
      sourceUrl: `https://github.com/crash-server/work-${i + 1}`,
      date: isoDay((i * 37) % 300),
      model: models[i % models.length] ?? '',
      author: 'Crash Server',
      format: FORMATS[i % FORMATS.length] ?? 'svg',
      title: { zh: `崩溃作品 ${titleWord(i + 1)}`, en: `Crash work ${titleWord(i + 1)}` },
      notes: { zh: '测试。', en: 'Test.' },
      media: [images.url(`/server-work-${i + 1}.png`)],
    }));
    const headers = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json', 'User-Agent': 'crash-test/1.0' };
    const submitBatch = async (server: ServerProcess, batch: number): Promise<string[]> => {
      const response = await fetch(`${server.url}/api/v1/ingest/batch`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': `crash-batch-${batch}` },
        body: JSON.stringify({ submissions: submissions.slice(batch * batchSize, (batch + 1) * batchSize) }),
      });
      const body = (await response.json()) as { accepted: number; items: { submissionId?: string }[] };
      expect(response.status, `${context} ${JSON.stringify(body)}`).to.equal(202);
      expect(body.accepted).to.equal(batchSize);
      return body.items.map((item) => item.submissionId ?? '');
    };

    const acceptedIds: string[] = [];
    const unsettledAtKill: number[] = [];
    let server: ServerProcess | undefined;
    const killServer = async (): Promise<void> => {
      await server?.stop('SIGKILL');
      const counts = await backend.submissions.countByStatus();
      unsettledAtKill.push((counts.queued ?? 0) + (counts.processing ?? 0));
      // The file as a crash leaves it must already be sound, before any restart repairs anything.
      expect(integrityCheck(databaseFile), context).to.equal('ok');
    };
    /**
     * Kills the server at a random point of the batch it is publishing: once a random number of
     * its works (at least one, and at least five short of all) are final. Waiting for progress
     * rather than for a random time keeps the kill inside the batch on a fast machine too.
     */
    const killMidBatch = async (settledBefore: number): Promise<void> => {
      const target = settledBefore + 1 + Math.floor(random() * (batchSize - 5));
      const deadline = Date.now() + 30_000;
      while ((await settledCount(backend)) < target && Date.now() < deadline) await sleep(10);
      await killServer();
    };
    try {
      // Batches 1–3: each sent to a freshly started server, which is killed at a random point while it publishes.
      // The first runs as npm start does by default, a primary (schema, publisher) with an HTTP worker:
      // killing the primary must not leave the worker running on the data folder.
      for (let batch = 0; batch < 3; batch += 1) {
        server = await startServerProcess(dataDir, batch === 0 ? { ...serverEnv, ARCHIVE_WORKERS: '1', ARCHIVE_LOG_LEVEL: 'info' } : serverEnv);
        const settledBefore = await settledCount(backend);
        acceptedIds.push(...(await submitBatch(server, batch)));
        await killMidBatch(settledBefore);
        if (batch === 0) {
          const primary = server.child.pid;
          const workers = server
            .output()
            .split('\n')
            .flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as { msg?: string; pid?: number }] : []))
            .filter((entry) => entry.msg === 'listening' && entry.pid !== primary)
            .map((entry) => entry.pid ?? 0);
          expect(workers, server.output()).to.have.length(1);
          const deadline = Date.now() + 15_000;
          while (workers.some(isRunning) && Date.now() < deadline) await sleep(100);
          expect(workers.filter(isRunning), 'HTTP workers still running after their primary was killed').to.deep.equal([]);
        }
      }
      // Batch 4: the kill races the request itself; the client retries with the same Idempotency-Key,
      // and whether the first attempt was stored or not, the batch exists once.
      server = await startServerProcess(dataDir, serverEnv);
      const racing = submitBatch(server, 3).catch(() => undefined);
      await sleep(Math.floor(random() * 40));
      await killServer();
      await racing;
      server = await startServerProcess(dataDir, serverEnv);
      const settledBeforeLast = await settledCount(backend);
      acceptedIds.push(...(await submitBatch(server, 3)));
      await killMidBatch(settledBeforeLast);

      const survivor = await startServerProcess(dataDir, serverEnv);
      server = survivor;
      await waitUntilSettled(backend, works, 60_000);
      expect(unsettledAtKill.filter((unsettled) => unsettled > 0).length, `${context} unsettled at each kill: ${unsettledAtKill.join(', ')}`).to.be.at.least(4);
      expect(new Set(acceptedIds).size).to.equal(works);
      // With a search engine that follows the store, the survivor's index sync may still be behind its publisher.
      await opened.syncSearch();

      // Over the API, with the token that sent them: every accepted submission is final.
      let resumed = 0;
      for (const submissionId of acceptedIds) {
        const status = (await (await fetch(`${survivor.url}/api/v1/ingest/${submissionId}`, { headers })).json()) as { status: string; attempts: number };
        expect(FINAL_STATUSES, `${context} ${submissionId}`).to.include(status.status);
        if (status.attempts > 1) resumed += 1;
      }
      // Kills landed on submissions in hand, which were claimed again once their lease expired.
      expect(resumed, context).to.be.greaterThan(0);
      // Search and store agree: list totals with filters only equal the store's counts, and every record is found by id and by its title word.
      const storeCounts = new Map<string, number>();
      const stored = [];
      for await (const record of backend.store.streamRecords()) {
        stored.push(record);
        storeCounts.set(record.format, (storeCounts.get(record.format) ?? 0) + 1);
        storeCounts.set(record.kind, (storeCounts.get(record.kind) ?? 0) + 1);
      }
      const total = async (query: string): Promise<number> => ((await (await fetch(`${survivor.url}${query}`)).json()) as { total: number }).total;
      expect(await total('/api/v1/specimens?lang=en')).to.equal(stored.length);
      for (const format of FORMATS) expect(await total(`/api/v1/specimens?format=${format}`), format).to.equal(storeCounts.get(format) ?? 0);
      expect(await total('/api/v1/specimens?kind=gallery')).to.equal(storeCounts.get('gallery'));
      expect(await total('/api/v1/timeline')).to.equal(storeCounts.get('timeline'));
      for (const record of stored) {
        expect((await fetch(`${survivor.url}/api/v1/specimens/${record.id}?lang=en`)).status, record.id).to.equal(200);
        const word = record.title.en.split(' ').at(-1) ?? '';
        const found = (await (await fetch(`${survivor.url}/api/v1/specimens?q=${word}&lang=en&limit=50`)).json()) as { items: { id: string }[] };
        expect(found.items.map((item) => item.id), `${context} search for ${word}`).to.include(record.id);
      }
      expect(await survivor.stop('SIGTERM'), survivor.output()).to.equal(0);

      await expectPublishedExactlyOnce(backend, acceptedIds, models);
      expect(integrityCheck(databaseFile)).to.equal('ok');
    } finally {
      await server?.stop('SIGKILL');
      await opened.destroy();
      await images.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
