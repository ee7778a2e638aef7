/**
 * The production search index: Meilisearch, one index per language (`specimens_zh`,
 * `specimens_en`). Settings are applied at open when they differ from the server's, every write
 * waits until its task succeeded, and totals are exact (exhaustive page mode; see docs/search.md).
 */
import { Meilisearch, MeilisearchApiError, MeilisearchRequestError, MeilisearchRequestTimeOutError } from 'meilisearch';
import type { EnqueuedTaskPromise, Settings } from 'meilisearch';
import type { IndexInspection, IndexRecord, RecordVersion, SearchIndex } from '../../domain/ports.ts';
import type { Lang } from '../../domain/record.ts';
import { LANGS } from '../../domain/record.ts';
import type { SearchHits, SearchQuery } from '../../domain/search-query.ts';
import { DOCUMENT_MAPPING_VERSION, toMeiliDocument } from './documents.ts';
import type { MeiliDocument } from './documents.ts';
import { searchIndex } from './search.ts';
import { READY_TIMEOUT_MS, REQUEST_TIMEOUT_MS, SEARCH_TIMEOUT_MS, indexName, indexSettings, settingsToUpdate } from './settings.ts';
import { SETTINGS_TASK_TIMEOUT_MS, settle, settleUnless } from './tasks.ts';
import { MeiliIndexLost, fromMeili } from './unavailable.ts';

/** Where the Meilisearch server is and which indexes to use. */
export interface MeiliSearchOptions {
  url: string;
  apiKey?: string;
  /** Put before every index name; tests use a unique one so runs never share indexes. */
  indexPrefix?: string;
}

/** A client for these options, whose every request gives up after `timeoutMs`. */
export function meiliClient(options: MeiliSearchOptions, timeoutMs = REQUEST_TIMEOUT_MS): Meilisearch {
  return new Meilisearch({ host: options.url, ...(options.apiKey ? { apiKey: options.apiKey } : {}), timeout: timeoutMs });
}

/** The settings an index holds, or undefined when there is no index of that name. */
async function settingsOf(client: Meilisearch, uid: string): Promise<Settings | undefined> {
  try {
    return await client.index(uid).getSettings();
  } catch (error) {
    if (error instanceof MeilisearchApiError && error.cause?.code === 'index_not_found') return undefined;
    throw error;
  }
}

/** The names of a filterable or sortable setting (Meilisearch also takes objects of attribute patterns). */
function attributeNames(setting: unknown): Set<string> {
  const entries: unknown[] = Array.isArray(setting) ? setting : [];
  return new Set(
    entries.flatMap((entry) => {
      if (typeof entry === 'string') return [entry];
      const patterns = (entry as { attributePatterns?: unknown } | null)?.attributePatterns;
      return Array.isArray(patterns) ? patterns.filter((pattern): pattern is string => typeof pattern === 'string') : [];
    }),
  );
}

/**
 * What keeps an index from answering the archive's searches: `missing`, or `unusable` when its
 * settings lack an attribute the searches filter or sort by (an index re-created by a document
 * write, with Meilisearch's defaults, after it was deleted). Other differences from the wanted
 * settings do not count: a newer version of the archive may hold more, and each process applies
 * its own at start.
 */
export async function indexFault(client: Meilisearch, uid: string, wanted: Settings): Promise<'missing' | 'unusable' | undefined> {
  const actual = await settingsOf(client, uid);
  if (actual === undefined) return 'missing';
  const holds = (key: 'filterableAttributes' | 'sortableAttributes'): boolean => {
    const names = attributeNames(actual[key]);
    return [...attributeNames(wanted[key])].every((name) => names.has(name));
  };
  return holds('filterableAttributes') && holds('sortableAttributes') ? undefined : 'unusable';
}

/** Creates an empty index when there is none of that name. */
export async function createIndexIfMissing(client: Meilisearch, uid: string): Promise<void> {
  // Another process may create it between the look and the creation; that failure counts as done.
  if ((await settingsOf(client, uid)) === undefined) await settleUnless(client.createIndex(uid, { primaryKey: 'id' }), ['index_already_exists']);
}

/**
 * Brings an index to the wanted settings with at most one task: only the settings that differ
 * from the server's are sent, and a missing index is created by that same settings task (a
 * settings update creates the index it names; documents name their primary key). Every task
 * waits in Meilisearch's one queue behind everyone's writes, so each one saved counts. A changed
 * setting re-indexes the documents in place; Meilisearch answers from the previous state until
 * that task is done, and this waits for it.
 */
export async function prepareIndex(client: Meilisearch, uid: string, settings: Settings): Promise<void> {
  const actual = await settingsOf(client, uid);
  const changes = actual === undefined ? settings : settingsToUpdate(settings, actual);
  if (Object.keys(changes).length > 0) await settle(client.index<MeiliDocument>(uid).updateSettings(changes), SETTINGS_TASK_TIMEOUT_MS);
}

/** The documents of some records in one language, sent to an index (the task is only enqueued). */
export function sendDocuments(client: Meilisearch, uid: string, records: readonly IndexRecord[], lang: Lang): EnqueuedTaskPromise {
  return client.index<MeiliDocument>(uid).addDocuments(
    records.map((record) => toMeiliDocument(record, lang)),
    { primaryKey: 'id' },
  );
}

/** Writes documents of both languages to the given index pair and waits for both tasks. */
export async function writeDocuments(client: Meilisearch, uids: Record<Lang, string>, records: readonly IndexRecord[]): Promise<void> {
  if (records.length === 0) return;
  await Promise.all(LANGS.map((lang) => settle(sendDocuments(client, uids[lang], records, lang))));
}

