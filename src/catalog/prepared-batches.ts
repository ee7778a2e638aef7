/**
 * The writer's side of a catalog import into the embedded store: a worker thread
 * (prepare-worker.ts) reads the file and prepares each record for the write while this thread
 * writes the batch before, so parsing, the canonical JSON and the search-index text (Chinese
 * bigrams, facet tokens) take the other core instead of the writer's time.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { unpackRecords } from '../store/sqlite/prepared-record.ts';
import type { PreparedRecord } from '../store/sqlite/prepared-record.ts';
import type { FromPrepareWorker, PrepareWorkerData, ToPrepareWorker } from './prepare-worker.ts';
import { CatalogFileError } from './catalog-file-error.ts';

const WORKER_MODULE = new URL('./prepare-worker.ts', import.meta.url);

/** The ES module of tsx's `register()` (its package's `./esm/api` export), as a URL. */
function tsxRegisterModule(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const entry = exports['./esm/api']?.import.default;
  if (!entry) throw new Error('tsx has no ./esm/api export');
  return new URL(entry, pathToFileURL(manifest)).href;
}

/** Starts the worker; a TypeScript module needs the tsx loader registered in the new thread first. */
function startWorker(data: PrepareWorkerData): Worker {
  if (!WORKER_MODULE.pathname.endsWith('.ts')) return new Worker(WORKER_MODULE, { workerData: data });
  const boot = `import(${JSON.stringify(tsxRegisterModule())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_MODULE.href)}); })`;
  return new Worker(boot, { eval: true, workerData: data });
}

/** A worker preparing one catalog file's records in batches; it starts reading at once, while the file is checked. */
export class PreparedBatches {
  private readonly worker: Worker;
  private readonly received: FromPrepareWorker[] = [];
  private failure: Error | undefined;
  private finished = false;
  private notify: (() => void) | undefined;

  constructor(data: PrepareWorkerData) {
    this.worker = startWorker(data);
    const wake = (): void => {
      this.notify?.();
      this.notify = undefined;
    };
    this.worker.on('message', (message: FromPrepareWorker) => {
      if ('done' in message) this.finished = true;
      this.received.push(message);
      wake();
    });
    this.worker.on('error', (error) => {
      this.failure ??= error;
      wake();
    });
    this.worker.on('exit', (code) => {
      if (!this.finished) this.failure ??= new Error(`the import's worker thread stopped (exit code ${code})`);
      wake();
    });
  }

  /**
   * Hands each batch to `write` in file order, the next one being prepared meanwhile, once the
   * file has been checked (`dates.file`: the date the check read; `dates.records`: the date the
   * records take, from it). The worker prepares the first batch during the check when the file
   * gives its date before its records. Only the records whose id `admits` are written. Returns
   * the number of records read.
   */
  async writeAll(dates: { file: string; records: string }, admits: (id: string) => boolean, write: (batch: PreparedRecord[]) => void): Promise<number> {
    this.worker.postMessage({ updated: dates.records } satisfies ToPrepareWorker);
    let batch: PreparedRecord[] = [];
    for (;;) {
      const message = await this.next();
      if ('done' in message) return message.done;
      if ('dated' in message) {
        // A name given twice keeps its last value in the check, its first in the worker: which is the catalog's date?
        if (message.dated !== null && message.dated !== dates.file) throw new CatalogFileError([`updated: the file gives two compilation dates, ${message.dated} and ${dates.file}`]);
        continue;
      }
      for (const record of unpackRecords(message.chunk)) if (admits(record.columns[0])) batch.push(record);
      this.worker.postMessage({ taken: true } satisfies ToPrepareWorker);
      if (message.ends) {
        if (batch.length) write(batch);
        batch = [];
      }
    }
  }

  /** Stops the worker (at the end, or when the import stopped early). */
  async stop(): Promise<void> {
    this.finished = true;
    await this.worker.terminate();
  }

  private async next(): Promise<FromPrepareWorker> {
    for (;;) {
      const message = this.received.shift();
      if (message) return message;
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.notify = resolve));
    }
  }
}
