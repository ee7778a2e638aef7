import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import { openBackend } from '../../src/backend.ts';
import { makeSubmission } from '../helpers/factories.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';
import { sample, scrapeUrl } from '../helpers/metrics.ts';
import { freePort, getOnNewConnection, startServerProcess } from '../helpers/server-process.ts';
import type { ServerProcess } from '../helpers/server-process.ts';
import { temporaryDataDir } from '../helpers/server.ts';

/** The process ids that wrote a request log line for this path. */
function answeringPids(output: string, path: string): Set<number> {
  const pids = new Set<number>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg?: string; path?: string; pid?: number };
    if (entry.msg === 'request' && entry.path === path && entry.pid) pids.add(entry.pid);
  }
  return pids;
}

/**
 * `npm start` with two HTTP workers and the metrics port: traffic spread over both workers moves
 * the counters that /metrics shows by exactly the number of requests, and the primary's publisher
 * reports its outcome and queue depth in the same scrape.
 */
describe('GET /metrics across the cluster', function () {
  this.timeout(90_000);
  const images = new ImageServer();
  const dataDir = temporaryDataDir();
  const secret = generateSecret();
  let server: ServerProcess;
  let metricsUrl = '';

  before(async () => {
    await images.start();
    images.files.set('/work.png', { type: 'image/png', body: await lineDrawingPng(5151) });
    const backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true });
    await backend.tokens.createToken('metrics-bot', ['ingest'], secretSha256(secret));
    await backend.close();
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    server = await startServerProcess(dataDir, {
      ARCHIVE_WORKERS: '2',
      ARCHIVE_DEMO: '1',
      ARCHIVE_METRICS_PORT: String(metricsPort),
      ARCHIVE_LOG_LEVEL: 'info',
      ARCHIVE_UPLOAD_HOSTS: images.host,
      ARCHIVE_ALLOW_PRIVATE_MEDIA: '1',
      ARCHIVE_RATE_LIMIT_READS: '0',
    });
  });
  after(async () => {
    await server?.stop('SIGTERM');
    await images.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is served on its own port only', async () => {
    expect((await getOnNewConnection(`${server.url}/metrics`)).status).to.equal(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).to.equal(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).to.equal(405);
  });

  it('counts the requests of both workers, and the search engine time they took', async () => {
    const route = { method: 'GET', route: '/api/v1/specimens', status: '200' };
    const before = await scrapeUrl(metricsUrl);
    const requests = 24;
    for (let i = 0; i < requests; i += 1) {
      // A page size of its own per request, so no worker answers from its response cache.
      const { status } = await getOnNewConnection(`${server.url}/api/v1/specimens?q=pelican&limit=${i + 1}`);
      expect(status).to.equal(200);
    }
    const after = await scrapeUrl(metricsUrl);
    expect(answeringPids(server.output(), '/api/v1/specimens').size, 'both workers answered').to.equal(2);
    expect(sample(after, 'archive_http_requests_total', route) - sample(before, 'archive_http_requests_total', route)).to.equal(requests);
    const searches = (families: typeof after) => Number(families.find((family) => family.name === 'archive_search_duration_seconds')?.metrics[0]?.count ?? 0);
    expect(searches(after) - searches(before)).to.equal(requests);
    // Process metrics: the workers' RSS summed, and the primary's own.
    expect(sample(after, 'process_resident_memory_bytes')).to.be.greaterThan(sample(after, 'archive_primary_process_resident_memory_bytes'));
    expect(sample(after, 'archive_primary_process_resident_memory_bytes')).to.be.greaterThan(10 * 1024 * 1024);
  });

  it('reports the publisher\'s outcomes and queue depth from the primary', async () => {
    const before = await scrapeUrl(metricsUrl);
    expect(sample(before, 'archive_publisher_queue_depth', { status: 'queued' })).to.equal(0);
    const response = await fetch(`${server.url}/api/v1/ingest`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json', 'User-Agent': 'metrics-test/1.0' },
      body: JSON.stringify(makeSubmission({ sourceUrl: 'https://github.com/metrics-test/a-work', model: 'Metrics-Test-Model', media: [images.url('/work.png')] })),
    });
    expect(response.status).to.equal(202);
    const { statusUrl } = (await response.json()) as { statusUrl: string };
    const deadline = Date.now() + 30_000;
    for (;;) {
      const status = (await (await fetch(statusUrl, { headers: { Authorization: `Bearer ${secret}` } })).json()) as { status: string };
      if (status.status === 'published') break;
      if (Date.now() > deadline) throw new Error(`still ${status.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const after = await scrapeUrl(metricsUrl);
    expect(sample(after, 'archive_publisher_submissions_total', { outcome: 'published' }) - sample(before, 'archive_publisher_submissions_total', { outcome: 'published' })).to.equal(1);
    expect(sample(after, 'archive_publisher_queue_depth', { status: 'queued' })).to.equal(0);
    expect(sample(after, 'archive_http_requests_total', { method: 'POST', route: '/api/v1/ingest', status: '202' })).to.equal(1);
  });

  it('answers 503 with Retry-After while a worker cannot answer, and 200 again once it does', async function () {
    this.timeout(30_000);
    // A worker stopped by the kernel (SIGSTOP) is one that cannot answer the primary: the scrape
    // gives up after prom-client's 5 s instead of hanging or showing half the cluster.
    const [worker] = answeringPids(server.output(), '/api/v1/specimens');
    expect(worker, 'a worker that answered a search').to.be.a('number');
    process.kill(worker as number, 'SIGSTOP');
    try {
      const started = Date.now();
      const stalled = await fetch(metricsUrl);
      expect(stalled.status).to.equal(503);
      expect(stalled.headers.get('retry-after')).to.equal('5');
      expect(Date.now() - started).to.be.within(4_000, 15_000);
    } finally {
      process.kill(worker as number, 'SIGCONT');
    }
    expect((await fetch(metricsUrl)).status).to.equal(200);
  });
});

describe('GET /metrics from a process serving alone', function () {
  this.timeout(60_000);
  const dataDir = temporaryDataDir();
  let server: ServerProcess;
  after(async () => {
    await server?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds the HTTP, publisher and process metrics in one registry', async () => {
    const metricsPort = await freePort();
    server = await startServerProcess(dataDir, { ARCHIVE_WORKERS: '0', ARCHIVE_METRICS_PORT: String(metricsPort) });
    const url = `http://127.0.0.1:${metricsPort}/metrics`;
    for (let i = 0; i < 3; i += 1) expect((await getOnNewConnection(`${server.url}/api/v1/timeline?limit=${i + 1}`)).status).to.equal(200);
    const families = await scrapeUrl(url);
    expect(sample(families, 'archive_http_requests_total', { method: 'GET', route: '/api/v1/timeline', status: '200' })).to.equal(3);
    expect(families.map((family) => family.name)).to.include.members(['archive_publisher_queue_depth', 'archive_publisher_submissions_total', 'process_resident_memory_bytes', 'archive_rate_limit_refusals_total']);
    expect(families.some((family) => family.name.startsWith('archive_primary_'))).to.equal(false);
  });
});
