/**
 * Online backup of the embedded deployment (docs/operations.md, "Backup and restore").
 *   npm run backup -- DIR             copy ARCHIVE_DATA_DIR's database and referenced media into the new directory DIR
 *   npm run backup -- --verify DIR    check a backup against its manifest again
 * Safe while the server runs and publishes. Prints one summary line; exits 1 on any problem.
 */
import { backupDataFolder, describeBackup, removeStoppedBackups, verifyBackup } from '../src/backup/data-folder-backup.ts';
import { loadConfig } from '../src/config.ts';
import { readArguments } from './arguments.ts';
import { readCommandLine, startCommandLine } from './command.ts';

const USAGE = 'usage: npm run backup -- DIR | --verify DIR';

startCommandLine(USAGE);

/** Store kinds this command can copy: the embedded SQLite file is the only one it knows. */
const EMBEDDED_STORE_NAMES = ['', 'embedded', 'sqlite'];

const { operands, values } = readCommandLine((args) =>
  readArguments({ name: 'backup', usage: USAGE, options: { verify: { type: 'boolean', default: false } }, shape: { options: ['verify'], operands: [1, 1] } }, args),
);

async function main(): Promise<void> {
  const [directory = ''] = operands;
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  if (values.verify) {
    console.log(describeBackup(await verifyBackup(directory), 'verified backup', seconds()));
    return;
  }
  const store = (process.env.ARCHIVE_STORE ?? '').trim().toLowerCase();
  if (!EMBEDDED_STORE_NAMES.includes(store)) {
    throw new Error(
      `npm run backup copies the embedded store (one SQLite file and its media folder); ARCHIVE_STORE=${process.env.ARCHIVE_STORE} is not embedded. ` +
        'Back up MongoDB and the media folder with their own tools as described in docs/deploy.md; the search index is rebuilt from the store.',
    );
  }
  const config = loadConfig();
  // Stopped by a signal, the run removes what it staged; a kill leaves it to the next run (removeStoppedBackups).
  const stop = (signal: NodeJS.Signals): void => {
    const removed = removeStoppedBackups(directory);
    console.error(`backup stopped by ${signal}; nothing was written to ${directory}${removed.length ? ` (removed ${removed.join(', ')})` : ''}`);
    process.exit(1);
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  const summary = await backupDataFolder({ databaseFile: config.databaseFile, mediaDir: config.mediaDir }, directory);
  // Written and renamed into place: a signal from here on stops nothing to undo.
  process.off('SIGINT', stop).off('SIGTERM', stop);
  if (summary.stoppedRemoved?.length) console.log(`removed what stopped backups to ${directory} had left: ${summary.stoppedRemoved.join(', ')}`);
  console.log(describeBackup(summary, 'backup written to', seconds()));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
