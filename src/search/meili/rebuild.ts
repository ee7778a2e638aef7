/**
 * Rebuilding the Meilisearch indexes without a moment of empty search: documents go into fresh
 * indexes (`specimens_zh_new` …) with the current settings, then one swap task exchanges them
 * with the live ones for both languages at once, and the old contents are deleted.
 */
import type { EnqueuedTask, Meilisearch } from 'meilisearch';
import type { IndexRecord } from '../../domain/ports.ts';
import type { Lang } from '../../domain/record.ts';
import { LANGS } from '../../domain/record.ts';
import { createIndexIfMissing, meiliClient, prepareIndex, sendDocuments } from './meili-search.ts';
import type { MeiliSearchOptions } from './meili-search.ts';
import { freshIndexName, indexName, indexSettings } from './settings.ts';
import { settleEnqueued, settleUnless } from './tasks.ts';

/** Deletes an index and waits; an index that does not exist counts as deleted. */
export async function deleteIndex(client: Meilisearch, uid: string): Promise<void> {
  await settleUnless(client.deleteIndex(uid), ['index_not_found']);
}

/**
 * Swaps index pairs in one task (atomic across the pairs). Sent as a plain request because the
 * client's swap call requires `rename`, a field Meilisearch accepts only from 1.18 and refuses as
 * unknown before (1.15, for one); without it, every version swaps (compose.yaml pins 1.50).
 */
export async function swapIndexes(client: Meilisearch, pairs: readonly (readonly [string, string])[]): Promise<void> {
  const enqueued = await client.httpRequest.post<EnqueuedTask>({ path: 'swap-indexes', body: pairs.map((pair) => ({ indexes: [...pair] })) });
  await settleEnqueued(client, enqueued);
}

/** What a rebuild did. */
export interface RebuildReport {
  documents: number;
  swapped: Record<Lang, [string, string]>;
}

/**
 * Document tasks a rebuild keeps enqueued per language before waiting for the oldest. Meilisearch
 * processes consecutive document tasks of one index as one batch, and each batch carries a fixed
 * cost (about a second on a large-memory host, see docs/deploy.md), so a rebuild that waited
 * for every task before sending the next would pay it once per thousand records.
 */
export const REBUILD_TASKS_IN_FLIGHT = 8;

/**
 * Fills fresh indexes from the records, swaps them in and deletes the old ones. The live indexes
 * answer searches throughout; a fresh index left over by an interrupted rebuild is dropped first.
 * No swap happens unless every document task succeeded.
 */
export async function rebuildIndexes(options: MeiliSearchOptions, records: AsyncIterable<IndexRecord>, onProgress: (documents: number) => void = () => {}, batchSize = 1000): Promise<RebuildReport> {
  const client = meiliClient(options);
  const prefix = options.indexPrefix ?? '';
  const live = { zh: indexName('zh', prefix), en: indexName('en', prefix) };
  const fresh = { zh: freshIndexName('zh', prefix), en: freshIndexName('en', prefix) };
  await Promise.all(
    LANGS.map(async (lang) => {
      await deleteIndex(client, fresh[lang]);
      await prepareIndex(client, fresh[lang], indexSettings(lang));
      // Swapping needs both sides to exist; a first deployment has no live index yet. Its settings
      // do not matter: it is swapped out and deleted, so changing them would re-index for nothing.
      await createIndexIfMissing(client, live[lang]);
    }),
  );
  let sent = 0;
  let documents = 0;
  const pending: { tasks: EnqueuedTask[]; through: number }[] = [];
  const settleOldest = async (): Promise<void> => {
    const oldest = pending.shift();
    if (!oldest) return;
    for (const task of oldest.tasks) await settleEnqueued(client, task);
    documents = oldest.through;
    onProgress(documents);
  };
  let batch: IndexRecord[] = [];
  const flush = async (): Promise<void> => {
    const tasks = await Promise.all(LANGS.map((lang) => sendDocuments(client, fresh[lang], batch, lang)));
    sent += batch.length;
    pending.push({ tasks, through: sent });
    batch = [];
    if (pending.length >= REBUILD_TASKS_IN_FLIGHT) await settleOldest();
  };
  for await (const record of records) {
    batch.push(record);
    if (batch.length >= batchSize) await flush();
  }
  if (batch.length > 0) await flush();
  while (pending.length > 0) await settleOldest();
  await swapIndexes(client, LANGS.map((lang) => [live[lang], fresh[lang]]));
  // After the swap the fresh names hold the old documents.
  await Promise.all(LANGS.map((lang) => deleteIndex(client, fresh[lang])));
  return { documents, swapped: { zh: [live.zh, fresh.zh], en: [live.en, fresh.en] } };
}
