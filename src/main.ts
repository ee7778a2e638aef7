/**
 * Starts the archive. The primary process owns the schema, loads the demo catalog into an empty
 * data folder, runs the publisher (embedded deployment; on a worker thread, so the primary's own
 * thread is free to hand connections out) and forks HTTP workers that read the same WAL
 * database, so every core serves requests. With ARCHIVE_WORKERS=0 the primary serves alone.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { openArchive, openBackend, warnOfSharedWorks } from './backend.ts';
import type { Backend } from './backend.ts';
import { loadConfig } from './config.ts';
import type { Config } from './config.ts';
import { createApp } from './http/app.ts';
import { Drain } from './http/drain.ts';
import { listenOn } from './http/listen.ts';
import { serverLimits } from './http/server-limits.ts';
import { answerClientErrors, answerUnmetExpectations, continueWhenBodyRead } from './http/client-errors.ts';
import { createLogger } from './logger.ts';
import type { Logger } from './logger.ts';
import { loadDemoIfEmpty } from './demo/seed.ts';
import { dataFolderError, ensureWritableDataFolder, refuseFolderWithoutItsDatabase } from './data-folder.ts';
import { StartStopped, StopSignals } from './stop-signals.ts';
import { createPublisher } from '../indexer/run-publisher.ts';
import { startSearchSync, syncOnce } from '../indexer/search-sync.ts';
import { ThreadedPublisher } from '../indexer/threaded-publisher.ts';
import type { RunningPublisher } from '../indexer/threaded-publisher.ts';
import { answerRateAsks, WorkerRateLimiter } from './rate-limit/cluster-limiter.ts';
import { LocalRateLimiter } from './rate-limit/limiter.ts';
import type { Registry } from 'prom-client';
import { HttpMetrics, processRegistry, PublisherMetrics } from './metrics/archive-metrics.ts';
import { ClusterMetrics, shareWorkerMetrics } from './metrics/cluster-metrics.ts';
import { startMetricsServer } from './metrics/metrics-server.ts';

/** The message an HTTP worker sends the primary after accepting submissions. */
const SUBMITTED = 'archive:submitted';

/** How long in-flight requests (and the publisher's submissions in hand) may take after the drain window. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Serves HTTP in this process until SIGTERM or SIGINT, then drains (see Drain) and closes. A
 * process signalled before it served, or a worker whose primary is gone (no new connection can
 * reach it), stops without a drain window. `registry` holds this process's metrics: a worker
 * shares it with the primary, a process serving alone passes the registry its metrics server reads.
 */
async function serve(config: Config, logger: Logger, registry: Registry, signals: StopSignals, publisher?: RunningPublisher, alsoStop: () => Promise<void> = async () => undefined): Promise<void> {
  // The primary opened the search index first and stopped on a configuration it cannot work with;
  // a worker goes on without search whatever the reason, since a replacement would fail alike.
  const backend = await openBackend(config, { migrate: false, withoutSearch: { logger, when: 'any' } });
  // Workers are numbered from 1 in the order they are forked, a replacement taking the next number.
  await backend.warm(cluster.isWorker && cluster.worker ? { index: cluster.worker.id - 1, of: Math.max(1, config.workers) } : undefined);
  const submitted = publisher ? () => publisher.wake() : () => process.send?.({ type: SUBMITTED });
  const rateLimiter = cluster.isWorker ? new WorkerRateLimiter() : new LocalRateLimiter();
  const drain = new Drain();
  const app = createApp(config, backend, logger, { submitted, rateLimiter, metrics: new HttpMetrics(registry), draining: () => drain.draining });
  const limits = serverLimits(config);
  const server: Server = createServer(limits, drain.listener(app.callback()));
  server.on('clientError', answerClientErrors(config.baseUrl, { headersTimeoutMs: limits.headersTimeout, requestTimeoutMs: limits.requestTimeout }));
  server.on('checkExpectation', answerUnmetExpectations(config.baseUrl));
  continueWhenBodyRead(server);
  server.keepAliveTimeout = 65_000;
  await listenOn(server, { host: config.host, port: config.port, hostVariable: 'HOST', portVariable: 'PORT' });
  logger.info('listening', { address: server.address(), baseUrl: config.baseUrl });
  let stopping = false;
  const stop = (signal: string, drainMs: number): void => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal, drainMs });
    setTimeout(() => process.exit(1), drainMs + SHUTDOWN_GRACE_MS).unref();
    void drain
      .close(server, drainMs)
      .then(() => publisher?.stop())
      .then(alsoStop)
      .then(() => backend.close())
      .then(() => process.exit(0));
  };
  signals.onStop((signal, duringStart) => stop(signal, duringStart ? 0 : config.drainMs));
  process.once('disconnect', () => stop('disconnect', 0));
}

/**
 * Checks the data folder, opens the store (applying migrations) and loads the demo catalog into
 * an empty one. A signal meanwhile stops the start after the step in hand, with the store closed.
 */
async function prepareDataFolder(config: Config, logger: Logger, signals: StopSignals): Promise<{ backend: Backend; loaded: number }> {
  ensureWritableDataFolder(config);
  refuseFolderWithoutItsDatabase(config);
  const backend = await openArchive(config, { migrate: true, withoutSearch: { logger, when: 'outage' } });
  try {
    signals.checkpoint();
    const loaded = config.loadDemo ? await loadDemoIfEmpty(backend.store, config.mediaDir, logger) : 0;
    signals.checkpoint();
    return { backend, loaded };
  } catch (error) {
    await backend.close();
    throw dataFolderError(error, config);
  }
}

