/**
 * Publisher benchmark, run as a child of the runner with the HTTP server stopped: renders 3 × N
 * distinct line drawings, serves them from a loopback image server, queues N submissions in a
 * fresh embedded backend and runs the real publisher until every submission is final. Prints a
 * PublisherResult as JSON on stdout; the data folder is removed at the end.
 *
 * Environment: BENCH_SUBMISSIONS (100), BENCH_PUBLISHER_RUNS (runs in order, "concurrency[:models]"
 * comma-separated; default BENCH_PUBLISHER_CONCURRENCY (8) with 10 models), BENCH_PUBLISHER_TIMEOUT seconds per run (120).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { openBackend } from '../../src/backend.ts';
import type { Backend } from '../../src/backend.ts';
import { loadConfig } from '../../src/config.ts';
import { FINAL_STATUSES } from '../../src/domain/submission.ts';
import { createLogger } from '../../src/logger.ts';
import { storePreview, THUMBNAIL_SIZE } from '../../src/media/media-files.ts';
import { decodeAnalysisRaster, inspectImage, measureChannels } from '../../indexer/media/inspect-image.ts';
import { contentHash } from '../../indexer/media/perceptual-hash.ts';
import { fetchImage } from '../../indexer/media/safe-fetch.ts';
import { createPublisher } from '../../indexer/run-publisher.ts';
import type { PublisherResult, PublisherRun, StageTime } from './types.ts';
import { setting } from './settings.ts';
import { benchSubmission, closeServer, PREVIEWS_PER_SUBMISSION, previewUrl, renderPreviews, serve } from './works.ts';
import type { Preview } from './works.ts';

/** Distinct model labels by default: a mixed queue. */
const MODELS = 10;
/** Previews timed one at a time, stage by stage, after the run. */
const STAGE_SAMPLE = 30;
const POLL_MS = 10;

/** Wall time of calls by name. */
class Timings {
  private readonly byName = new Map<string, { calls: number; ms: number }>();

  add(name: string, ms: number): void {
    const entry = this.byName.get(name) ?? { calls: 0, ms: 0 };
    entry.calls += 1;
    entry.ms += ms;
    this.byName.set(name, entry);
  }

  async time<T>(name: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(name, performance.now() - started);
    }
  }

  list(): StageTime[] {
    return [...this.byName.entries()].map(([name, { calls, ms }]) => ({ name, calls, totalMs: Math.round(ms), meanMs: Math.round((ms / calls) * 100) / 100 }));
  }
}

/** The object with every method's calls timed under `prefix.method` (the embedded adapters work synchronously inside). */
function timed<T extends object>(target: T, prefix: string, timings: Timings): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]): unknown => {
        const started = performance.now();
        const result: unknown = Reflect.apply(value, object, args);
        if (result instanceof Promise) return result.finally(() => timings.add(`${prefix}.${key}`, performance.now() - started));
        timings.add(`${prefix}.${key}`, performance.now() - started);
        return result;
      };
    },
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Times the publisher's per-preview stages one preview at a time, outside the run. */
async function timeStages(previews: readonly Preview[], host: string, mediaDir: string): Promise<StageTime[]> {
  const stages = new Timings();
  for (let i = 0; i < Math.min(STAGE_SAMPLE, previews.length); i += 1) {
    const { bytes } = await stages.time('fetch (loopback, SSRF-safe)', () => fetchImage(previewUrl(host, i), { allowPrivate: true }));
    await stages.time('inspect (all: header, decode, analysis, hash)', () => inspectImage(bytes));
    const raster = await stages.time('  decode to analysis raster (sharp)', () => decodeAnalysisRaster(bytes));
    await stages.time('  channels + content hash (JS)', async () => {
      measureChannels(raster.data);
      return contentHash(raster);
    });
    await stages.time('sha256', async () => createHash('sha256').update(bytes).digest('hex'));
    await stages.time('store (all: metadata, webp thumbnail, 2 files)', () => storePreview(mediaDir, bytes, 'png'));
    await stages.time('  webp thumbnail alone (sharp)', () => sharp(bytes).resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true }).webp({ quality: 78 }).toBuffer());
  }
  return stages.list();
}

/** Variants to run, from BENCH_PUBLISHER_RUNS: "concurrency" or "concurrency:models", comma-separated. */
function variants(): { concurrency: number; models: number }[] {
  const raw = process.env.BENCH_PUBLISHER_RUNS || `${setting('BENCH_PUBLISHER_CONCURRENCY', 8)}:${MODELS}`;
  return raw.split(',').map((entry) => {
    const [concurrency, models] = entry.trim().split(':').map(Number);
    if (!Number.isInteger(concurrency) || (concurrency ?? 0) < 1 || (models !== undefined && (!Number.isInteger(models) || models < 1))) {
      throw new Error(`BENCH_PUBLISHER_RUNS: "${entry}" is not concurrency or concurrency:models`);
    }
    return { concurrency: concurrency ?? 8, models: models ?? MODELS };
  });
}

