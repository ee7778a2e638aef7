/**
 * Catalog tooling.
 *   npm run catalog -- import FILE                  load a catalog file into ARCHIVE_DATA_DIR
 *   npm run catalog -- export FILE                  write every record as a catalog file
 *   npm run catalog -- generate --count N --out FILE  write a deterministic synthetic catalog
 */
import { createWriteStream, existsSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { loadConfig } from '../src/config.ts';
import { describeStore, openStoreArchive } from '../src/backend.ts';
import { exportCatalog, importCatalogFile } from '../src/catalog/catalog-file.ts';
import { SourceTable } from '../src/domain/sources.ts';
import { syntheticCatalog } from '../src/catalog/synthetic.ts';
import { ensureWritableDataFolder, refuseFolderWithoutItsDatabase, requireArchive } from '../src/data-folder.ts';
import { CATALOG_VERSION, isCalendarDate } from '../src/domain/record.ts';
import { readSubcommand } from './arguments.ts';
import { readCommandLine, startCommandLine } from './command.ts';

const USAGE = 'usage: npm run catalog -- import FILE | export FILE | generate --count N --out FILE [--updated YYYY-MM-DD]';

startCommandLine(USAGE);

async function generate(count: number, out: string, updated: string): Promise<void> {
  const stream = createWriteStream(out, { encoding: 'utf8' });
  const write = async (text: string): Promise<void> => {
    if (!stream.write(text)) await once(stream, 'drain');
  };
  await write(`{"version":"${CATALOG_VERSION}","updated":"${updated}","total":${count},"records":[`);
  let index = 0;
  for (const record of syntheticCatalog(count, updated)) {
    await write(`${index === 0 ? '\n' : ',\n'}${JSON.stringify(record)}`);
    index += 1;
  }
  await write('\n]}\n');
  stream.end();
  await once(stream, 'finish');
}

const { subcommand: command, operands, values } = readCommandLine((args) =>
  readSubcommand(
    {
      name: 'catalog',
      usage: USAGE,
      options: { count: { type: 'string' }, out: { type: 'string' }, updated: { type: 'string' } },
      subcommands: {
        import: { options: [], operands: [1, 1] },
        export: { options: [], operands: [1, 1] },
        generate: { options: ['count', 'out', 'updated'], operands: [0, 0] },
      },
    },
    args,
  ),
);

async function main(): Promise<void> {
  const [file = ''] = operands;
  if (command === 'generate') {
    const count = Number(values.count);
    const problems = [
      ...(Number.isInteger(count) && count >= 1 ? [] : [`--count must be a whole number of records, 1 or more${values.count === undefined ? '' : ` (got ${values.count})`}`]),
      ...(values.out ? [] : ['--out must name the file to write']),
      // What import refuses, generate does not write.
      ...(values.updated === undefined || isCalendarDate(values.updated) ? [] : ['--updated must be a date written YYYY-MM-DD, e.g. 2026-11-22']),
    ];
    if (problems.length || !values.out) throw new Error([...problems, USAGE].join('\n'));
    const started = performance.now();
    await generate(count, values.out, values.updated ?? '2026-11-22');
    console.log(`wrote ${count} synthetic records to ${values.out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return;
  }
  const config = loadConfig();
  // An import may fill a new archive; an export reads one that must exist.
  if (command === 'export') requireArchive(config);
  // A new archive an import fails to fill is not left behind: an empty database would pass for an
  // archive, and the commands that refuse a folder without one (requireArchive) would take it.
  const makesArchive = command === 'import' && config.store.kind === 'embedded' && !existsSync(config.databaseFile);
  // Nor is one made where an archive lost its database.
  if (makesArchive) refuseFolderWithoutItsDatabase(config);
  if (command === 'import') {
    if (!existsSync(file)) throw new Error(`no catalog file at ${file}: name the file to import (one npm run catalog -- export or generate wrote)`);
    // A data folder that is a file, or cannot be made, is named with the variable, as npm start names it.
    ensureWritableDataFolder(config);
  }
  const removeNewArchive = (): void => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${config.databaseFile}${suffix}`, { force: true });
  };
  // Neither searches: an import's records reach a Meilisearch index through the index sync.
  const backend = await openStoreArchive(config, { migrate: true });
  let imported = false;
  try {
    const started = performance.now();
    if (command === 'import') {
      const { keys } = new SourceTable(await backend.sources.listSources());
      const { written, withdrawn, moved, updated } = await importCatalogFile(backend.store, file, { sourceKeys: keys });
      const seconds = (performance.now() - started) / 1000;
      const peakRss = Math.round(process.resourceUsage().maxRSS / 1024);
      console.log(`imported ${written} records dated ${updated} into ${describeStore(config)} in ${seconds.toFixed(1)} s (${Math.round(written / seconds)} records/s, peak RSS ${peakRss} MB)`);
      // A takedown outlives the exports taken before it; a moved id's work lives in another record.
      if (withdrawn.length) console.log(`skipped ${withdrawn.length} withdrawn ids: ${withdrawn.join(' ')}`);
      if (moved.length) console.log(`skipped ${moved.length} moved ids: ${moved.join(' ')}`);
      imported = true;
    } else {
      const count = await exportCatalog(backend.store, file);
      console.log(`exported ${count} records to ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    await backend.close();
    if (makesArchive && !imported) removeNewArchive();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
