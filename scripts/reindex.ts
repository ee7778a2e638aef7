/**
 * `npm run reindex`: rebuilds the Meilisearch indexes from the store. Every record is written
 * into fresh indexes (`specimens_zh_new`, `specimens_en_new`) with the current settings, one
 * swap task puts both in place of the live ones, and the old contents are deleted; searches are
 * answered by the live indexes throughout. Changes made while the fresh indexes were filled are
 * replayed from the change feed after the swap, and the document mapping's version is stored. While it runs, a checkpoint named `reindex` holds
 * the removals it will replay back from pruning.
 *
 * The embedded deployment has nothing to rebuild: its FTS5 index is written in the same
 * transaction as each record. The command says so and exits with status 2.
 */
import { replayFeed, SEARCH_SYNC_CHECKPOINT } from '../indexer/search-sync.ts';
import { openArchive } from '../src/backend.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { rebuildIndexes } from '../src/search/meili/rebuild.ts';

/** The checkpoint that keeps the removals made during a rebuild until it has replayed them. */
const REINDEX_CHECKPOINT = 'reindex';

/** Why the command does nothing on the embedded deployment. */
const EMBEDDED_REFUSAL =
  'npm run reindex rebuilds the Meilisearch indexes (ARCHIVE_SEARCH=meili). This deployment uses the embedded search index, which the store writes in the same transaction as every record: it cannot drift and has nothing to rebuild.';

async function main(): Promise<number> {
  const config = loadConfig();
  if (config.search.kind !== 'meili') {
    process.stderr.write(`${EMBEDDED_REFUSAL}\n`);
    return 2;
  }
  const logger = createLogger(config.logLevel === 'silent' ? 'silent' : 'info');
  const backend = await openArchive(config, { migrate: false });
  try {
    const from = (await backend.store.catalogState()).changeNumber;
    await backend.store.writeCheckpoint(REINDEX_CHECKPOINT, from);
    const started = Date.now();
    logger.info('reindex started', { changeNumber: from });
    let lastLogged = 0;
    const report = await rebuildIndexes(config.search, backend.store.streamRecords({ batchSize: 1000 }), (documents) => {
      if (documents - lastLogged >= 10_000) {
        lastLogged = documents;
        logger.info('reindex progress', { documents });
      }
    });
    const replayed = await replayFeed(backend.store, backend.search, from);
    await backend.store.deleteCheckpoint(REINDEX_CHECKPOINT);
    // Every document is now of this version's mapping: the index sync has nothing to rewrite.
    if (backend.search.mappingVersion !== undefined) await backend.store.raiseMappingVersion(SEARCH_SYNC_CHECKPOINT, backend.search.mappingVersion);
    logger.info('reindex done', { documents: report.documents, swapped: report.swapped, replayedChanges: replayed.upserted + replayed.removed, seconds: Math.round((Date.now() - started) / 1000) });
    return 0;
  } finally {
    await backend.close();
  }
}

main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    process.stderr.write(`reindex failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
