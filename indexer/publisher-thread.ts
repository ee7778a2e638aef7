/**
 * The publisher in a thread of the cluster primary (threaded-publisher.ts starts it): it opens a
 * backend of its own on the primary's configuration, publishes until told to stop, and tells the
 * primary how each attempt ended and when it has stopped.
 */
import { parentPort } from 'node:worker_threads';
import { openStore } from '../src/backend.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { createPublisher } from './run-publisher.ts';
import type { PublisherThreadCommand, PublisherThreadReport } from './threaded-publisher.ts';

async function run(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('publisher-thread.ts runs only as a worker thread');
  const report = (message: PublisherThreadReport): void => port.postMessage(message);
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // The publisher writes the store alone (a separate search index follows it): it never waits for Meilisearch.
  const backend = await openStore(config, { migrate: false });
  const publisher = createPublisher(config, backend, logger, (outcome) => report({ type: 'outcome', outcome }));
  port.on('message', (command: PublisherThreadCommand) => {
    if (command.type === 'wake') publisher.wake();
    if (command.type !== 'stop') return;
    void publisher
      .stop()
      .then(() => backend.close())
      .then(() => {
        report({ type: 'stopped' });
        port.close();
      });
  });
  publisher.start();
}

void run();
