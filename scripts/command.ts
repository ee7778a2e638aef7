/** What the maintenance scripts share: the backend the configuration names, opened for one command and closed after it. */
import { existsSync } from 'node:fs';
import { openBackend } from '../src/backend.ts';
import type { Backend } from '../src/backend.ts';
import { loadConfig } from '../src/config.ts';
import type { Config } from '../src/config.ts';

/**
 * Throws unless the embedded archive the configuration names exists: a command pointed at a
 * mistyped or unset ARCHIVE_DATA_DIR would otherwise make a new, empty archive there and report on
 * it (no records, no submissions) or write to it (a token the server never sees). MongoDB stores
 * are not checked: their database is named, not found on disk.
 */
export function requireArchive(config: Config): void {
  if (config.store.kind !== 'embedded' || existsSync(config.databaseFile)) return;
  throw new Error(`no archive database at ${config.databaseFile}; check ARCHIVE_DATA_DIR (now ${config.dataDir}). npm start creates one, npm run catalog -- import fills a new one.`);
}

/**
 * Runs a script's command over the backend (upgrading the schema, as the server's primary does),
 * closes it, and on failure prints the error's message alone and exits 1. The archive must exist
 * (requireArchive).
 */
export function runCommand(command: (backend: Backend, config: Config) => Promise<void>): void {
  const run = async (): Promise<void> => {
    const config = loadConfig();
    requireArchive(config);
    const backend = await openBackend(config, { migrate: true });
    try {
      await command(backend, config);
    } finally {
      await backend.close();
    }
  };
  run().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