/** The Meilisearch adapter of the SearchIndex port. */
export class MeiliSearchIndex implements SearchIndex {
  readonly mappingVersion = DOCUMENT_MAPPING_VERSION;
  private readonly uids: Record<Lang, string>;
  /** For searches, which give up sooner than writes (SEARCH_TIMEOUT_MS). */
  private readonly searching: Meilisearch;
  /** For readiness (ping, count), which answers within READY_TIMEOUT_MS. */
  private readonly readiness: Meilisearch;

  private constructor(
    private readonly client: Meilisearch,
    options: MeiliSearchOptions,
  ) {
    const prefix = options.indexPrefix ?? '';
    this.uids = { zh: indexName('zh', prefix), en: indexName('en', prefix) };
    this.searching = meiliClient(options, SEARCH_TIMEOUT_MS);
    this.readiness = meiliClient(options, READY_TIMEOUT_MS);
  }

  /** Connects, creates both indexes when missing and applies their settings. */
  static async open(options: MeiliSearchOptions): Promise<MeiliSearchIndex> {
    const client = meiliClient(options);
    const index = new MeiliSearchIndex(client, options);
    // A hung Meilisearch (SIGSTOP) is told within READY_TIMEOUT_MS, not after the 30 s of a settings request; other failures are left to the requests below, which tell them apart.
    await index.readiness.health().catch((error: unknown) => {
      if (error instanceof MeilisearchRequestTimeOutError || (error instanceof MeilisearchRequestError && error.cause instanceof MeilisearchRequestTimeOutError)) throw error;
    });
    await Promise.all(LANGS.map((lang) => prepareIndex(client, index.uids[lang], indexSettings(lang))));
    return index;
  }

  async upsert(records: readonly IndexRecord[]): Promise<void> {
    await writeDocuments(this.client, this.uids, records);
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await Promise.all(LANGS.map((lang) => settle(this.client.index(this.uids[lang]).deleteDocuments([...ids]))));
  }

  async search(query: SearchQuery): Promise<SearchHits> {
    try {
      return await fromMeili(searchIndex(this.searching, this.uids[query.lang], query));
    } catch (error) {
      throw await this.explained(error, query.lang);
    }
  }

  /**
   * A refused search (`index_not_found`, `invalid_search_filter` and Meilisearch's other 4xx
   * answers) is told as MeiliIndexLost when the index is missing or lacks its settings (deleted
   * while the service ran: the index sync restores it); otherwise it stays what it was, a defect.
   */
  private async explained(error: unknown, lang: Lang): Promise<unknown> {
    if (!(error instanceof MeilisearchApiError) || error.response.status >= 500) return error;
    const uid = this.uids[lang];
    const fault = await indexFault(this.client, uid, indexSettings(lang)).catch(() => undefined);
    return fault ? new MeiliIndexLost(uid, fault, { cause: error }) : error;
  }

  /**
   * Creates a missing index and applies the settings to one that lacks what the searches use,
   * each with one settings task (prepareIndex), and says which it mended and how many documents
   * each index holds then.
   */
  async inspect(): Promise<IndexInspection> {
    const restored: IndexInspection['restored'] = [];
    await Promise.all(
      LANGS.map(async (lang) => {
        const uid = this.uids[lang];
        const wanted = indexSettings(lang);
        const fault = await fromMeili(indexFault(this.client, uid, wanted));
        if (!fault) return;
        await prepareIndex(this.client, uid, wanted);
        restored.push({ lang, index: uid, was: fault });
      }),
    );
    const counts = await Promise.all(LANGS.map(async (lang) => [lang, (await fromMeili(this.client.index(this.uids[lang]).getStats())).numberOfDocuments] as const));
    return { restored, documents: Object.fromEntries(counts) as Record<Lang, number> };
  }

  /**
   * Every document's id and change number, read page by page (offset and limit over the
   * documents route, which is not capped by maxTotalHits). The order is Meilisearch's own; a
   * write between pages may shift a document across a page boundary, which the reconcile that
   * reads this tolerates (it replays the feed after repairing).
   */
  async *streamVersions(lang: Lang, batchSize = 1000): AsyncIterable<RecordVersion> {
    const index = this.client.index<MeiliDocument>(this.uids[lang]);
    for (let offset = 0; ; offset += batchSize) {
      const page = await fromMeili(index.getDocuments({ fields: ['id', 'seq'], offset, limit: batchSize }));
      yield* page.results.map((document) => ({ id: document.id, seq: typeof document.seq === 'number' ? document.seq : null }));
      if (page.results.length < batchSize) return;
    }
  }

  /** Documents in the zh index; both indexes are always written together. A quick read, which /readyz asks: within READY_TIMEOUT_MS. */
  async count(): Promise<number> {
    return (await fromMeili(this.readiness.index(this.uids.zh).getStats())).numberOfDocuments;
  }

  /** Both indexes answer within READY_TIMEOUT_MS and hold the settings the searches use (a request each, at once). */
  async ping(): Promise<void> {
    await Promise.all(
      LANGS.map(async (lang) => {
        const fault = await fromMeili(indexFault(this.readiness, this.uids[lang], indexSettings(lang)));
        if (fault) throw new MeiliIndexLost(this.uids[lang], fault);
      }),
    );
  }

  async close(): Promise<void> {
    // Plain HTTP requests: nothing stays open.
  }
}
