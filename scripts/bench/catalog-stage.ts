/**
 * One catalog size of the benchmark, before the server starts: the synthetic catalog file, the
 * bare FTS5 insert of it (the import's reference, scripts/bench/bare-insert.ts), the archive's own
 * import with its peak RSS, and the database and index sizes that result.
 */
import Database from 'better-sqlite3';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BareInsertResult } from './bare-insert.ts';
import { runTsx } from './processes.ts';
import type { CatalogFacts } from './types.ts';

const MB = 2 ** 20;

function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Bytes of the search index (every table and index of the search tables) and of the records, from SQLite's dbstat. */
function storageBytes(databaseFile: string): { index: number; records: number } {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const owners = new Map(db.prepare<[], { name: string; table: string }>('SELECT name, tbl_name AS "table" FROM sqlite_schema').all().map((row) => [row.name, row.table]));
    let index = 0;
    let records = 0;
    for (const { name, bytes } of db.prepare<[], { name: string; bytes: number }>('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all()) {
      const table = owners.get(name) ?? name;
      if (table.startsWith('search_')) index += bytes;
      else if (table === 'records' || table === 'removals') records += bytes;
    }
    return { index, records };
  } finally {
    db.close();
  }
}

/** Generates the catalog, times the bare reference and the archive's import into dataDir, and measures what they wrote. */
export async function prepareCatalog(folder: string, records: number, dataDir: string): Promise<CatalogFacts> {
  const catalogFile = join(folder, `catalog-${records}.json`);
  const generated = await runTsx('scripts/catalog.ts', ['generate', '--count', String(records), '--out', catalogFile]);
  const bareFile = join(folder, `bare-${records}.sqlite`);
  const bare = JSON.parse((await runTsx('scripts/bench/bare-insert.ts', [catalogFile, bareFile])).stdout) as BareInsertResult;
  const bareBytes = fileBytes(bareFile);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${bareFile}${suffix}`, { force: true });
  const imported = await runTsx('scripts/catalog.ts', ['import', catalogFile], { ...process.env, ARCHIVE_DATA_DIR: dataDir, ARCHIVE_DEMO: '0', ARCHIVE_LOG_LEVEL: 'warn' });
  const printed = /in ([\d.]+) s \((\d+) records\/s, peak RSS (\d+) MB\)/.exec(imported.stdout);
  if (!printed) throw new Error(`the import printed no figures: ${imported.stdout}`);
  const catalogMegabytes = fileBytes(catalogFile) / MB;
  rmSync(catalogFile, { force: true });
  const databaseFile = join(dataDir, 'archive.sqlite');
  const sizes = storageBytes(databaseFile);
  return {
    records,
    catalogMegabytes,
    generateSeconds: generated.seconds,
    bare: { ...bare, megabytes: bareBytes / MB },
    import: { seconds: Number(printed[1]), recordsPerSecond: Number(printed[2]), peakRssMegabytes: Number(printed[3]) },
    databaseMegabytes: (fileBytes(databaseFile) + fileBytes(`${databaseFile}-wal`)) / MB,
    indexMegabytes: sizes.index / MB,
    recordsMegabytes: sizes.records / MB,
  };
}