/** One run of the real publisher over a fresh data folder inside `folder`. */
async function runOnce(folder: string, host: string, count: number, concurrency: number, models: number, timeoutSeconds: number): Promise<PublisherRun> {
  const config = loadConfig({
    ...process.env,
    ARCHIVE_DATA_DIR: mkdtempSync(join(folder, 'data-')),
    ARCHIVE_UPLOAD_HOSTS: host,
    ARCHIVE_ALLOW_PRIVATE_MEDIA: '1',
    ARCHIVE_PUBLISHER_CONCURRENCY: String(concurrency),
    ARCHIVE_LOG_LEVEL: 'warn',
  });
  const backend = await openBackend({ databaseFile: config.databaseFile }, { migrate: true });
  try {
    const items = Array.from({ length: count }, (_, i) => ({
      tokenName: 'bench',
      submission: benchSubmission(i, models, Array.from({ length: PREVIEWS_PER_SUBMISSION }, (__, k) => previewUrl(host, i * PREVIEWS_PER_SUBMISSION + k))),
    }));
    const enqueued = await backend.submissions.enqueue(items);
    if (enqueued.kind !== 'accepted') throw new Error(`enqueue answered ${enqueued.kind}`);
    const ids = enqueued.records.map((record) => record.submissionId);

    const lines: string[] = [];
    const logger = createLogger('warn', (line) => lines.push(line.trim()));
    const storeCalls = new Timings();
    const watched: Backend = { ...backend, store: timed(backend.store, 'store', storeCalls), submissions: timed(backend.submissions, 'queue', storeCalls) };
    const publisher = createPublisher(config, watched, logger);

    const elu = performance.eventLoopUtilization();
    const cpu = process.cpuUsage();
    const started = performance.now();
    publisher.start();
    let statuses: Record<string, number> = {};
    let finished = false;
    for (;;) {
      statuses = await backend.submissions.countByStatus();
      const final = FINAL_STATUSES.reduce((sum, status) => sum + (statuses[status] ?? 0), 0);
      if (final >= count) {
        finished = true;
        break;
      }
      if ((performance.now() - started) / 1000 > timeoutSeconds) break;
      await sleep(POLL_MS);
    }
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const loop = performance.eventLoopUtilization(elu);
    await publisher.stop();

    let sample: PublisherRun['sample'];
    for (const id of ids) {
      const record = await backend.submissions.getSubmission(id);
      if (record && record.status !== 'published') {
        sample = { submissionId: id, status: record.status, reason: record.reason, checks: record.checks.map(({ name, outcome, detail }) => ({ name, outcome, detail })) };
        break;
      }
    }
    const state = await backend.store.catalogState();
    const previews = count * PREVIEWS_PER_SUBMISSION;
    return {
      concurrency,
      models,
      submissions: count,
      previews,
      seconds: Math.round(seconds * 100) / 100,
      submissionsPerSecond: Math.round((count / seconds) * 10) / 10,
      previewsPerSecond: Math.round((previews / seconds) * 10) / 10,
      finished,
      statuses,
      records: state.total,
      ...(sample ? { sample } : {}),
      eventLoopUtilization: Math.round(loop.utilization * 100) / 100,
      cpuPercent: Math.round(((used.user + used.system) / 1000 / (seconds * 1000)) * 100),
      storeCalls: storeCalls.list().sort((a, b) => b.totalMs - a.totalMs),
      logLines: lines.filter((line) => !line.includes('ARCHIVE_ALLOW_PRIVATE_MEDIA')).slice(0, 10),
    };
  } finally {
    await backend.close();
  }
}

async function main(): Promise<void> {
  const count = setting('BENCH_SUBMISSIONS', 100);
  const timeoutSeconds = setting('BENCH_PUBLISHER_TIMEOUT', 120);
  const runs = variants();
  const folder = mkdtempSync(join(tmpdir(), 'archive-bench-publisher-'));
  let server: Server | undefined;
  try {
    const rendering = performance.now();
    const { previews, closest } = await renderPreviews(count * PREVIEWS_PER_SUBMISSION);
    const renderSeconds = (performance.now() - rendering) / 1000;
    const served = await serve(previews);
    server = served.server;
    const results: PublisherRun[] = [];
    for (const { concurrency, models } of runs) {
      results.push(await runOnce(folder, served.host, count, concurrency, models, timeoutSeconds));
      await sleep(500);
    }
    const result: PublisherResult = {
      runs: results,
      stages: await timeStages(previews, served.host, join(folder, 'stage-media')),
      closestPreviews: closest,
      renderSeconds: Math.round(renderSeconds * 10) / 10,
      sharpConcurrency: sharp.concurrency(),
      threadPool: Number(process.env.UV_THREADPOOL_SIZE) || 4,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    if (server) await closeServer(server);
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`publisher bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
