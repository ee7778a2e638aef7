/**
 * The search index of a process that started while Meilisearch could not be opened: the process
 * serves what needs no search (record pages, ingest, exports, /healthz), every call of the index
 * fails with SearchIndexNotReady (an unavailable search: 503 with Retry-After, the index sync
 * retries), and opening is tried again in the background until it succeeds, which applies the
 * index settings; from then on calls go to the opened index.
 */
import type { IndexInspection, IndexRecord, RecordVersion, SearchIndex } from '../../domain/ports.ts';
import type { Lang } from '../../domain/record.ts';
import type { SearchHits, SearchQuery } from '../../domain/search-query.ts';
import { DOCUMENT_MAPPING_VERSION } from './documents.ts';

/** A call of a search index that is not open yet; its cause is why the last attempt failed. */
export class SearchIndexNotReady extends Error {
  constructor(cause: unknown) {
    super('the search index is not open yet: Meilisearch could not be opened (its index settings are applied once it answers)', { cause });
    this.name = 'SearchIndexNotReady';
  }
}

/** Waits between attempts: the first after 1 s, then 2 s, then every 5 s (the Retry-After of a 503). */
export const OPEN_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 5000];

/** What the process is told about the attempts after the first. */
export interface PendingIndexEvents {
  /** An attempt failed (`attempts` counts the first); opening is tried again. */
  failed(error: unknown, attempts: number): Promise<void> | void;
  /** An attempt succeeded: the index answers from now on. */
  opened(attempts: number): void;
}

export class PendingSearchIndex implements SearchIndex {
  /** Known before opening: this code writes the documents (documents.ts). */
  readonly mappingVersion = DOCUMENT_MAPPING_VERSION;
  private index: SearchIndex | undefined;
  private lastError: unknown;
  private attempts = 1;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private markOpened: () => void = () => {};
  /** Settles once the index opens (never when it is closed first): the index sync is woken by it. */
  readonly opened: Promise<void> = new Promise((resolve) => {
    this.markOpened = resolve;
  });

  /**
   * `open` is the opening that failed with `firstError`; it is called again after each delay of
   * `delays` (the last repeating) until it succeeds or the index is closed.
   */
  constructor(
    private readonly open: () => Promise<SearchIndex>,
    firstError: unknown,
    private readonly events: PendingIndexEvents,
    private readonly delays: readonly number[] = OPEN_RETRY_DELAYS_MS,
  ) {
    this.lastError = firstError;
    this.schedule();
  }

  /** Whether the index has been opened. */
  get isOpen(): boolean {
    return this.index !== undefined;
  }

  private schedule(): void {
    const delay = this.delays[Math.min(this.attempts - 1, this.delays.length - 1)] ?? 5000;
    // Never what keeps a process alive: a server's port or a publisher's poll does.
    this.timer = setTimeout(() => void this.attempt(), delay).unref();
  }

  private async attempt(): Promise<void> {
    this.timer = undefined;
    if (this.closed) return;
    this.attempts += 1;
    let index: SearchIndex;
    try {
      index = await this.open();
    } catch (error) {
      if (this.closed) return;
      this.lastError = error;
      await this.events.failed(error, this.attempts);
      if (!this.closed) this.schedule();
      return;
    }
    if (this.closed) {
      await index.close();
      return;
    }
    this.index = index;
    this.events.opened(this.attempts);
    this.markOpened();
  }

  private current(): SearchIndex {
    if (this.index) return this.index;
    throw new SearchIndexNotReady(this.lastError);
  }

  async upsert(records: readonly IndexRecord[]): Promise<void> {
    await this.current().upsert(records);
  }

  async remove(ids: readonly string[]): Promise<void> {
    await this.current().remove(ids);
  }

  async *streamVersions(lang: Lang, batchSize?: number): AsyncIterable<RecordVersion> {
    yield* this.current().streamVersions(lang, batchSize);
  }

  async search(query: SearchQuery): Promise<SearchHits> {
    return this.current().search(query);
  }

  async count(): Promise<number> {
    return this.current().count();
  }

  async ping(): Promise<void> {
    await this.current().ping();
  }

  /** The opened index's inspection, so the index sync restores an index lost later in a process that started during an outage too. */
  async inspect(): Promise<IndexInspection> {
    const index = this.current();
    if (!index.inspect) throw new Error('the opened search index cannot be inspected');
    return index.inspect();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.index?.close();
  }
}
