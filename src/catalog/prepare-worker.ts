/**
 * The worker thread of a catalog import into the embedded store (started by prepared-batches.ts):
 * reads the catalog file while another thread checks it, prepares each record for the store's
 * write (its JSON, key columns and search-index row) and posts them in chunks of at most
 * `chunkSize` records, each batch of `batchSize` records ending with a chunk marked as its end, at
 * most `ahead` chunks before the writer has taken them (small chunks keep both threads' memory flat).
 * Every record has its texts cleaned (cleanRecordText) and takes the catalog's date (`updated`): read from the file when it comes before
 * `records` (as in every file the archive writes), else sent by the writer once the check has passed;
 * `dateFloor` when the file's is earlier (importDateFloor).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { cleanRecordText } from '../domain/localize.ts';
import type { CanonicalRecord } from '../domain/record.ts';
import { packRecords, prepareRecord } from '../store/sqlite/prepared-record.ts';
import type { PackedRecords, PreparedRecord } from '../store/sqlite/prepared-record.ts';
import { scanCatalogFile } from './catalog-stream.ts';
import { notEarlierThan } from './import-date.ts';

/** What the worker is started with. */
export interface PrepareWorkerData {
  path: string;
  batchSize: number;
  chunkSize: number;
  withIndex: boolean;
  /** Chunks posted and not yet taken, at most. */
  ahead: number;
  /** The earliest date records may take (the day of an import into an archive compiled before). */
  dateFloor: string | undefined;
}

/** Sent by the writer: `{ updated }` (the date of the records, from the checked catalog's) once the check has passed, and `{ taken: true }` for each chunk it took. */
export type ToPrepareWorker = { updated: string } | { taken: true };

/**
 * Sent by the worker: as `records` opens, the file's date it read (`dated`, from which it dates
 * the records; null when the file gives none before `records` and it waits for the writer's date), chunks of prepared records
 * (`ends`: the last of its batch), then the number of records read.
 */
export type FromPrepareWorker = { dated: string | null } | { chunk: PackedRecords; ends: boolean } | { done: number };

async function prepare(port: MessagePort, { path, batchSize, chunkSize, withIndex, ahead, dateFloor }: PrepareWorkerData): Promise<void> {
  let updated: string | undefined;
  let checkedDate: (date: string) => void = () => {};
  const checked = new Promise<string>((resolve) => (checkedDate = resolve));
  let credits = ahead;
  let wake: (() => void) | undefined;
  port.on('message', (message: ToPrepareWorker) => {
    if ('updated' in message) {
      checkedDate(message.updated);
      return;
    }
    credits += 1;
    wake?.();
    wake = undefined;
  });
  let chunk: PreparedRecord[] = [];
  let inBatch = 0;
  const post = async (ends: boolean): Promise<void> => {
    if (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits -= 1;
    const packed = packRecords(chunk, withIndex);
    port.postMessage({ chunk: packed, ends } satisfies FromPrepareWorker, [packed.lengths.buffer as ArrayBuffer]);
    chunk = [];
  };
  const add = (record: unknown, date: string): Promise<void> | undefined => {
    chunk.push(prepareRecord({ ...cleanRecordText(record as CanonicalRecord), updated: date }, withIndex));
    inBatch += 1;
    if (inBatch === batchSize) {
      inBatch = 0;
      return post(true);
    }
    if (chunk.length === chunkSize) return post(false);
    return undefined;
  };
  const { records } = await scanCatalogFile(
    path,
    (record) => (updated === undefined ? checked.then((date) => add(record, (updated = date))) : add(record, updated)),
    undefined,
    (fields) => {
      const dated = typeof fields.updated === 'string' ? fields.updated : null;
      if (dated !== null) updated = notEarlierThan(dated, dateFloor);
      port.postMessage({ dated } satisfies FromPrepareWorker);
    },
  );
  if (inBatch > 0) await post(true);
  port.postMessage({ done: records } satisfies FromPrepareWorker);
  port.close();
}

if (parentPort) await prepare(parentPort, workerData as PrepareWorkerData);
