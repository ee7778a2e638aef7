/** What the maintenance scripts share: the backend the configuration names, opened for one command and closed after it. */
import { openArchive, openStoreArchive } from '../src/backend.ts';
import type { Backend, StoreBackend } from '../src/backend.ts';
import { loadConfig } from '../src/config.ts';
import type { Config } from '../src/config.ts';
import { requireArchive } from '../src/data-folder.ts';
import { CommandLineError } from './arguments.ts';

/**
 * What every maintenance script does first, before it reads its arguments or opens anything:
 * `--help` or `-h` (before a `--` that ends the options) prints its usage on stdout and exits 0;
 * and a stdout the reader closed (the output piped into `head`) stops the output quietly instead
 * of crashing with an EPIPE stack trace: the command finishes what it was doing (a withdrawal is
 * not cut in half) and exits with its own status.
 */
export function startCommandLine(usage: string): void {
  endOutputQuietlyWhenClosed();
  const args = process.argv.slice(2);
  const optionsEnd = args.indexOf('--');
  const options = optionsEnd === -1 ? args : args.slice(0, optionsEnd);
  if (options.includes('--help') || options.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
}

/**
 * The command's arguments as `read` finds them (readArguments, readSubcommand); arguments it
 * cannot run with print every problem and the usage line on stderr and exit 1, opening nothing.
 */
export function readCommandLine<T>(read: (args: readonly string[]) => T): T {
  try {
    return read(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

/** After the reader of stdout went away, further output is dropped: EPIPE is the end of the output, not a failure of the command. */
function endOutputQuietlyWhenClosed(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}

/**
 * Runs a script's command over the backend (upgrading the schema, as the server's primary does),
 * closes it, and on failure prints the error's message alone and exits 1. The archive must exist
 * (requireArchive). For a command that searches; one that does not runs with runStoreCommand.
 */
export function runCommand(command: (backend: Backend, config: Config) => Promise<void>): void {
  runOver(openArchive, command);
}

/**
 * runCommand for a command that never searches: it opens the store alone (openStoreArchive), so
 * on the Meilisearch deployment it runs while Meilisearch is down or does not answer (a takedown,
 * a token revoked during an outage). The index follows the store's change feed, so what such a
 * command writes reaches the index through the index sync.
 */
export function runStoreCommand(command: (backend: StoreBackend, config: Config) => Promise<void>): void {
  runOver(openStoreArchive, command);
}

function runOver<B extends StoreBackend>(open: (config: Config, options: { migrate: boolean }) => Promise<B>, command: (backend: B, config: Config) => Promise<void>): void {
  const run = async (): Promise<void> => {
    const config = loadConfig();
    requireArchive(config);
    const backend = await open(config, { migrate: true });
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
