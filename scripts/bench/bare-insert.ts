/**
 * The import's reference: the same catalog file put into one FTS5 table with better-sqlite3 and
 * nothing else, timed the way `npm run catalog -- import` times itself. Usage:
 *   node --import tsx scripts/bench/bare-insert.ts CATALOG_FILE DATABASE_FILE
 * prints one JSON line (BareInsertResult).
 *
 * What "bare" means here, so the ratio is honest:
 * - the same file, read by the same streaming reader as the import (one pass: no check pass);
 * - one FTS5 table, default tokenizer, with the text the archive makes searchable (id unindexed,
 *   title and notes in both languages, model, author, prompt, prompt category), the text as it is
 *   (no Chinese bigrams, no facet tokens, no canonical record beside it, no sort keys);
 * - the archive's durability: WAL and synchronous=FULL, transactions of 20,000 rows, as the import;
 * - timed from opening the database to the last commit, as the import is (process start, module
 *   loading and the checkpoint when the database closes are left out of both).
 */
import Database from 'better-sqlite3';
import { scanCatalogFile } from '../../src/catalog/catalog-stream.ts';

/** What the reference insert measured. */
export interface BareInsertResult {
  records: number;
  seconds: number;
  recordsPerSecond: number;
  peakRssMegabytes: number;
}

const BATCH = 20_000;

interface CatalogRecordText {
  id: string;
  title: { zh: string; en: string };
  notes: { zh: string; en: string };
  model: string;
  author: string;
  prompt?: string;
  promptCategory: string;
}

async function main(): Promise<void> {
  const [catalogFile, databaseFile] = process.argv.slice(2);
  if (!catalogFile || !databaseFile) throw new Error('usage: bare-insert.ts CATALOG_FILE DATABASE_FILE');
  const started = performance.now();
  const db = new Database(databaseFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE VIRTUAL TABLE records USING fts5(id UNINDEXED, title_zh, title_en, notes_zh, notes_en, model, author, prompt, category)');
  const insert = db.prepare('INSERT INTO records (id, title_zh, title_en, notes_zh, notes_en, model, author, prompt, category) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const write = db.transaction((rows: readonly CatalogRecordText[]) => {
    for (const row of rows) insert.run(row.id, row.title.zh, row.title.en, row.notes.zh, row.notes.en, row.model, row.author, row.prompt ?? null, row.promptCategory);
  });
  let batch: CatalogRecordText[] = [];
  const { records } = await scanCatalogFile(catalogFile, (record) => {
    batch.push(record as CatalogRecordText);
    if (batch.length === BATCH) {
      write(batch);
      batch = [];
    }
  });
  if (batch.length) write(batch);
  const seconds = (performance.now() - started) / 1000;
  db.close();
  const result: BareInsertResult = { records, seconds, recordsPerSecond: records / seconds, peakRssMegabytes: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bare-insert: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
