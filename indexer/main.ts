/**
 * The publisher on its own (`npm run indexer`): claims submissions from the store named by the
 * configuration and publishes them, until SIGTERM or SIGINT. Several may run at once; leases
 * in the store keep them from working on the same submission. When the search index is a
 * separate engine (Meilisearch), the indexer also follows the store's change feed into it
 * (search-sync.ts); several followers converge on the same state.
 */
import { openArchive, warnOfSharedWorks } from '../src/backend.ts';
import { loadConfig } from '../src/config.ts';
import { requireArchive } from '../src/data-folder.ts';
import { StopSignals } from '../src/stop-signals.ts';
import { createLogger } from '../src/logger.ts';
import { createPublisher } from './run-publisher.ts';
import { startSearchSync } from './search-sync.ts';
import { processRegistry, PublisherMetrics } from '../src/metrics/archive-metrics.ts';
import { startMetricsServer } from '../src/metrics/metrics-server.ts';
import { readArguments } from '../scripts/arguments.ts';
import { readCommandLine, startCommandLine } from '../scripts/command.ts';

const USAGE = 'usage: npm run indexer   (no arguments: the publisher alone, configured by the environment as npm start is, ARCHIVE_DATA_DIR among it; stops on SIGTERM or SIGINT)';

async function main(): Promise<void> {
  startCommandLine(USAGE);
  // It takes no argument: one given (a mistyped option) must not start a publisher on the folder.
  readCommandLine((args) => readArguments({ name: 'indexer', usage: USAGE, options: {}, shape: { options: [], operands: [0, 0] } }, args));
  const config = loadConfig();
  // Beside `npm start` on its folder, never on a new one: a mistyped ARCHIVE_DATA_DIR would poll an empty queue forever.
  requireArchive(config);
  const logger = createLogger(config.logLevel);
  // From here a SIGTERM or SIGINT is kept until the stop below can run: one that came between the
  // start's log lines and the handlers killed the process unlogged (exit by signal, not 0).
  const signals = new StopSignals(logger);
  // Meilisearch down at start: the publisher goes on (it writes only the store), the sync waits for it.
  const backend = await openArchive(config, { migrate: true, withoutSearch: { logger, when: 'outage', role: 'indexer' } });
  const registry = processRegistry();
  const publisher = createPublisher(config, backend, logger, new PublisherMetrics(registry, backend.submissions).observe);
  publisher.start();
  const metricsServer = config.metrics ? await startMetricsServer(config.metrics, () => registry.metrics(), logger) : undefined;
  logger.info('publisher started', { dataDir: config.dataDir, concurrency: config.publisherConcurrency, ...(backend.schemaMigrated ? { schemaMigrated: backend.schemaMigrated } : {}) });
  await warnOfSharedWorks(backend, logger);
  const searchSync = backend.searchFollowsStore ? startSearchSync(backend.store, backend.search, logger) : undefined;
  if (searchSync) logger.info('search index sync started');
  signals.onStop((signal) => void stop(signal));
  async function stop(signal: string): Promise<void> {
    logger.info('publisher stopping', { signal });
    await publisher.stop();
    await searchSync?.stop();
    await metricsServer?.close();
    await backend.close();
    process.exit(0);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
