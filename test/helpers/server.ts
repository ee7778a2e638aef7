import { createServer } from 'node:http';
import type Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Backend } from '../../src/backend.ts';
import { createApp } from '../../src/http/app.ts';
import { HttpMetrics } from '../../src/metrics/archive-metrics.ts';
import type { AppConfig } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import { FINAL_STATUSES } from '../../src/domain/submission.ts';
import type { SubmissionStatus } from '../../src/domain/submission.ts';
import type { SearchSettings } from '../../src/config.ts';
import { loadDemoIfEmpty } from '../../src/demo/seed.ts';
import { Publisher } from '../../indexer/publisher.ts';
import { startSearchSync } from '../../indexer/search-sync.ts';
import { backendEnvironment, openTestBackend } from './backend.ts';
import { publisherDependencies } from '../../indexer/run-publisher.ts';

export interface TestServer {
  baseUrl: string;
  /** The Koa application serving the requests (its routers can be enumerated). */
  app: Koa;
  /** The app's HTTP metrics (what a worker would hand the primary for /metrics). */
  metrics: HttpMetrics;
  dataDir: string;
  backend: Backend;
  /** Log lines the app wrote, parsed. */
  logs: Record<string, unknown>[];
  /** The in-process publisher, when the server was started with one. */
  publisher?: Publisher;
  /**
   * Waits until the search index holds what the store holds. A no-op on the embedded pair (written
   * in one transaction); with Meilisearch, records written straight to the store are searchable
   * only once the index sync has passed them.
   */
  syncSearch(): Promise<void>;
  /** Variables that make a child process (a script) open this server's backend: its index prefix, its database. */
  processEnvironment: Record<string, string>;
  get(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** A fresh temporary data folder. */
export function temporaryDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'archive-test-'));
}

/** Starts the real app on 127.0.0.1:0 over a temporary data folder, optionally with records or the demo catalog. */
export interface TestPublisherOptions {
  uploadHosts: string[];
  allowPrivateMedia: boolean;
  maxAttempts?: number;
  retryDelayMs?: number;
}

/** Rate limits and quota for a test server; all off unless given. */
export type TestLimits = Partial<Pick<AppConfig, 'rateLimitReads' | 'rateLimitIngest' | 'ingestDailyQuota' | 'trustProxy'>>;

export async function startTestServer(
  options: { records?: CanonicalRecord[]; demo?: boolean; updated?: string; publisher?: TestPublisherOptions; rejectGenericUserAgents?: boolean; limits?: TestLimits; search?: SearchSettings } = {},
): Promise<TestServer> {
  const dataDir = temporaryDataDir();
  // ARCHIVE_STORE / ARCHIVE_SEARCH choose the adapters, as for the service (embedded by default), unless the test brings a search engine.
  const testBackend = await openTestBackend(dataDir, options.search ? { search: options.search } : {});
  const { backend } = testBackend;
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger('info', (line) => logs.push(JSON.parse(line) as Record<string, unknown>));
  if (options.records?.length) {
    await backend.store.putRecords(options.records);
    await backend.store.setCatalogUpdated(options.updated ?? '2026-11-20');
  }
  if (options.demo) await loadDemoIfEmpty(backend.store, join(dataDir, 'media'), logger);
  await testBackend.syncSearch();
  // With a search engine that follows the store, the index sync runs while the server does.
  const searchSync = backend.searchFollowsStore ? startSearchSync(backend.store, backend.search, logger, { pollMs: 50, retryDelayMs: 250 }) : undefined;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const publisher = options.publisher
    ? new Publisher(
        publisherDependencies(backend, { allowPrivate: options.publisher.allowPrivateMedia, mediaDir: join(dataDir, 'media') }, logger),
        {
          owner: 'test-publisher',
          concurrency: 4,
          leaseMs: 5000,
          maxAttempts: options.publisher.maxAttempts ?? 3,
          pollMs: 50,
          retryDelayMs: options.publisher.retryDelayMs ?? 100,
          uploadHosts: options.publisher.uploadHosts,
        },
      )
    : undefined;
  publisher?.start();
  const metrics = new HttpMetrics();
  const app = createApp({ baseUrl, mediaDir: join(dataDir, 'media'), responseCacheBytes: 8 * 1024 * 1024, cacheMaxAgeSeconds: 60, allowedOrigins: ['https://allowed.example'], rejectGenericUserAgents: options.rejectGenericUserAgents ?? false, ...options.limits }, backend, logger, {
    ...(publisher ? { submitted: () => publisher.wake() } : {}),
    metrics,
  });
  server.on('request', app.callback());
  return {
    baseUrl,
    app,
    metrics,
    dataDir,
    backend,
    logs,
    ...(publisher ? { publisher } : {}),
    syncSearch: async () => testBackend.syncSearch(),
    processEnvironment: backendEnvironment(testBackend.settings),
    get: (path, init) => fetch(`${baseUrl}${path}`, init),
    close: async () => {
      await publisher?.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await searchSync?.stop();
      await testBackend.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** GET a path and parse its JSON body, with status and headers. */
export async function getJson<T = Record<string, unknown>>(server: TestServer, path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: T }> {
  const response = await server.get(path, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

/**
 * Polls GET /api/v1/ingest/{submissionId} with a token until `done` holds for the status (by
 * default: a final status), and returns that status; fails after 20 seconds.
 */
export async function waitForSubmission<T extends { status: string }>(server: TestServer, submissionId: string, secret: string, done: (status: T) => boolean = (status) => FINAL_STATUSES.includes(status.status as SubmissionStatus)): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { body } = await getJson<T>(server, `/api/v1/ingest/${submissionId}`, { headers: { Authorization: `Bearer ${secret}` } });
    if (done(body)) {
      // With a search engine that follows the store, what was published is searchable once the index sync has passed it.
      await server.syncSearch();
      return body;
    }
    if (Date.now() > deadline) throw new Error(`submission ${submissionId} is still ${body.status}: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
