import { hostname } from 'node:os';
import type { StoreBackend } from '../src/backend.ts';
import type { Config } from '../src/config.ts';
import type { Logger } from '../src/logger.ts';
import { SourceTable } from '../src/domain/sources.ts';
import { createMediaStore, createPreviewLoader } from './preview-loader.ts';
import { Publisher } from './publisher.ts';
import type { PublisherDependencies, PublisherOutcome } from './publisher.ts';

/** The publisher's ports over a backend: the store, queue and source table, the SSRF-safe preview loader, the media folder. */
export function publisherDependencies(backend: StoreBackend, media: { allowPrivate: boolean; mediaDir: string }, logger: Logger): PublisherDependencies {
  return {
    store: backend.store,
    submissions: backend.submissions,
    previews: createPreviewLoader({ allowPrivate: media.allowPrivate }),
    media: createMediaStore(media.mediaDir),
    sources: async () => new SourceTable(await backend.sources.listSources()),
    logger,
  };
}

/** A publisher over a backend, configured from the service configuration; `observe` hears how each attempt ends. */
export function createPublisher(config: Config, backend: StoreBackend, logger: Logger, observe?: (outcome: PublisherOutcome) => void): Publisher {
  if (config.allowPrivateMedia) {
    logger.warn('ARCHIVE_ALLOW_PRIVATE_MEDIA is on: the publisher may fetch previews from loopback and private addresses. Use this only on your own machine (the archive\'s tests, trying ingest locally), never on a public deployment.');
  }
  return new Publisher(
    { ...publisherDependencies(backend, { allowPrivate: config.allowPrivateMedia, mediaDir: config.mediaDir }, logger), ...(observe ? { observe } : {}) },
    {
      owner: `${hostname()}:${process.pid}`,
      concurrency: config.publisherConcurrency,
      leaseMs: config.publisherLeaseMs,
      maxAttempts: config.publisherMaxAttempts,
      pollMs: 500,
      retryDelayMs: 5_000,
      uploadHosts: config.uploadHosts,
    },
  );
}