/** Prepares the data folder, then forks the workers and keeps them running. */
async function runPrimary(config: Config, logger: Logger, signals: StopSignals): Promise<void> {
  const started = performance.now();
  const { backend, loaded } = await prepareDataFolder(config, logger, signals);
  const catalog = await backend.store.catalogState();
  logger.info('data folder ready', { dataDir: config.dataDir, records: catalog.total, demoLoaded: loaded, ms: Math.round(performance.now() - started), ...(backend.schemaMigrated ? { schemaMigrated: backend.schemaMigrated } : {}) });
  await warnOfSharedWorks(backend, logger);
  // Serving alone, one registry holds everything; with workers, the primary's own metrics (the
  // publisher, this process) carry a prefix so they never collide with the workers' it gathers.
  const registry = processRegistry(config.workers === 0 ? '' : 'archive_primary_');
  // Serving alone, this process publishes on its main thread; with workers, on a thread of its own.
  const observe = config.runPublisher ? new PublisherMetrics(registry, backend.submissions).observe : undefined;
  const publisher: RunningPublisher | undefined = observe && (config.workers === 0 ? createPublisher(config, backend, logger, observe) : new ThreadedPublisher(logger, observe));
  publisher?.start();
  const metricsServer = config.metrics ? await startMetricsServer(config.metrics, config.workers === 0 ? () => registry.metrics() : new ClusterMetrics(registry).gather, logger) : undefined;
  // With an external search index, the embedded publisher's process also carries the index sync
  // (the production deployment runs it in `npm run indexer` instead). It catches up before the
  // first request is served, so a fresh start never answers searches from an index behind the store.
  const followsHere = publisher !== undefined && backend.searchFollowsStore;
  // Without Meilisearch (an outage at start) it serves at once; the sync catches up once it answers.
  if (followsHere) {
    try {
      const caughtUp = await syncOnce(backend.store, backend.search);
      logger.info('search index caught up with the store', { ...caughtUp });
    } catch (error) {
      if (!backend.isUnavailable(error)) throw error;
      logger.warn('serving before the search index caught up with the store: Meilisearch cannot answer; the index sync catches up once it can', { reason: error instanceof Error ? error.message : String(error) });
    }
  }
  const searchSync = followsHere ? startSearchSync(backend.store, backend.search, logger) : undefined;
  if (config.workers === 0) {
    await serve(config, logger, registry, signals, publisher, async () => {
      await searchSync?.stop();
      await metricsServer?.close();
      await backend.close();
    });
    return;
  }
  cluster.on('message', (_worker, message: { type?: string }) => {
    if (message?.type === SUBMITTED) publisher?.wake();
  });
  cluster.on('message', answerRateAsks());
  // This process hands each new connection to the workers in turn (Node's round-robin): its main
  // thread stays free for that, the publisher running on a thread of its own (threaded-publisher.ts).
  let stopping = false;
  // A worker that dies after the service has served is replaced; one that dies before any worker
  // could listen (the port is taken, the address is wrong) would only die again: stop instead.
  let served = false;
  cluster.on('listening', () => {
    served = true;
  });
  const fork = (): void => {
    cluster.fork();
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (!served) {
      logger.error('a worker could not start serving (its reason is above); stopping', { worker: worker.process.pid, code, signal });
      stop('worker failed to start', 1);
      return;
    }
    logger.warn('worker exited; starting another', { worker: worker.process.pid, code, signal });
    setTimeout(fork, 500);
  });
  signals.onStop((signal) => stop(signal));
  for (let i = 0; i < config.workers && !stopping; i += 1) fork();
  function stop(signal: string, exitCode = 0): void {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down workers', { signal });
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    const publisherStopped = (publisher?.stop() ?? Promise.resolve())
      .then(() => searchSync?.stop())
      .then(() => metricsServer?.close())
      .then(() => backend.close());
    const check = setInterval(() => {
      if (Object.keys(cluster.workers ?? {}).length === 0) void publisherStopped.then(() => process.exit(exitCode));
    }, 100);
    setTimeout(() => {
      clearInterval(check);
      process.exit(1);
    }, config.drainMs + SHUTDOWN_GRACE_MS + 1000).unref();
  }
}

/** Starts the primary or a worker, with SIGTERM and SIGINT handled from the first step on. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const signals = new StopSignals(logger);
  if (cluster.isPrimary) {
    logger.info('starting', { dataDir: config.dataDir, workers: config.workers });
    for (const name of config.unreadVariables ?? []) logger.warn('environment variable not read: misspelt, or of no effect with this configuration (README lists the variables)', { name });
  }
  try {
    if (cluster.isPrimary) await runPrimary(config, logger, signals);
    else {
      const registry = processRegistry();
      shareWorkerMetrics(registry);
      await serve(config, logger, registry, signals);
    }
  } catch (error) {
    if (!(error instanceof StartStopped)) throw error;
    logger.info('start-up stopped', { signal: error.signal });
    process.exit(0);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
